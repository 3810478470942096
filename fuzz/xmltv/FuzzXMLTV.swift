import Foundation
import FuzzSupport
import GuideCore
import XMLTV

/// XMLTV bytes (plain or gzip) through `XMLTVParser.parse(_:name:)`, libxml2's streaming reader
/// under it. Seeds: Fixtures/xmltv (sample.xml cut to a few channels and programmes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLTV(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    do {
        _ = try XMLTVParser(source: "xmltv").parse(fuzzData(bytes, count), name: "fuzz.xml")
    } catch {
        requireTyped(error, "XMLTVParser")
    }
    return 0
}

@_cdecl("fuzz_xmltv_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzXMLTV)
}
