import Foundation

/// Metadata providers' answers kept across runs, so that a run within the TTL of the last one
/// asks no provider at all.
///
/// Answers live in a storage: a folder by default (`MetadataLookupFolder`), or the PostgreSQL
/// store that replicas share. A provider's answers are read once, the first time it is asked,
/// and written once by `save()`. Answers that cannot be read, or that were stored for other
/// settings (another fingerprint), are ignored and replaced at the next save; they never fail a run.
package actor MetadataLookupCache {
    package nonisolated let storage: any MetadataLookupStorage
    /// Answers older than this many seconds are ignored; 0 or less disables the cache.
    package nonisolated let ttl: TimeInterval
    private let now: @Sendable () -> Date
    private var files: [String: ProviderFile] = [:]
    /// Reads in flight, so that lookups of one provider started together read its answers once.
    private var loading: [String: (fingerprint: String, task: Task<Loaded, Never>)] = [:]
    private var notes: [String: [String]] = [:]

    package init(storage: any MetadataLookupStorage, ttl: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.ttl = ttl
        self.now = now
    }

    /// The answer `provider` gave to `key` within the TTL, under the same `fingerprint`.
    package func answer(provider: String, fingerprint: String, key: MetadataQueryKey) async -> MetadataLookup? {
        guard ttl > 0, let entry = await file(provider, fingerprint).entries[key.rawValue] else { return nil }
        let age = now().timeIntervalSince(entry.fetchedAt)
        guard age >= 0, age < ttl else { return nil }
        return entry.lookup
    }

    package func store(_ lookup: MetadataLookup, provider: String, fingerprint: String, key: MetadataQueryKey) async {
        guard ttl > 0 else { return }
        var file = await file(provider, fingerprint)
        file.entries[key.rawValue] = StoredMetadataLookup(lookup, fetchedAt: now())
        file.changed.insert(key.rawValue)
        files[provider] = file
    }

    /// Writes the answers of every provider that got new ones, leaving out those past the TTL,
    /// and removes what a crashed run left half-written. A failed write is reported in
    /// `notes(for:)`; the run goes on.
    package func save() async {
        let now = now()
        await storage.removeAbandonedWrites()
        for (provider, file) in files.sorted(by: { $0.key < $1.key }) where !file.changed.isEmpty {
            let fresh = file.entries.filter { _, entry in
                let age = now.timeIntervalSince(entry.fetchedAt)
                return age >= 0 && age < ttl
            }
            do {
                try await storage.save(provider: provider, fingerprint: file.fingerprint, answers: fresh,
                                       changed: file.changed.intersection(fresh.keys), expiredUpTo: now.addingTimeInterval(-ttl))
                files[provider]?.changed.subtract(file.changed)
            } catch {
                note(provider, String(describing: error))
            }
        }
    }

    /// What happened to `provider`'s answers: ignored because unreadable or stored for other
    /// settings, or not written.
    package func notes(for provider: String) -> [String] {
        notes[provider] ?? []
    }

    // MARK: -

    /// `provider`'s answers under `fingerprint`, read from the storage the first time. No
    /// suspension between its return and the caller's next statement, so a caller that changes
    /// the file and puts it back loses no other caller's change.
    private func file(_ provider: String, _ fingerprint: String) async -> ProviderFile {
        if let loaded = files[provider], loaded.fingerprint == fingerprint { return loaded }
        let task: Task<Loaded, Never>
        if let pending = loading[provider], pending.fingerprint == fingerprint {
            task = pending.task
        } else {
            let storage = storage
            task = Task {
                do {
                    return Loaded(entries: try await storage.answers(provider: provider, fingerprint: fingerprint))
                } catch {
                    return Loaded(entries: [:], note: String(describing: error))
                }
            }
            loading[provider] = (fingerprint, task)
        }
        let loaded = await task.value
        // The first caller back installs what was read; the others find it, with any answers stored since.
        if files[provider]?.fingerprint != fingerprint {
            files[provider] = ProviderFile(fingerprint: fingerprint, entries: loaded.entries)
            if let text = loaded.note { note(provider, text) }
        }
        if loading[provider]?.task == task { loading[provider] = nil }
        return files[provider] ?? ProviderFile(fingerprint: fingerprint)
    }

    private func note(_ provider: String, _ text: String) {
        notes[provider, default: []].append(text)
    }

    private struct Loaded: Sendable {
        var entries: [String: StoredMetadataLookup]
        var note: String?
    }

    private struct ProviderFile {
        var fingerprint: String
        var entries: [String: StoredMetadataLookup] = [:]
        /// Keys answered since the last save.
        var changed: Set<String> = []
    }
}
