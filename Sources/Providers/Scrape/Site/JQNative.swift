import CLibJQ
import Foundation
import GuideCore

/// jq functions written in Swift: `html_xpath(XPATH)` and `xml_xpath(XPATH)` read the HTML or
/// XML held in a string (a fragment inside a JSON answer) with XPath, as a page's `fields` are
/// read, so that a recipe never cuts markup with regular expressions.
///
/// libjq 1.6 has no API for native functions, but its `debug` and `input` builtins call hooks
/// that a program sets. So `html_xpath($x)` is defined in jq as `[., $x, "html"] | debug |
/// input`: the debug hook evaluates the XPath and keeps the result, the input hook hands it
/// back. Recipes cannot call `debug` or `input` themselves (they are forbidden names), and every
/// call into libjq holds `JQFilter.serial`, so one slot between the two hooks is enough.
enum JQNative {
    static let definitions = #"def html_xpath($xpath): [., $xpath, "html"] | debug | input; def xml_xpath($xpath): [., $xpath, "xml"] | debug | input;"#

    /// The result of the last evaluation, until `input` takes it; only touched under `JQFilter.serial`.
    nonisolated(unsafe) private static var pending: jv?

    static func install(on state: OpaquePointer) {
        jq_set_debug_cb(state, { _, message in JQNative.evaluate(message) }, nil)
        jq_set_input_cb(state, { _, _ in JQNative.take() }, nil)
    }

    private static func take() -> jv {
        defer { pending = nil }
        return pending ?? jv_invalid_with_msg(jv_string("html_xpath: no value to give"))
    }

    /// `[TEXT, XPATH, "html" or "xml"]`, owned here.
    private static func evaluate(_ message: jv) {
        guard case .array(let parts) = JSONValue(consuming: message), parts.count == 3,
              case .string(let xpath) = parts[1], case .string(let kind) = parts[2] else {
            pending = jv_invalid_with_msg(jv_string("html_xpath: expected a text and an XPath"))
            return
        }
        let name = "\(kind)_xpath(\(JSONValue.string(xpath).jsonText))"
        guard case .string(let text) = parts[0] else {
            pending = failure("\(name): its input is \(parts[0].kindName), not the text of a page")
            return
        }
        guard !text.isEmpty else {
            pending = jv_null()
            return
        }
        do {
            let format: SiteRecipe.Format = kind == "xml" ? .xml : .html
            let read = try SitePage.object(Data(text.utf8), format: format, contentType: "text/\(kind); charset=utf-8", encoding: nil,
                                           fields: [("value", xpath)], variables: [:])
            pending = (read["value"] ?? .null).jv()
        } catch .malformed(let reason) {
            pending = failure("\(name): \(reason)")
        } catch {
            pending = failure("\(name): \(error)")
        }
    }

    private static func failure(_ message: String) -> jv {
        jv_invalid_with_msg(JSONValue.string(message).jv())
    }
}
