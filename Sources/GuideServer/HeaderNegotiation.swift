import Foundation

// What a request's header fields ask of a rendered body: a condition on its entity tag
// (`If-None-Match`, `If-Match`), a content coding (`Accept-Encoding`).

/// Entity tags in conditional requests (RFC 9110 §8.8.3, §13.1).
enum EntityTag {
    /// Whether the field value `list` (`"a", W/"b"` or `*`) names `tag`. Weak comparison takes
    /// `W/"x"` and `"x"` for the same; strong comparison matches strong tags only.
    static func list(_ list: String, contains tag: String, weakly: Bool) -> Bool {
        let (tagIsWeak, opaque) = split(Substring(tag))
        return list.split(separator: ",").contains { element in
            let element = element.trimmingCharacters(in: .whitespaces)
            if element == "*" { return true }
            let (isWeak, candidate) = split(Substring(element))
            return candidate == opaque && (weakly || (!isWeak && !tagIsWeak))
        }
    }

    private static func split(_ tag: Substring) -> (weak: Bool, opaque: Substring) {
        tag.hasPrefix("W/") ? (true, tag.dropFirst(2)) : (false, tag)
    }
}

/// `Accept-Encoding` (RFC 9110 §12.5.3).
enum ContentCoding {
    /// Whether `field` accepts gzip: named (or `x-gzip`), or covered by `*`, with a q above 0.
    static func acceptsGzip(_ field: String) -> Bool {
        var gzip: Double?
        var any: Double?
        for element in field.split(separator: ",") {
            let parameters = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parameters.first else { continue }
            let q = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch coding {
            case "gzip", "x-gzip": gzip = q
            case "*": any = q
            default: break
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
