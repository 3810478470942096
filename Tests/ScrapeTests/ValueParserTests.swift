import Scrape
import Testing

@Suite("Value parsers")
struct ValueParserTests {
    @Test("Spanish numbers: thousands dots, decimal commas, millions and thousands in words", arguments: [
        ("1.234.000", 1_234_000.0),
        ("1.234", 1_234),
        ("850.000", 850_000),
        ("850000", 850_000),
        ("7", 7),
        ("2,1 M", 2_100_000),
        ("2,1M", 2_100_000),
        ("2,1 m", 2_100_000),
        ("2,1 millones", 2_100_000),
        ("2,15 Millones", 2_150_000),
        ("1 millón", 1_000_000),
        ("1 MILLÓN", 1_000_000),
        ("1,2 mill.", 1_200_000),
        ("850 mil", 850_000),
        ("850mil", 850_000),
        ("1,5 mil", 1_500),
        ("12 k", 12_000),
        ("1.234,5", 1_234.5),
        ("12,5", 12.5),
        ("2.1 M", 2_100_000),
        ("12.50", 12.5),
        ("1 234 000", 1_234_000),
        ("  2.526.000  ", 2_526_000),
    ])
    func numbers(text: String, expected: Double) {
        #expect(ValueParser.number.parse(text) == .number(expected))
    }

    @Test("text that is not a number", arguments: [
        "", "—", "-", "n/d", "M", "mil", "abc", "12abc", "1.23.4", "1,234,567", "12 34", "1.234 000",
        "1,2,3", "2,1 billones", "1.", ",5", "1234567890123456789", "12 %",
    ])
    func notNumbers(text: String) {
        #expect(ValueParser.number.parse(text) == nil)
    }

    @Test("percentages with either decimal mark, with or without %", arguments: [
        ("12,5%", 12.5), ("12.5 %", 12.5), ("12,5", 12.5), ("7%", 7), ("100 %", 100), ("0,25%", 0.25), ("23,0%", 23),
    ])
    func percentages(text: String, expected: Double) {
        #expect(ValueParser.percent.parse(text) == .percent(expected))
    }

    @Test("text that is not a percentage", arguments: [
        "", "%", "—", "12,%", "12,5,5%", "12,5 %%", "abc%", "12 5", "1.234.000", "12,5 puntos",
    ])
    func notPercentages(text: String) {
        #expect(ValueParser.percent.parse(text) == nil)
    }

    @Test("times as minutes after midnight; past 24:00 is the next day", arguments: [
        ("22:45", 1_365), ("22.45", 1_365), ("22h45", 1_365), ("22H45", 1_365), ("22:45h", 1_365), ("22:45 h", 1_365),
        ("9:05", 545), ("00:00", 0), ("24:00", 1_440), ("25:30", 1_530), ("47:59", 2_879),
    ])
    func times(text: String, expected: Int) {
        #expect(ValueParser.time.parse(text) == .time(minutes: expected))
    }

    @Test("text that is not a time", arguments: [
        "", "22", "22:4", "22:456", "22:60", "48:00", "22-45", "a las 22:45", "22:45 horas", "123:00", ":45",
    ])
    func notTimes(text: String) {
        #expect(ValueParser.time.parse(text) == nil)
    }

    @Test("integers, grouped by thousands or with an ordinal mark", arguments: [
        ("1", 1), ("12", 12), ("1º", 1), ("2ª", 2), ("3.", 3), ("1.234", 1_234), ("1.234.000", 1_234_000),
    ])
    func integers(text: String, expected: Int) {
        #expect(ValueParser.integer.parse(text) == .integer(expected))
    }

    @Test("text that is not an integer", arguments: ["", "—", "1,5", "2.1", "1º.", "850 mil", "x1", "1 º", "1.23"])
    func notIntegers(text: String) {
        #expect(ValueParser.integer.parse(text) == nil)
    }

    @Test("text keeps any non-empty text with its whitespace collapsed")
    func text() {
        #expect(ValueParser.text.parse("  La \n\t Revuelta\u{A0} ") == .text("La Revuelta"))
        #expect(ValueParser.text.parse("Águila Roja") == .text("Águila Roja"))
        #expect(ValueParser.text.parse(" \n\u{A0}") == nil)
        #expect(ValueParser.text.parse("") == nil)
    }
}
