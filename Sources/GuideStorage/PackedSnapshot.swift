import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A binary companion of a snapshot's JSON (`latest.packed` beside `latest.json`) that
/// `tvguide serve` reads in one pass instead of parsing the JSON, whose decode was most of a
/// large server's start-up (docs/internals.md).
///
/// The JSON stays the snapshot: users read and diff it, and every store keeps it. The companion
/// is derived from it, names the file it was made for (`Identity`), and is only read while that
/// file is unchanged; anything unexpected in it makes the reader fall back to the JSON.
///
/// What a week repeats is held once: every text is in one table, numbered, and made a `String`
/// once however many airings share it (synopses, which hardly repeat, are a table of their own,
/// read as one `TextBlock`); what varies least per airing (categories, episode
/// numbering, images, ratings…) is one of a few "templates", compact JSON read by
/// `ProgrammeJSONReader` once each. An airing is then a few numbers: its channel, times, title,
/// sub-title, synopsis, source, work, place in a clump, credits, and template.
///
/// Layout (integers little-endian; `varint` is LEB128, `signed` its zigzag form):
/// - 16 bytes `magic`, u32 `formatVersion`, u32 0, the `Identity` as four u64;
/// - u64 length + the snapshot without programmes, as `SnapshotCodec` writes it;
/// - the texts: u64 count, count + 1 u64 offsets, u64 length + their UTF-8 bytes one after another;
/// - the synopses, as the texts;
/// - u64 count of template chunks, each u64 length + a compact JSON array of programmes;
/// - u64 programme count, u64 slice count, then each slice: u64 programmes, u64 length, records.
///
/// A record: a varint of which optional fields follow (stop, sub-title, synopsis, work, place in
/// a clump, credits), then the channel, the start (signed seconds), the title and the source,
/// then those present (the stop as seconds after the start; credits as a count and, for each,
/// flags, role and name, and character), then the template's number. Texts are their numbers (a synopsis, in the synopses).
package enum PackedSnapshot {
    static let magic = Array("tvguide packed\n\u{0}".utf8)
    /// 2: synopses in a table of their own.
    static let formatVersion: UInt32 = 2
    /// Where a companion holds its `Identity`: after the magic, the version and a zero.
    static let identityOffset = magic.count + 8
    /// Programmes per slice of records, and templates per chunk: the units read in parallel.
    static let programmesPerSlice = 8_192
    static let templatesPerChunk = 4_096

    /// The JSON file a companion was made for, as `stat` sees it: a new build writes a new file
    /// (a new inode), and an edit changes its modification time or size.
    package struct Identity: Equatable, Sendable {
        var size: UInt64
        var seconds: UInt64
        var nanoseconds: UInt64
        var inode: UInt64

        package init?(of url: URL) {
            var info = stat()
            guard stat(url.path, &info) == 0 else { return nil }
            size = UInt64(info.st_size)
            inode = UInt64(info.st_ino)
            #if canImport(Darwin)
            seconds = UInt64(bitPattern: Int64(info.st_mtimespec.tv_sec))
            nanoseconds = UInt64(info.st_mtimespec.tv_nsec)
            #else
            seconds = UInt64(bitPattern: Int64(info.st_mtim.tv_sec))
            nanoseconds = UInt64(info.st_mtim.tv_nsec)
            #endif
        }

        init(size: UInt64, seconds: UInt64, nanoseconds: UInt64, inode: UInt64) {
            (self.size, self.seconds, self.nanoseconds, self.inode) = (size, seconds, nanoseconds, inode)
        }

        /// What a companion written before its JSON holds until the JSON's identity is written
        /// over it (at `identityOffset`): no file has it.
        static let unknown = Identity(size: 0, seconds: 0, nanoseconds: 0, inode: 0)

        /// As a companion holds it: four u64, little-endian.
        var bytes: [UInt8] {
            [size, seconds, nanoseconds, inode].flatMap { field in (0..<8).map { UInt8(truncatingIfNeeded: field >> (8 * $0)) } }
        }

        /// A companion kept in the same database row as its JSON, written in the same statement:
        /// the row ties them, and the JSON's length is checked as well.
        package init(storedWithJSONOf length: Int) {
            self.init(size: UInt64(length), seconds: 0, nanoseconds: 0, inode: 0)
        }
    }

    /// The companion of `snapshot` as `SnapshotCodec` writes it (so as the JSON reads back:
    /// canonical order, times in whole seconds).
    package static func encode(_ snapshot: Snapshot, for identity: Identity) throws -> [UInt8] {
        try Contents(canonical: SnapshotCodec.canonical(snapshot)).bytes(for: identity)
    }

    /// `encode(snapshot, for: identity)`'s bytes, handed to `write` a megabyte at a time:
    /// a build writes the companion straight to its file, without holding it whole on top of
    /// the guide.
    package static func encode(_ snapshot: Snapshot, for identity: Identity,
                               to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try Contents(canonical: SnapshotCodec.canonical(snapshot)).write(for: identity, to: write)
    }

    /// The seconds `JSONWriter` writes a time with.
    static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Credits a record holds (a film's cast differs from film to film, and as templates they
    /// were most of the companion's reading): those without pictures or links.
    static func isPlain(_ credit: Credit) -> Bool {
        credit.images == nil && credit.urls == nil
    }

    /// What decides an airing's template: its details box and kind, the fields it keeps.
    struct TemplateKey: Hashable {
        var details: ObjectIdentifier?
        var kind: ProgrammeKind?
    }

    /// What a record does not hold: the programme with the fields a record holds emptied, so
    /// that airings differing only in those share one template. Every field `Programme` stores
    /// but its details and kind is emptied (`TemplateKey` relies on it).
    static func template(of programme: Programme) -> Programme {
        var template = programme
        template.channel = ""
        template.start = Date(timeIntervalSince1970: 0)
        template.title = ""
        template.source = ""
        template.stop = nil
        template.subtitle = nil
        template.synopsis = nil
        template.work = nil
        template.sameStartIndex = nil
        if programme.credits?.allSatisfy(isPlain) == true { template.credits = nil }
        return template
    }
}
