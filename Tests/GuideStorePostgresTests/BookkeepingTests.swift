@testable import GuideStorePostgres
import Testing

/// Which snapshots a follower loads, decided without a server: the races are in the order of
/// these calls, which a loaded machine shuffles.
@Suite struct BookkeepingTests {
    @Test func aPollDuringOwnCommitDoesNotLoadThePreviousSnapshotAgain() async {
        let book = Bookkeeping()
        await book.serve(4)
        await book.beginCommit(5)
        // `latest` still says 4 until COMMIT returns.
        #expect(await book.claim(4) == nil)
        #expect(await book.claim(5) == nil)
        await book.endCommit()
        #expect(await book.claim(5) == nil)
        // Afterwards another builder's commit, or an operator moving `latest`, is followed.
        #expect(await book.claim(6)?.previous == 5)
        #expect(await book.claim(4)?.previous == 6)
    }

    @Test func aFailedLoadIsTriedAgainButNotOverANewerClaim() async {
        let book = Bookkeeping()
        await book.serve(1)
        let two = await book.claim(2)
        #expect(two?.previous == 1)
        #expect(await book.claim(2) == nil, "two polls racing load it once")
        if let two { await book.release(two) }
        #expect(await book.claim(2) != nil, "a failed load is tried again")
        let three = await book.claim(3)
        if let two { await book.release(two) }
        #expect(await book.served == 3, "a stale failure does not undo a newer claim")
        _ = three
    }
}
