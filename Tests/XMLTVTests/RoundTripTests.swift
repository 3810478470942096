import Foundation
import GuideCore
import GuideStorage
import Testing
import TestSupport
import XMLTV

/// Import, snapshot, export: nothing of what the DTD allows is lost or changed.
@Suite("XMLTV round trip")
struct RoundTripTests {
    /// `every-element.xml` uses every element and attribute of xmltv.dtd; its tv_cat output is
    /// what the reference tools keep. tvguide's export, through a JSON snapshot and tv_cat, must
    /// equal it element by element: the same elements in the same order, the same attributes
    /// (times compared as instants: the export writes UTC) and the same text. Only `<tv>`'s own
    /// attributes differ: the export names tvguide, the source's stay in the run report.
    @Test("every element and attribute of the DTD survives import, snapshot and export")
    func everyElement() async throws {
        let folder = Fixtures.url("xmltv-conformance")
        let imported = try XMLTVParser(source: "x").parse(contentsOf: folder.appendingPathComponent("every-element.xml"))

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let snapshot = Snapshot(generatedAt: Date(timeIntervalSince1970: 1_705_300_000),
                                window: TimeWindow(from: .distantPast, to: .distantFuture),
                                channels: imported.channels, programmes: imported.programmes, report: RunReport())
        let written = try SnapshotStore(directory: scratch, keep: 1).write(snapshot)
        let loaded = try SnapshotStore.load(written)
        #expect(loaded.programmes == imported.programmes)
        #expect(loaded.channels == imported.channels)

        let exported = scratch.appendingPathComponent("export.xml")
        try XMLTVWriter.write(channels: loaded.channels, programmes: loaded.programmes).write(to: exported)
        let catted = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/tv_cat"), [exported.path],
                                              environment: ["PATH": "/usr/bin:/bin", "PERL_HASH_SEED": "0", "XMLTV_SUPPLEMENT": "/usr/share/xmltv"])
        #expect(catted.status == 0, "tv_cat: \(catted.stderr)")
        let ours = scratch.appendingPathComponent("export.tv_cat.xml")
        try Data(catted.stdout.utf8).write(to: ours)

        // Python's ElementTree: a reader nobody on the team wrote.
        let compare = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.comparison,
                                                                                     folder.appendingPathComponent("every-element.tv_cat.xml").path, ours.path])
        #expect(compare.status == 0, "\(compare.stdout)\(compare.stderr)")
        #expect(compare.stdout.hasPrefix("equal:"), "\(compare.stdout)")
    }

    @Test("a sub-title or description keeps its own language, or its lack of one, when it is not the title's")
    func textLanguages() throws {
        let imported = try parseText("""
            <tv><programme start="20261019060000 +0000" channel="La1.es"><title lang="en">News</title>
            <sub-title>Morning</sub-title><desc lang="fr">Le journal.</desc></programme></tv>
            """)
        let text = String(decoding: try XMLTVWriter.write(channels: imported.channels, programmes: imported.programmes), as: UTF8.self)
        #expect(text.contains("<title lang=\"en\">News</title>"))
        #expect(text.contains("<sub-title>Morning</sub-title>"))
        #expect(text.contains("<desc lang=\"fr\">Le journal.</desc>"))
    }

    static let comparison = #"""
        import sys, datetime, xml.etree.ElementTree as ET
        TIMES = {"start", "stop", "pdc-start", "vps-start"}
        def instant(text):
            text = text.strip()
            digits, _, zone = text.partition(" ")
            moment = datetime.datetime.strptime(digits, "%Y%m%d%H%M%S")
            if zone:
                sign = -1 if zone[0] == "-" else 1
                moment -= sign * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[3:5]))
            return moment.isoformat()
        def attributes(element):
            return {k: (instant(v) if k in TIMES and element.tag != "tv" else v) for k, v in element.attrib.items()}
        def text(value):
            return " ".join((value or "").split())
        differences = []
        count = 0
        def walk(a, b, path):
            global count
            count += 1
            if a.tag != b.tag:
                differences.append(f"{path}: <{a.tag}> vs <{b.tag}>"); return
            if a.tag != "tv" and attributes(a) != attributes(b):
                differences.append(f"{path}: attributes {attributes(a)} vs {attributes(b)}")
            if text(a.text) != text(b.text):
                differences.append(f"{path}: text {text(a.text)!r} vs {text(b.text)!r}")
            if len(a) != len(b):
                differences.append(f"{path}: {len(a)} children vs {len(b)}: {[c.tag for c in a]} vs {[c.tag for c in b]}")
            for index, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}/{x.tag}[{index}]")
        reference, ours = ET.parse(sys.argv[1]).getroot(), ET.parse(sys.argv[2]).getroot()
        walk(reference, ours, "tv")
        if differences:
            print("\n".join(differences)); sys.exit(1)
        print(f"equal: {count} elements")
        """#
}
