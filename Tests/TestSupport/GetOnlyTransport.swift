import Foundation
import GuideCore

/// A hand-made test transport for providers that never POST: the POST the protocol requires
/// fails loudly instead of each fake repeating it.
public protocol GetOnlyTransport: HTTPTransport {}

extension GetOnlyTransport {
    public func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        throw ProviderError.notConfigured("this test transport answers GET only, not POST \(url)")
    }
}
