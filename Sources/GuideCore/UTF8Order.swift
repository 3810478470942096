/// The order of texts in everything tvguide writes: UTF-8 byte order, the order that `sort`,
/// `jq -S` and Python agree on, so that outputs compare byte for byte whoever sorts them.
package enum UTF8Order {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
