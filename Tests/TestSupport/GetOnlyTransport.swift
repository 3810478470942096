import Foundation
import GuideCore

/// A hand-made test transport for providers that never POST: the POST the protocol requires
/// fails loudly instead of each fake repeating it.
package protocol GetOnlyTransport: HTTPTransport {}

extension GetOnlyTransport {
    package func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        throw ProviderError.notConfigured("this test transport answers GET only, not POST \(url)")
    }
}
