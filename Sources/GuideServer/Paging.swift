import Foundation

/// Lists are answered a page at a time: `limit` and `offset` in, `Page` out.
extension QueryReader {
    /// `limit` and `offset` for lists.
    func page(defaultLimit: Int = PageLimits.defaultLimit) throws -> PageRequest {
        PageRequest(limit: try int("limit", default: defaultLimit, in: 1...PageLimits.maximum),
                    offset: try int("offset", default: 0, in: 0...Int(Int32.max)))
    }
}

enum PageLimits {
    static let defaultLimit = 100
    static let maximum = 1_000
}

struct PageRequest: Sendable, Hashable {
    var limit: Int
    var offset: Int
}

/// One page of a list: the items and where they sit in the whole.
struct Page<Item: Encodable>: Encodable {
    var total: Int
    var offset: Int
    var limit: Int
    var items: [Item]

    init(_ all: [Item], _ request: PageRequest) {
        total = all.count
        offset = request.offset
        limit = request.limit
        let start = min(request.offset, all.count)
        items = Array(all[start..<min(all.count, start + request.limit)])
    }
}
