import Testing
@testable import GuideCore

@Suite struct TitleMatcherTests {
    private typealias Candidate = TitleMatcher.Candidate

    @Test func caseAndAccentsDoNotCount() {
        let fauno = Candidate(id: "1417", titles: ["El Laberinto Del Fauno", "Pan's Labyrinth"], year: 2006)
        #expect(TitleMatcher.decide(title: "El laberinto del fauno", year: 2006, among: [fauno]) == .match(fauno, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "EL LABERINTO DEL FAUNO", year: 2006, among: [fauno]) == .match(fauno, .exact, confidence: 0.95))
        let dias = Candidate(id: "7", titles: ["Días de cine"], year: nil)
        #expect(TitleMatcher.decide(title: "Dias de Cine", year: nil, among: [dias]) == .match(dias, .exact, confidence: 0.95))
        #expect(TitleKey("Pequeña señorita Ñoño").words == ["pequena", "senorita", "nono"])
    }

    @Test func ampersandAndAndYAreTheSameWord() {
        let fast = Candidate(id: "9799", titles: ["Fast & Furious"], year: 2009)
        #expect(TitleMatcher.decide(title: "Fast and Furious", year: 2009, among: [fast]) == .match(fast, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Fast y furious", year: 2009, among: [fast]) == .match(fast, .exact, confidence: 0.95))
        #expect(TitleKey("Fast&Furious").words == ["fast", "and", "furious"])
    }

    @Test func punctuationDoesNotCount() {
        let alien = Candidate(id: "348", titles: ["Alien, el octavo pasajero"], year: 1979)
        #expect(TitleMatcher.decide(title: "Alien: el octavo pasajero", year: 1979, among: [alien]) == .match(alien, .exact, confidence: 0.95))
        let schindler = Candidate(id: "424", titles: ["Schindler's List"], year: 1993)
        #expect(TitleMatcher.decide(title: "Schindlers list!", year: 1993, among: [schindler]) == .match(schindler, .exact, confidence: 0.95))
        #expect(TitleKey("¿Quién es quién?").words == ["quien", "es", "quien"])
    }

    @Test func theYearTellsRemakesApartAndWithoutOneTheyAreAmbiguous() {
        let remake = Candidate(id: "597", titles: ["Titanic"], year: 1997)
        let original = Candidate(id: "16535", titles: ["Titanic"], year: 1953)
        #expect(TitleMatcher.decide(title: "Titanic", year: 1997, among: [original, remake]) == .match(remake, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Titanic", year: 1953, among: [remake, original]) == .match(original, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Titanic", year: nil, among: [remake, original]) == .ambiguous([remake, original]))
    }

    @Test func aYearWithinTwoMatchesTheClosestAndATieIsAmbiguous() {
        let earlier = Candidate(id: "1", titles: ["Solaris"], year: 1972)
        let later = Candidate(id: "2", titles: ["Solaris"], year: 1976)
        let confidenceOneYearOff = TitleMatcher.confidence(.nearYear, yearDistance: 1)
        #expect(TitleMatcher.decide(title: "Solaris", year: 1973, among: [earlier, later]) == .match(earlier, .nearYear, confidence: confidenceOneYearOff))
        #expect(TitleMatcher.decide(title: "Solaris", year: 1975, among: [earlier, later]) == .match(later, .nearYear, confidence: confidenceOneYearOff))
        #expect(confidenceOneYearOff < TitleMatcher.confidence(.titleOnly))
        #expect(TitleMatcher.decide(title: "Solaris", year: 1974, among: [earlier, later]) == .ambiguous([earlier, later]))
        #expect(TitleMatcher.decide(title: "Solaris", year: 1979, among: [earlier, later]) == .noMatch)
    }

    @Test func aCandidateWithoutAYearMatchesOnTheTitleAlone() {
        let undated = Candidate(id: "3", titles: ["Cuéntame cómo pasó"], year: nil)
        let dated = Candidate(id: "4", titles: ["Cuéntame cómo pasó"], year: 1990)
        #expect(TitleMatcher.decide(title: "Cuéntame cómo pasó", year: 2001, among: [dated, undated]) == .match(undated, .titleOnly, confidence: 0.8))
        #expect(TitleMatcher.decide(title: "Cuéntame cómo pasó", year: nil, among: [dated]) == .match(dated, .titleOnly, confidence: 0.8))
    }

    @Test func aSeriesYearSuffixIsTheYearNotPartOfTheTitle() {
        let old = Candidate(id: "100", titles: ["Hermanos"], year: 2014)
        let new = Candidate(id: "200", titles: ["Hermanos (2024)"], year: nil)
        #expect(TitleKey("Hermanos (2024)").words == ["hermanos"])
        #expect(TitleKey("Hermanos (2024)").year == 2024)
        #expect(TitleMatcher.decide(title: "Hermanos", year: 2024, among: [old, new]) == .match(new, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Hermanos (2024)", year: nil, among: [old, new]) == .match(new, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Hermanos (2014)", year: nil, among: [old, new]) == .match(old, .exact, confidence: 0.95))
        #expect(TitleMatcher.decide(title: "Hermanos", year: nil, among: [old, new]) == .ambiguous([old, new]))
    }

    @Test func aDifferentTitleIsNoMatch() {
        let alien = Candidate(id: "348", titles: ["Alien, el octavo pasajero", "Alien"], year: 1979)
        #expect(TitleMatcher.decide(title: "Aliens", year: 1986, among: [alien]) == .noMatch)
        #expect(TitleMatcher.decide(title: "Alien el octavo", year: 1979, among: [alien]) == .noMatch)
        #expect(TitleMatcher.decide(title: "Alien", year: 1979, among: []) == .noMatch)
        #expect(TitleMatcher.decide(title: "…", year: nil, among: [Candidate(id: "0", titles: ["—"], year: nil)]) == .noMatch)
    }

    @Test func aResultListedTwiceCountsOnceAndMayMatchUnderEitherListing() {
        let first = Candidate(id: "5", titles: ["Los Serrano"], year: 2003)
        let again = Candidate(id: "5", titles: ["Serrano Family", "Los Serrano"], year: 2003)
        #expect(TitleMatcher.decide(title: "Los Serrano", year: 2003, among: [first, again]) == .match(first, .exact, confidence: 0.95))
        let otherName = Candidate(id: "6", titles: ["La familia"], year: 2003)
        let alias = Candidate(id: "6", titles: ["Los Serrano"], year: 2003)
        #expect(TitleMatcher.decide(title: "Los Serrano", year: 2003, among: [otherName, alias]) == .match(alias, .exact, confidence: 0.95))
    }
}

