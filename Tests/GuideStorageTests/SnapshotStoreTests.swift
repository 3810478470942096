import Foundation
@testable import GuideCore
@testable import GuideStorage
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct SnapshotStoreTests {
    /// A fresh folder per test; each test removes it when it ends.
    struct Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-store-\(UUID().uuidString)")

        func remove() {
            try? FileManager.default.removeItem(at: root)
        }

        func store(keep: Int = 14) -> SnapshotStore {
            SnapshotStore(directory: root.appendingPathComponent("nested/snapshots"), keep: keep)
        }

        func names(in store: SnapshotStore) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        }
    }

    @Test func writeCreatesTheFolderTheDatedFileAndLatest() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        let snapshot = SnapshotSamples.full()

        let dated = try store.write(snapshot)

        #expect(dated.lastPathComponent == "guide-20261025T060000Z.json")
        #expect(try scratch.names(in: store) == ["guide-20261025T060000Z.json", "latest.json", "latest.packed"])
        let expected = try SnapshotCodec.encode(snapshot)
        #expect(try Data(contentsOf: dated) == expected)
        #expect(try Data(contentsOf: store.latestURL) == expected)
        #expect(try store.loadLatest() == snapshot)
        #expect(try SnapshotStore.load(dated) == snapshot)
    }

    @Test func noSnapshotYetIsNil() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(try scratch.store().loadLatest() == nil)
        #expect(scratch.store().list() == [])
    }

    @Test func retentionKeepsTheNewestDatedFiles() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store(keep: 3)
        // Written out of time order: retention goes by generatedAt, not by when a file was written.
        let times = ["2026-10-21T06:00:00Z", "2026-10-19T06:00:00Z", "2026-10-23T06:00:00Z", "2026-10-20T06:00:00Z", "2026-10-22T06:00:00Z"]
        for time in times {
            try store.write(SnapshotSamples.minimal(generatedAt: time))
        }

        #expect(store.list().map(\.lastPathComponent) == [
            "guide-20261023T060000Z.json", "guide-20261022T060000Z.json", "guide-20261021T060000Z.json",
        ])
        #expect(try scratch.names(in: store).filter { !$0.hasPrefix("guide-") } == ["latest.json", "latest.packed"])
        #expect(try store.loadLatest()?.generatedAt == SnapshotSamples.time("2026-10-22T06:00:00Z"))
    }

    @Test func keepBelowOneStillKeepsTheSnapshotJustWritten() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store(keep: 0)
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-19T06:00:00Z"))
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-20T06:00:00Z"))
        #expect(store.list().map(\.lastPathComponent) == ["guide-20261020T060000Z.json"])
    }

    @Test func temporaryFilesOfACrashAreIgnoredThenRemoved() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-19T06:00:00Z"))
        let folder = store.directory
        // Left by a crashed writer: nobody holds its lock.
        let crashed = folder.appendingPathComponent(".latest.json.2147483646.1a2b.tmp")
        // Left by pid 1 of a past container run, a pid that is alive again: still nobody's lock.
        let reusedPid = folder.appendingPathComponent(".latest.json.1.3c4d.tmp")
        // A live writer, its file's time far in the past as after the clock jumped forward.
        let concurrent = folder.appendingPathComponent(".guide-20261020T060000Z.json.\(getpid()).5e6f.tmp")
        for file in [crashed, reusedPid, concurrent] {
            try Data("{\"half\": ".utf8).write(to: file)
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -40 * 365 * 86_400)], ofItemAtPath: concurrent.path)
        let writer = try WriterLock(concurrent)
        defer { writer.release() }

        #expect(store.list().map(\.lastPathComponent) == ["guide-20261019T060000Z.json"])
        #expect(try store.loadLatest()?.generatedAt == SnapshotSamples.time("2026-10-19T06:00:00Z"))

        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-20T06:00:00Z"))
        #expect(try scratch.names(in: store) == [
            concurrent.lastPathComponent, "guide-20261019T060000Z.json", "guide-20261020T060000Z.json", "latest.json", "latest.packed",
        ])
        writer.release()
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-21T06:00:00Z"))
        #expect(try !scratch.names(in: store).contains(concurrent.lastPathComponent))
    }

    @Test func aSuccessfulWriteLeavesNoTemporaryFile() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        for day in 19...21 {
            try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-\(day)T06:00:00Z"))
        }
        #expect(try scratch.names(in: store).filter { $0.hasPrefix(".") } == [])
    }

    @Test func corruptLatestIsATypedErrorNamingTheFile() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        try store.write(SnapshotSamples.full())
        let whole = try Data(contentsOf: store.latestURL)
        try whole.prefix(whole.count / 2).write(to: store.latestURL)

        do {
            _ = try store.loadLatest()
            Issue.record("a truncated latest.json loaded")
        } catch let SnapshotError.corrupt(file, detail) {
            #expect(file == store.latestURL.path)
            #expect(!detail.isEmpty)
        }
    }

    @Test func aMissingFileIsAnIOError() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let missing = scratch.root.appendingPathComponent("nowhere.json")
        do {
            _ = try SnapshotStore.load(missing)
            Issue.record("loaded a missing file")
        } catch let SnapshotError.io(file, operation, _) {
            #expect(file == missing.path)
            #expect(operation == "read")
        }
    }

    /// Works as root too: a directory where the dated file should go makes the rename fail.
    @Test func aFailedWriteLeavesLatestUntouched() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-19T06:00:00Z"))
        let before = try Data(contentsOf: store.latestURL)
        let next = SnapshotSamples.minimal(generatedAt: "2026-10-20T06:00:00Z")
        try FileManager.default.createDirectory(at: store.datedURL(for: next.generatedAt).appendingPathComponent("occupied"),
                                                withIntermediateDirectories: true)

        do {
            try store.write(next)
            Issue.record("wrote over a directory")
        } catch let SnapshotError.io(file, operation, _) {
            #expect(file == store.datedURL(for: next.generatedAt).path)
            #expect(operation == "replace")
        }
        #expect(try Data(contentsOf: store.latestURL) == before)
        #expect(try scratch.names(in: store).filter { $0.hasPrefix(".") } == [])
    }

    @Test func aWriteWhoseProducerFailsHalfwayLeavesTheTargetAndNoTemporaryFile() throws {
        struct EncoderGaveUp: Error {}
        let scratch = Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        let target = scratch.root.appendingPathComponent("latest.json")
        try AtomicFile.write(Data("old".utf8), to: target)

        do {
            try AtomicFile.write(to: target) { write in
                try Data("half of the new".utf8).withUnsafeBytes(write)
                throw EncoderGaveUp()
            }
            Issue.record("a failed producer replaced the file")
        } catch let SnapshotError.io(file, operation, _) {
            #expect(file == target.path)
            #expect(operation == "encode")
        }
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path) == ["latest.json"])

        try AtomicFile.write(to: target) { write in
            for piece in ["new ", "in ", "pieces"] { try Data(piece.utf8).withUnsafeBytes(write) }
        }
        #expect(try Data(contentsOf: target) == Data("new in pieces".utf8))
    }

    @Test func anUnplacedFileIsPlacedWithItsPatchOrRemovedWhenDropped() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        let target = scratch.root.appendingPathComponent("latest.packed")
        try AtomicFile.write(Data("old".utf8), to: target)
        let produce = { (write: (UnsafeRawBufferPointer) throws -> Void) throws in
            for piece in ["0123", "456789"] { try Data(piece.utf8).withUnsafeBytes(write) }
        }

        // Written whole but not placed: the target is untouched until it is.
        var file: AtomicFile.Unplaced? = try AtomicFile.Unplaced(target, produce)
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path).count == 2)
        try file?.place(patching: Array("AB".utf8), at: 3)
        #expect(try Data(contentsOf: target) == Data("012AB56789".utf8))
        file = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path) == ["latest.packed"])

        // Dropped unplaced (what a store does when its JSON could not be written): removed.
        file = try AtomicFile.Unplaced(target, produce)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path).count == 2)
        file = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path) == ["latest.packed"])
        #expect(try Data(contentsOf: target) == Data("012AB56789".utf8))

        // Placed twice: the second finds nothing left to place.
        let once = try AtomicFile.Unplaced(target, produce)
        try once.place(patching: [], at: 0)
        #expect(try Data(contentsOf: target) == Data("0123456789".utf8))
        #expect(throws: SnapshotError.self) { try once.place(patching: [], at: 0) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.path) == ["latest.packed"])
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into a read-only folder"))
    func anUnwritableFolderIsAnErrorAndLatestStays() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-19T06:00:00Z"))
        let before = try Data(contentsOf: store.latestURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: store.directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.directory.path) }

        #expect(throws: SnapshotError.self) { try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-20T06:00:00Z")) }
        #expect(try Data(contentsOf: store.latestURL) == before)
    }

    @Test func aFolderThatCannotBeCreatedIsAnError() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        let file = scratch.root.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let store = SnapshotStore(directory: file.appendingPathComponent("snapshots"), keep: 3)

        do {
            try store.write(SnapshotSamples.minimal())
            Issue.record("created a folder inside a file")
        } catch let SnapshotError.io(path, operation, _) {
            #expect(path == store.directory.path)
            #expect(operation == "create the snapshot folder")
        }
    }
}
