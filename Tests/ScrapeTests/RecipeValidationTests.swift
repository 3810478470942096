import Foundation
import GuideCore
import Scrape
import Testing

@Suite("Recipe validation")
struct RecipeValidationTests {
    @Test("the shipped-style recipes are valid")
    func validRecipes() throws {
        try audienceRecipe().validate()
        try guideRecipe(base: URL(string: "http://127.0.0.1:8080/")!).validate()
    }

    @Test("an invalid rows XPath is refused at validation, naming the key and the expression")
    func invalidRowsXPath() {
        var recipe = audienceRecipe()
        recipe.rows = "//table[@class='audiencias'//tr"
        let error = recipeError { try recipe.validate() }
        #expect(error?.key == "rows")
        guard case .invalidXPath(nil, let expression, let reason)? = error else {
            Issue.record("expected invalidXPath for rows, got \(String(describing: error))")
            return
        }
        #expect(expression == "//table[@class='audiencias'//tr")
        #expect(!reason.isEmpty)
        #expect(error?.description.hasPrefix("rows: invalid XPath '//table[@class='audiencias'//tr': ") == true)
    }

    @Test("an invalid field XPath is refused, naming the field", arguments: ["td[", "td[2]]", "td[@", "///", "   ", "td[2] td[3]"])
    func invalidFieldXPath(expression: String) {
        var recipe = audienceRecipe()
        recipe.fields["viewers"]?.xpath = expression
        let error = recipeError { try recipe.validate() }
        #expect(error?.key == "fields.viewers.xpath")
        #expect(error?.description.hasPrefix("field 'viewers': invalid XPath '\(expression)': ") == true)
    }

    @Test("a call of a function libxml2 does not have is refused at validation, not at evaluation", arguments: [
        ("foo(td)", "foo"), ("td[starts-with(., 'a') and bar()]", "bar"), ("fn:contains(td, 'x')", "fn:contains"),
        ("upper-case(td[2])", "upper-case"),
    ])
    func unknownFunction(expression: String, function: String) {
        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = expression
        #expect(recipeError { try recipe.validate() }
            == .invalidXPath(field: "title", expression: expression, reason: "unknown function \(function)() (XPath 1.0 functions only)"))
    }

    @Test("node tests, operators before parentheses, axes and names inside literals are not function calls", arguments: [
        "td[2]/text()", "node()", "td[1] and (td[2])", "child::td[contains(@class, 'foo()')]", "td[@class=\"x(y)\"]",
        "count(preceding-sibling::tr) div (2)", "normalize-space(substring-after(td[3], ':'))",
    ])
    func notFunctionCalls(expression: String) throws {
        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = expression
        try recipe.validate()
    }

    @Test("a variable is refused")
    func variable() {
        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = "td[$n]"
        #expect(recipeError { try recipe.validate() }
            == .invalidXPath(field: "title", expression: "td[$n]", reason: "variables ($…) are not available"))
    }

    @Test("libxml2's reason and the position where it gave up", arguments: [
        ("td[", "invalid expression at character 4"),
        ("td[2] td[3]", "invalid expression at character 7"),
        ("//table[@class='a'//tr", "invalid predicate at character 23"),
        ("td[2", "invalid predicate at character 5"),
        ("td['2]", "unfinished literal at character 7"),
    ])
    func syntaxReasons(expression: String, reason: String) {
        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = expression
        #expect(recipeError { try recipe.validate() } == .invalidXPath(field: "title", expression: expression, reason: reason))
    }

    @Test("what only evaluation can find is a configuration error naming the field")
    func evaluationErrors() {
        var arity = audienceRecipe()
        arity.fields["title"]?.xpath = "contains(td[2])"
        let page = rankingPage("<tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>")
        #expect(extractionError { _ = try arity.extract(from: page, contentType: nil) }
            == .notConfigured("field 'title': XPath 'contains(td[2])' cannot be evaluated: invalid number of arguments"))

        var countedRows = audienceRecipe()
        countedRows.rows = "count(//tr)"
        #expect(extractionError { _ = try countedRows.extract(from: page, contentType: nil) }
            == .notConfigured("rows selector 'count(//tr)' does not select nodes"))
    }

    @Test("an invalid regex is refused, naming the field")
    func invalidRegex() {
        var recipe = audienceRecipe()
        recipe.fields["start"]?.regex = "(\\d{1,2}:\\d{2}"
        let error = recipeError { try recipe.validate() }
        #expect(error?.key == "fields.start.regex")
        #expect(error == .invalidRegex(field: "start", pattern: "(\\d{1,2}:\\d{2}", reason: "not a valid regular expression (ICU syntax)"))
    }

    @Test("field names and parsers must suit what the recipe produces")
    func fieldsSuitProduct() {
        var typo = audienceRecipe()
        typo.fields["viwers"] = typo.fields.removeValue(forKey: "viewers")
        #expect(recipeError { try typo.validate() }
            == .unknownField(field: "viwers", produces: .audience, known: ["channel", "rank", "share", "start", "title", "viewers"]))

        var textViewers = audienceRecipe()
        textViewers.fields["viewers"]?.parse = .text
        let unsuitable = recipeError { try textViewers.validate() }
        #expect(unsuitable == .unsuitableParser(field: "viewers", parser: .text, allowed: [.number, .integer]))
        #expect(unsuitable?.description == "field 'viewers' cannot use parse: text; it takes number or integer")

        var noChannel = audienceRecipe()
        noChannel.fields["channel"] = nil
        noChannel.required = ["title"]
        #expect(recipeError { try noChannel.validate() } == .missingField(field: "channel", produces: .audience))

        var unknownRequired = audienceRecipe()
        unknownRequired.required.append("cuota")
        let required = recipeError { try unknownRequired.validate() }
        #expect(required?.key == "required")
        #expect(required?.description == "required lists 'cuota', which is not among the fields (channel, rank, share, start, title, viewers)")
    }

    @Test("a bad URL template is refused")
    func badURLTemplate() {
        var recipe = audienceRecipe()
        recipe.url = "https://audiencias.example/{fecha:dd-MM-yyyy}"
        let error = recipeError { try recipe.validate() }
        #expect(error?.key == "url")
        #expect(error?.description.hasPrefix("url 'https://audiencias.example/{fecha:dd-MM-yyyy}': unknown placeholder {fecha:dd-MM-yyyy}") == true)
    }

    @Test("essential fields are required even when `required` does not list them")
    func essentialFieldsAreRequired() {
        var recipe = audienceRecipe()
        recipe.required = ["share"]
        #expect(recipe.effectiveRequired == ["share", "title", "channel", "viewers"])
        let page = rankingPage("<tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>n/d</td><td>23,0%</td><td>21:45</td></tr>")
        let error = extractionError { _ = try recipe.extract(from: page, contentType: nil) }
        #expect(error?.malformedDetail?.contains("field 'viewers' (xpath td[4], parse number): 'n/d' is not a number") == true)
    }
}
