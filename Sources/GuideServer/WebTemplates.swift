import Foundation

/// The web guide's Mustache templates, `Resources/*.mustache` embedded in the binary. Every text
/// that comes from the guide goes through `{{ }}`, which escapes it for HTML (quotes included, so
/// it is safe in attributes too); `{{{ }}}` is never used. Pages extend `layout` and fill its blocks.
enum WebTemplates {
    /// The page chrome (`layout`; its `data-now` is the server's clock, fixed by `--now` in
    /// screenshots: guide.js advances it by the time since the page loaded instead of trusting the
    /// browser's) and the pages that extend it.
    static let all: [String: String] = [
        "layout": layout,
        "grid": text(PackageResources.grid_mustache),
        "channel": text(PackageResources.channel_mustache),
        "programme": text(PackageResources.programme_mustache),
        "airings": text(PackageResources.airings_mustache),
        "listed-airing": text(PackageResources.listed_airing_mustache),
        "listed-days": text(PackageResources.listed_days_mustache),
        "day-picker": text(PackageResources.day_picker_mustache),
        "coming-up": text(PackageResources.coming_up_mustache),
        "search": text(PackageResources.search_mustache),
        "audiences": text(PackageResources.audiences_mustache),
        "calendar": text(PackageResources.calendar_mustache),
        "channels": text(PackageResources.channels_mustache),
        "error": text(PackageResources.error_mustache),
    ]

    /// The asset links carry the assets' checksums, known only once the binary is built: the file
    /// names them `{{stylesheetPath}}` and `{{scriptPath}}`, filled in here once rather than passed
    /// to every render.
    static let layout = text(PackageResources.layout_mustache)
        .replacingOccurrences(of: "{{stylesheetPath}}", with: WebAssets.stylesheetPath)
        .replacingOccurrences(of: "{{scriptPath}}", with: WebAssets.scriptPath)

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
