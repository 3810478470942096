import Foundation
import GuideCore

/// One copy of each repeated value of a guide: a week repeats titles, descriptions (reruns),
/// categories, credits and images across airings, and each copy read from a file is an
/// allocation of its own until it is swapped for the first one read.
package struct Interner {
    private var strings: Set<UTF8Key> = []
    private var texts: Set<[LocalizedText]> = []
    private var images: Set<[ImageRef]> = []
    private var credits: Set<[Credit]> = []
    private var details: Set<DetailsBox> = []

    /// `programmes`: how many programmes will be interned, when known. Reserving room for their
    /// texts at once spares rehashing every text held each time the table doubles.
    package init(programmes: Int = 0) {
        strings.reserveCapacity(2 * programmes)
    }

    /// Up to 15 bytes of UTF-8 a `String` holds inline: there is nothing to share.
    package mutating func string(_ value: String) -> String {
        value.utf8.count > 15 ? strings.insert(UTF8Key(value)).memberAfterInsert.string : value
    }

    package mutating func string(_ value: String?) -> String? {
        value.map { string($0) }
    }

    package mutating func texts(_ value: [LocalizedText]?) -> [LocalizedText]? {
        value.map { texts.insert($0).memberAfterInsert }
    }

    package mutating func images(_ value: [ImageRef]?) -> [ImageRef]? {
        value.map { images.insert($0).memberAfterInsert }
    }

    package mutating func credits(_ value: [Credit]?) -> [Credit]? {
        value.map { credits.insert($0).memberAfterInsert }
    }

    /// Swaps the programme's repeated values for the copies already held.
    package mutating func intern(_ programme: inout Programme) {
        programme.channel = string(programme.channel)
        programme.title = string(programme.title)
        programme.subtitle = string(programme.subtitle)
        programme.shareSynopsis { string($0) }
        programme.source = string(programme.source)
        programme.work = string(programme.work)
        if programme.categories != nil { programme.categories = texts(programme.categories) }
        if programme.images != nil { programme.images = images(programme.images) }
        if programme.credits != nil { programme.credits = credits(programme.credits) }
        programme.shareDetails(in: &details)
    }
}

/// A string compared and hashed as its UTF-8 bytes. `String` hashes and compares canonical
/// equivalents alike, normalising any text that is not ASCII as it goes: that cost a quarter
/// of `tvguide serve`'s start-up in interning, while sharing only exact copies loses nothing.
package struct UTF8Key: Hashable {
    package let string: String

    package init(_ string: String) {
        var string = string
        // Native strings already are; a bridged or lazily decoded one is made contiguous once.
        string.makeContiguousUTF8()
        self.string = string
    }

    // Read in place: `withUTF8` is mutating, and a copy to call it on retained the text each time
    // a table hashed or compared it.
    package func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        lhs.withUTF8 { a in rhs.withUTF8 { b in sameBytes(a, b) } }
    }

    private func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var string = string
        return string.withUTF8(body)
    }
}
