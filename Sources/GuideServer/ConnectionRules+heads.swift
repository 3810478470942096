import Foundation
import NIOHTTP1

/// The rules for a request head: the limits of `ServerLimits` and what HTTP/1.1 allows.
extension ConnectionRules {
    /// The refusal of `head`, or nil when it is within the limits and a request HTTP/1.1 allows.
    func refusal(of head: HTTPRequestHead) -> Refusal? {
        func refused(_ status: HTTPResponseStatus, _ message: String, _ fields: [(name: String, value: String)] = []) -> Refusal {
            Refusal(status: status, message: message, headersOnly: head.method == .HEAD, fields: fields,
                    target: head.uri[...], accept: head.headers["accept"])
        }
        let uriBytes = head.uri.utf8.count
        if uriBytes > limits.uriBytes {
            return refused(.uriTooLong, "the request target is \(uriBytes) bytes, at most \(limits.uriBytes) are allowed")
        }
        var fieldBytes = 0
        var fields = 0
        var declaredBody: Int?
        var codings: [Substring] = []
        var hosts: [String] = []
        for (name, value) in head.headers {
            fields += 1
            fieldBytes += name.utf8.count + value.utf8.count + 4
            if Self.isName(name, "content-length") {
                declaredBody = Int(value) ?? Int.max
            } else if Self.isName(name, "transfer-encoding") {
                codings += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces)[...] }
            } else if Self.isName(name, "host") {
                hosts.append(value)
            }
        }
        if fields > limits.headerFields {
            return refused(.requestHeaderFieldsTooLarge, "\(fields) header fields, at most \(limits.headerFields) are allowed")
        }
        if fieldBytes > limits.headerBytes {
            return refused(.requestHeaderFieldsTooLarge, "the header fields are \(fieldBytes) bytes, at most \(limits.headerBytes) are allowed")
        }
        if !codings.isEmpty {
            // RFC 9112 §6.1: a coding the server does not know is a 501. (A list where `chunked`
            // is not last, or comes twice, never gets here: NIO's parser refuses it, a 400.)
            if let unknown = codings.first(where: { $0.lowercased() != "chunked" }) {
                return refused(.notImplemented, "the transfer coding \(Quoted(String(unknown))) is not implemented; only chunked is")
            }
            return refused(.payloadTooLarge, "request bodies are not accepted: every route is a GET")
        }
        if let declaredBody, declaredBody > limits.bodyBytes {
            return refused(.payloadTooLarge, "a request body of \(declaredBody) bytes, at most \(limits.bodyBytes) are allowed (every route is a GET)")
        }
        // A tunnel is not something this server makes; refused here, as the parser reads
        // nothing after a CONNECT.
        if head.method == .CONNECT {
            return refused(.methodNotAllowed, "method CONNECT is not allowed; this server answers GET and HEAD", [("Allow", "GET, HEAD")])
        }
        // RFC 9112 §3.2: one Host, a valid one, and always one in HTTP/1.1.
        if hosts.count > 1 {
            return refused(.badRequest, "\(hosts.count) Host header fields; a request has one")
        }
        if hosts.isEmpty, head.version != .http1_0 {
            return refused(.badRequest, "an HTTP/1.1 request needs a Host header field")
        }
        if let host = hosts.first, !Self.isHost(host) {
            return refused(.badRequest, "the Host header field is not a host with an optional port")
        }
        // RFC 9110 §4.2.4: credentials in a URI are to be treated as an error.
        if let authority = Self.authority(ofAbsoluteForm: head.uri), authority.contains("@") {
            return refused(.badRequest, "the request target has userinfo (user@host), which HTTP does not allow")
        }
        return nil
    }

    /// Whether `head` asks to switch protocols as NIO's parser (llhttp) reads it: `CONNECT`, or an
    /// `Upgrade` field with `upgrade` among the `Connection` options. Such a request is the last
    /// the parser reads: it leaves what follows to the new protocol.
    static func asksToUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.method == .CONNECT || (head.headers.contains(name: "upgrade")
            && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" })
    }

    /// Whether the header `name` is `lowercased`, ignoring ASCII case: on every request, for
    /// every field, so without Foundation's comparison and its allocations.
    private static func isName(_ name: String, _ lowercased: StaticString) -> Bool {
        guard name.utf8.count == lowercased.utf8CodeUnitCount else { return false }
        return lowercased.withUTF8Buffer { expected in
            zip(name.utf8, expected).allSatisfy { byte, wanted in byte | 0x20 == wanted || byte == wanted }
        }
    }

    /// `uri-host [ ":" port ]` (RFC 3986): a registered name, an IPv4 address or an IP literal in
    /// brackets, each made of these bytes; empty is allowed (RFC 9112 §3.2, a target without
    /// an authority).
    private static func isHost(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                hostPunctuation.contains(byte)
            }
        }
    }

    /// The authority of an absolute-form target (`http://host:port/path`), nil for the origin form.
    private static func authority(ofAbsoluteForm target: String) -> Substring? {
        guard !target.hasPrefix("/"), let scheme = target.range(of: "://") else { return nil }
        return target[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// The CORS fields the server's other errors carry (`CrossOriginMiddleware`). Without a head
    /// to read (a timeout, a head the parser gave up on) the origin is not known: only a
    /// configuration letting any origin read gives `*`.
    func corsFields(for head: HTTPRequestHead?) -> [(name: String, value: String)] {
        guard let crossOrigin else { return [] }
        guard let head else { return crossOrigin.any ? CrossOrigin.allowedFields("*") : [] }
        guard CrossOrigin.covers(String(head.uri.prefix { $0 != "?" })) else { return [] }
        let allowed = head.headers.first(name: "origin").flatMap(crossOrigin.allowed)
        return [("Vary", "Origin")] + (allowed.map(CrossOrigin.allowedFields) ?? [])
    }
}

/// Host bytes besides letters and digits: static stored properties are not allowed in a generic type.
private let hostPunctuation = Set("-._~%!$&'()*+,;=:[]".utf8)
