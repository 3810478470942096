import Foundation
import GuideCore

/// A bearer token from `POST login` and the moment it stops being good.
struct TheTVDBToken: Sendable, Equatable {
    /// Used when the token's own expiry cannot be read: TheTVDB issues tokens for one month.
    static let assumedLifetime: TimeInterval = 28 * 24 * 3600

    var value: String
    var expiry: Date

    /// `value` expires at its JWT `exp` claim when it has one, else `assumedLifetime` after `issued`.
    /// A token is never expired at the moment it is issued: an `exp` at or before `issued` means
    /// this run's clock (`--now`, a clock set decades ahead) disagrees with the server's, so the
    /// token is kept for `assumedLifetime` instead of asking for a new one on every request.
    /// A replayed login (`forWholeRun`) is as good as the recording: it never expires.
    init(_ value: String, issued: Date, forWholeRun: Bool = false) {
        self.value = value
        if forWholeRun {
            expiry = .distantFuture
        } else if let exp = Self.jwtExpiry(value), exp > issued {
            expiry = exp
        } else {
            expiry = issued.addingTimeInterval(Self.assumedLifetime)
        }
    }

    func isValid(at date: Date) -> Bool { date < expiry }

    /// The `exp` claim (seconds since 1970) of a JWT `header.payload.signature`, nil when the
    /// token is not a JWT or has no numeric `exp`. The signature is not checked: the server does.
    static func jwtExpiry(_ token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let payload = Data(base64Encoded: base64),
              let claims = try? JSONDecoder().decode(Claims.self, from: payload),
              let exp = claims.exp, exp.isFinite
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    private struct Claims: Decodable {
        var exp: Double?
    }
}

/// The JSON body of `POST login`; `pin` only for user-supported keys.
struct LoginRequest: Encodable {
    var apikey: String
    var pin: String?

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension TheTVDBToken: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never the token itself: it is a credential, and a value printed in passing ends up in a log.
    var description: String { "TheTVDBToken(\(URLRedaction.placeholder), expires \(expiry))" }
    var debugDescription: String { description }
}
