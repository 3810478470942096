import Foundation
import GuideCore
import Testing
import TestSupport
import XMLTV

/// tvguide's import and normalisation against the reference tools' own output, on the cases of
/// Fixtures/xmltv-conformance (its README says how each output was made and what it tests).
@Suite("XMLTV conformance with tv_sort")
struct ConformanceTests {
    static let folder = Fixtures.url("xmltv-conformance")

    /// Every input the tv_sort output exists for.
    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".tv_sort.xml") }.map { String($0.dropLast(".tv_sort.xml".count)) }.sorted()
    }()

    /// `channel start stop title`, one line per programme, as tv_sort's output holds them.
    static func rows(_ programmes: [Programme]) -> [String] {
        programmes.map { "\($0.channel) \(XMLTVTime.format($0.start)) \($0.stop.map(XMLTVTime.format) ?? "-") \($0.title)" }
    }

    /// tvguide's programmes: the import normalised channel by channel, as a build does.
    static func normalised(_ name: String) throws -> (rows: [String], report: NormalisationReport) {
        let document = try XMLTVParser(source: "x").parse(contentsOf: folder.appendingPathComponent("\(name).xml"))
        var report = NormalisationReport()
        var result: [Programme] = []
        for channel in Set(document.programmes.map(\.channel)).sorted() {
            result += Normaliser.normalise(document.programmes.filter { $0.channel == channel }, report: &report)
        }
        return (rows(result), report)
    }

    static func reference(_ name: String) throws -> [String] {
        let document = try XMLTVParser(source: "x").parse(contentsOf: folder.appendingPathComponent("\(name).tv_sort.xml"))
        return rows(document.programmes.sorted { ($0.channel, $0.start) < ($1.channel, $1.start) })
    }

    /// Where tvguide deliberately differs (docs/configuration.md, "xmltv"): the rows tv_sort has
    /// and tvguide does not, and the other way round.
    static let differences: [String: (onlyTvSort: [String], onlyTvguide: [String])] = [
        // tv_sort leaves character references unexpanded; tvguide expands them and drops DEL and C1 controls
        "control-chars": (["referenced.control.test 20240115100000 +0000 20240115110000 +0000 Referenced NEL[&#x85;]CSI[&#x9B;]DEL[&#x7F;]",
                "referenced.control.test 20240115110000 +0000 20240115120000 +0000 &#x7F;&#x85;&#x9B;",
                "referenced.control.test 20240115120000 +0000 20240115130000 +0000 &#x85;&#x85;"],
            ["referenced.control.test 20240115100000 +0000 20240115110000 +0000 Referenced NEL[]CSI[]DEL[]"]),
        // tv_sort leaves entity references unexpanded; tvguide expands the document's own entities
        "entities": (["entities.test 20240115100000 +0000 20240115110000 +0000 T &y; END"],
            ["entities.test 20240115100000 +0000 20240115110000 +0000 T text END"]),
        // Date::Manip reads 202306 as today's 20:23 and YYYYMMDD with a zone months off; tvguide reads what the DTD says
        "partial-times": (["partial-yymm.test 20100101000000 +0000 - YYYYMM 201001 (January 2010)",
                "partial-zoned.test 20230704210000 +0000 - YYYYMMDDhh UTC (2023-07-04 21:00Z)",
                "partial.test 20230101000000 +0000 20230701000000 +0000 YYYY 2023",
                "partial.test 20230601000000 +0000 - YYYYMM 202306"],
            ["partial-yymm.test 20100101000000 +0000 20150101000000 +0000 YYYYMM 201001 (January 2010)",
                "partial-yymm.test 20150101000000 +0000 - YYYYMMDD 20150101",
                "partial-zoned.test 20230704210000 +0000 20230704213000 +0000 YYYYMMDDhh UTC (2023-07-04 21:00Z)",
                "partial-zoned.test 20230704220000 +0000 - YYYYMMDD +0200 (2023-07-04 22:00Z)",
                "partial.test 20230101000000 +0000 20230601000000 +0000 YYYY 2023",
                "partial.test 20230601000000 +0000 20230701000000 +0000 YYYYMM 202306",
                "partial.test 20230704063015 +0000 - YYYYMMDDhhmmss 20230704063015"]),
        // tv_sort leaves out programmes before 1970 and from 29991231235959 on; tvguide keeps them
        "writer-window": ([],
            ["window.test 19691231230000 +0000 19700101000000 +0000 1969: dropped",
                "window.test 19700101000000 +0000 19700101010000 +0000 Partial 1970: dropped",
                "window.test 19700101000000 +0000 19700101010000 +0000 Partial 1970010100: dropped",
                "window.test 29991231235959 +0000 30000101000000 +0000 29991231235959: dropped",
                "window.test 30000101000000 +0000 - 3000: dropped"]),
        // Date::Manip reads PST in July as Manila's +0800; tvguide reads -0800 all year
        "zones-pst-in-summer": ([],
            ["pst.zones.test 20240715200000 +0000 - PST 12:00 (20:00Z as -0800, 04:00Z for tv_sort)"]),
    ]

    @Test("the normalised programmes equal tv_sort's, but for the documented differences", arguments: inputs)
    func agreesWithTvSort(name: String) throws {
        let ours = try Self.normalised(name).rows
        let theirs = try Self.reference(name)
        let onlyTheirs = theirs.filter { !ours.contains($0) }
        let onlyOurs = ours.filter { !theirs.contains($0) }
        let expected = Self.differences[name] ?? ([], [])
        #expect(onlyTheirs == expected.onlyTvSort, "only in tv_sort's output of \(name)")
        #expect(onlyOurs == expected.onlyTvguide, "only in tvguide's normalisation of \(name)")
    }

    /// Every input of the folder, whatever the reference tools made of it.
    static let allInputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") && !$0.contains(".tv_") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test("the export of every input passes tv_validate_file, but for ids it refuses (kept and named)", arguments: allInputs)
    func exportIsValid(name: String) async throws {
        let document = try XMLTVParser(source: "x").parse(contentsOf: Self.folder.appendingPathComponent("\(name).xml"))
        let exported = try XMLTVWriter.write(channels: document.channels, programmes: document.programmes)
        let result = try await TVValidateFile.run(on: exported)
        let refusedIDs = document.channels.map(\.id).filter { id in
            !XMLTVWriter.validityNotes(channels: [Channel(id: id, name: id)], programmes: [Programme(channel: id, start: Date(), title: "t", source: "x")]).isEmpty
        }
        if document.programmes.isEmpty {
            // An XMLTV file without programmes is invalid for tv_validate_file, the input as well as its export.
            #expect(result.output.contains("No programme entries found"), "\(name): \(result.output)")
        } else if refusedIDs.isEmpty {
            #expect(result.status == 0, "\(name): \(result.output)")
        } else {
            let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("Line ") }
            #expect(lines.count == refusedIDs.count && lines.allSatisfy { $0.contains("Invalid channel-id") }, "\(name): \(result.output)")
        }
    }

    @Test("every input is imported")
    func everyInputImports() throws {
        #expect(Self.inputs.count >= 15)
        for name in Self.inputs {
            #expect(throws: Never.self) { _ = try Self.normalised(name) }
        }
    }
}
