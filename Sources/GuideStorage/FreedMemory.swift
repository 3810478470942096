#if canImport(Glibc)
import CMalloc
#endif

/// Loading or building a guide allocates far more on the way (a file's bytes, tables, sort
/// buffers, a provider's answers) than the guide keeps, and glibc keeps what was freed in its
/// heap for later, a tenth of a large server (docs/internals.md). Called once a new guide
/// is in service, so that a replica holds what it serves, and once a build has assembled its
/// snapshot from the providers' answers, and on the way there (`GuideAssembler`).
package enum FreedMemory {
    package static func release() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }

    /// Blocks of 256 KiB and more are mapped on their own and unmapped when freed, for the rest
    /// of the process. By default glibc raises that threshold each time such a block is freed,
    /// and from then on large blocks (a feed's render, a big answer) come from the heap, where
    /// the pages they leave stay with the process: a long-running server's memory then grows
    /// with what it once rendered. `bench/scale.sh` measures the difference.
    package static func returnLargeBlocks() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
        #endif
    }
}
