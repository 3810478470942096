import Foundation
import GuideCore

/// What the fuzz targets share: a transport that answers with the fuzzer's bytes, a bridge from
/// libFuzzer's synchronous callback to the providers' async API, and the typed-error check.

/// Answers every request with `answer(url)`; nil is a 404, as a missing page of a live site.
package struct FuzzTransport: HTTPTransport {
    private let answer: @Sendable (URL) -> Data?
    private let contentType: String?

    package init(contentType: String? = nil, answer: @escaping @Sendable (URL) -> Data?) {
        self.answer = answer
        self.contentType = contentType
    }

    package func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        guard let body = answer(url) else { throw ProviderError.http(status: 404, url: url.absoluteString) }
        return TransportResponse(status: 200, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: body, url: url)
    }

    package func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        try await get(url, headers: headers)
    }
}

/// Runs `body` to completion and returns its result: libFuzzer calls the target synchronously.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        outcome.set(await body())
        done.signal()
    }
    done.wait()
    return outcome.get()
}

private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T?

    func set(_ value: T) { lock.withLock { self.value = value } }

    func get() -> T {
        // Only read after the semaphore: the task has stored its value.
        guard let value = lock.withLock({ value }) else { fatalError("blocking: the task ended without a value") }
        return value
    }
}

/// A provider may fail on any input, but only with a `ProviderError` (DESIGN.md: a failure is
/// typed, never a crash). Anything else is a finding, so the process stops for libFuzzer to keep the input.
package func requireTyped(_ error: any Error, _ target: String) {
    guard error is ProviderError else {
        fatalError("\(target): untyped error \(type(of: error)): \(error)")
    }
}

/// The fuzzer's bytes cut into parts at each `separator` line, so that one input can answer
/// several requests of one lookup (search, then details). The seed corpus uses the same layout.
package enum FuzzParts {
    package static let separator = Data("\n--fuzz-part--\n".utf8)

    package static func split(_ data: Data, maximum: Int) -> [Data] {
        var parts: [Data] = []
        var rest = data[...]
        while parts.count < maximum - 1, let range = rest.firstRange(of: separator) {
            parts.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(Data(rest))
        return parts
    }
}

/// The input bytes of libFuzzer's callback as `Data`, copied: a parser may keep slices of it.
package func fuzzData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
}

/// libFuzzer's driver, for an entry point of our own: SwiftPM links a Linux executable with its
/// `main` renamed to `<module>_main`, which libFuzzer's `main` does not provide.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the process's arguments and `callback` as the target.
package func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
