import GuideCore

/// Runs `body` and returns the `ProviderError` it threw; nil when it threw nothing or another error.
package func providerError(_ body: () async throws -> Void) async -> ProviderError? {
    do {
        try await body()
        return nil
    } catch let error as ProviderError {
        return error
    } catch {
        return nil
    }
}

extension MetadataLookup {
    /// The details of a `.found`, nil otherwise.
    package var metadata: Metadata? {
        if case .found(let metadata, _) = self { return metadata }
        return nil
    }

    /// How a `.found` was matched, nil otherwise.
    package var match: MetadataMatch? {
        if case .found(_, let match) = self { return match }
        return nil
    }
}
