import Foundation
import Hummingbird
import Mustache

/// The web guide's pages: a view model per page, built from the index, rendered once through the
/// Mustache templates in `WebTemplates`. The models hold only stored properties, as Mustache reads
/// them by reflection; every string from the guide is escaped by the templates.
enum WebPages {
    /// Parsed once for the process: the templates are constants, so one that does not parse is a
    /// defect, which the first render in the tests finds.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in WebTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("web template '\(name)' does not parse: \(error)")
            }
        }
        return library
    }()

    static let contentType = "text/html; charset=utf-8"

    /// Defence in depth behind the escaping: scripts only from this server, so markup that got
    /// through could not run. Inline `style` is allowed for the grid's computed positions; images
    /// may come from anywhere over HTTP(S), as posters do.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: http: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        // A page is written in the reader's language and shows their channels and reminders.
        .vary: "Accept-Language, Cookie",
    ]

    /// Pages show "now" (the grid's line, what is on air, time left in minutes): they are rendered
    /// as of the minute and cached under it, so each is rendered at most once a minute, not once a
    /// second as the JSON API's bodies are. Within a minute the line moves a few pixels at most and
    /// no "time left" changes; guide.js moves the line in the browser between renders.
    static let maxAge = 30

    /// The templates pages render through; each is registered in `library` under its name.
    enum Template: String {
        case grid, channel, programme, airings, comingUp = "coming-up", search, audiences, calendar, channels, error
    }

    static func render(_ model: Any, _ template: Template, status: HTTPResponse.Status = .ok, maxAge: Int = maxAge) -> RenderedResponse {
        guard let html = library.render(model, withTemplate: template.rawValue) else {
            preconditionFailure("web template '\(template.rawValue)' is not registered")
        }
        var response = RenderedResponse(contentType: contentType, bytes: Array(html.utf8), maxAge: maxAge, extraHeaders: securityHeaders)
        response.status = status
        return response
    }
}
