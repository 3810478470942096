import Foundation
import Hummingbird

/// `/favicon.ico`: a 32×32 television in the guide's colours, drawn here into a real ICO (one
/// 32-bit BMP image with its transparency mask), so browsers show it and the binary carries no
/// image file.
enum WebIcon {
    private static let size = 32
    /// IANA's type for ICO; browsers take it as well as the older `image/x-icon`.
    static let contentType = "image/vnd.microsoft.icon"

    static let response = RenderedResponse(contentType: contentType, bytes: ico(pixels: pixels()), maxAge: 86_400)

    /// A pixel as red, green, blue, alpha.
    private typealias Pixel = (UInt8, UInt8, UInt8, UInt8)

    /// Rows from the top: a red set with a light screen, a dark stand and two antennas.
    private static func pixels() -> [[Pixel]] {
        let clear: Pixel = (0, 0, 0, 0)
        let red: Pixel = (0xC6, 0x28, 0x28, 0xFF), screen: Pixel = (0xFF, 0xF4, 0xE5, 0xFF), ink: Pixel = (0x1D, 0x1F, 0x23, 0xFF)
        var rows = Array(repeating: Array(repeating: clear, count: size), count: size)
        for y in 0..<size {
            for x in 0..<size {
                // The set, its corners cut by one pixel.
                let corner = (x == 1 || x == 30) && (y == 8 || y == 26)
                if (1...30).contains(x) && (8...26).contains(y) && !corner { rows[y][x] = red }
                if (4...27).contains(x) && (11...23).contains(y) { rows[y][x] = screen }
                if (11...20).contains(x) && (28...29).contains(y) { rows[y][x] = ink }
            }
        }
        // Antennas from the top of the set, out to either side.
        for step in 0..<7 {
            rows[7 - step][15 - step] = ink
            rows[7 - step][16 + step] = ink
        }
        return rows
    }

    /// An ICO file holding `pixels` (square, `size` wide): the directory, then the BMP header,
    /// the colours bottom-up as BGRA, and the AND mask (a bit set where the pixel is clear).
    private static func ico(pixels: [[Pixel]]) -> [UInt8] {
        let maskRowBytes = (size + 31) / 32 * 4
        let imageBytes = 40 + size * size * 4 + size * maskRowBytes
        var bytes: [UInt8] = []
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16 & 0xFFFF) }
        // ICONDIR and its one entry: 32×32, 1 plane, 32 bits, the image right after (byte 22).
        u16(0); u16(1); u16(1)
        bytes += [UInt8(size), UInt8(size), 0, 0]
        u16(1); u16(32); u32(imageBytes); u32(22)
        // BITMAPINFOHEADER: the height counts the colours and the mask together.
        u32(40); u32(size); u32(size * 2); u16(1); u16(32); u32(0)
        u32(size * size * 4 + size * maskRowBytes); u32(0); u32(0); u32(0); u32(0)
        for row in pixels.reversed() {
            for (red, green, blue, alpha) in row { bytes += [blue, green, red, alpha] }
        }
        for row in pixels.reversed() {
            var mask = [UInt8](repeating: 0, count: maskRowBytes)
            for (x, pixel) in row.enumerated() where pixel.3 == 0 { mask[x / 8] |= 0x80 >> UInt8(x % 8) }
            bytes += mask
        }
        return bytes
    }
}
