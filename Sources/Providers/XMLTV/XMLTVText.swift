/// The characters an XMLTV document carries, for the parser, the writer and the writer's
/// title check alike: XML 1.0's (no control characters but tab and line breaks, no U+FFFE or
/// U+FFFF), less DEL and the C1 controls (U+0080–U+009F). Those two are legal XML, but never
/// text: a file misencoded from windows-1252, or a terminal escape; tv_validate_file refuses them.
enum XMLTVText {
    static func carries(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: false
        default: true
        }
    }
}
