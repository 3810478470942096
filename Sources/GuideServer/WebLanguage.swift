import Foundation
import GuideCore
import Hummingbird

/// The languages the web guide is written in. The guide's data is Spanish; the pages follow the
/// reader: the footer's switch (a cookie), else the browser's `Accept-Language`, else English.
enum WebLanguage: String, CaseIterable, Sendable {
    case en, es

    static let fallback = WebLanguage.en

    /// The language `code` names; another code is a 400 naming `parameter`.
    static func named(_ code: String, parameter: String) throws -> WebLanguage {
        guard let language = WebLanguage(rawValue: code) else {
            throw APIError.badParameter(parameter, "\(Quoted(code)) is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return language
    }

    /// The language a request's page is written in.
    static func of(_ request: Request) -> WebLanguage {
        if let chosen = request.cookies[WebPreferences.languageCookie].flatMap({ WebLanguage(rawValue: $0.value) }) {
            return chosen
        }
        return negotiated(request.headers[.acceptLanguage] ?? "")
    }

    /// The best of ours in an `Accept-Language` list (`es-ES,es;q=0.9,en;q=0.8`): the highest
    /// `q`, the first listed among equals; a range matches by its primary tag, `*` any.
    static func negotiated(_ header: String) -> WebLanguage {
        var best: (language: WebLanguage, quality: Double)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            let primary = String(range.prefix { $0 != "-" && $0 != "_" })
            let language = primary == "*" ? fallback : WebLanguage(rawValue: primary)
            guard let language, quality > 0 else { continue }
            if best == nil || quality > best!.quality { best = (language, quality) }
        }
        return best?.language ?? fallback
    }
}

/// One language's strings, `Resources/strings-<language>.json`: a flat table of keys, where
/// `{name}` marks a value filled in (`"Starts in {duration}"`). Templates read it as `{{t.key}}`.
struct WebCatalogue: Sendable {
    let language: WebLanguage
    let strings: [String: String]
    let weekdays: [String]
    let weekdaysShort: [String]
    let months: [String]
    let monthsShort: [String]

    static let all: [WebLanguage: WebCatalogue] = [
        .en: WebCatalogue(.en, PackageResources.strings_en_json),
        .es: WebCatalogue(.es, PackageResources.strings_es_json),
    ]

    static func of(_ language: WebLanguage) -> WebCatalogue {
        all[language] ?? all[WebLanguage.fallback]!
    }

    /// The catalogues are constants of the build: one that does not decode is a defect, which the
    /// first page rendered in the tests finds.
    private init(_ language: WebLanguage, _ bytes: [UInt8]) {
        guard let strings = try? JSONDecoder().decode([String: String].self, from: Data(bytes)) else {
            preconditionFailure("Resources/strings-\(language.rawValue).json does not decode as a table of strings")
        }
        self.language = language
        self.strings = strings
        func list(_ key: String, count: Int) -> [String] {
            let items = (strings[key] ?? "").split(separator: ",").map(String.init)
            precondition(items.count == count, "strings-\(language.rawValue).json: '\(key)' needs \(count) names")
            return items
        }
        weekdays = list("weekdays", count: 7)
        weekdaysShort = list("weekdaysShort", count: 7)
        months = list("months", count: 12)
        monthsShort = list("monthsShort", count: 12)
    }

    /// The string for `key`; the key itself where the catalogue lacks it (a test checks none does).
    subscript(_ key: String) -> String {
        strings[key] ?? key
    }

    /// The string for `key` with its `{name}` places filled.
    func text(_ key: String, _ values: [String: String]) -> String {
        var text = self[key]
        for (name, value) in values {
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text
    }
}
