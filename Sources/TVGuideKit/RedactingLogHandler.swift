import Foundation
import GuideCore
import Logging

/// The secret values of this process's configuration (API keys, tokens from the environment),
/// known once providers.yaml is read; until then there is nothing to hide.
package final class SecretValues: @unchecked Sendable {
    // Guarded by `lock`: log lines come from any thread.
    private let lock = NSLock()
    private var values: [String] = []
    private var scrubber = SecretScrubber([])

    package static let shared = SecretValues()

    package init() {}

    package func add(_ secrets: [String]) {
        lock.withLock { () -> Void in
            values += secrets.filter { !values.contains($0) }
            scrubber = SecretScrubber(values)
        }
    }

    /// `text` with every secret replaced, in any of its written forms (`SecretScrubber`).
    package func redact(_ text: String) -> String {
        let current = lock.withLock { scrubber }
        return current.isEmpty ? text : current.scrub(text)
    }
}

/// Wraps a log handler so that no secret value reaches a log line, in the message or the
/// metadata, at any level: transports redact credential query items, but a key can sit in a
/// URL path, where only its value gives it away.
package struct RedactingLogHandler: LogHandler {
    private var inner: any LogHandler
    private let secrets: SecretValues

    package init(_ inner: any LogHandler, secrets: SecretValues = .shared) {
        self.inner = inner
        self.secrets = secrets
    }

    package var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    package var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    package func log(event: LogEvent) {
        var event = event
        event.message = "\(secrets.redact(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(secrets.redact($0.description)) }
        inner.log(event: event)
    }
}
