import GuideCore
import Scrape

/// The formulatv recipe and channel names the benchmark measures, as tvguide reads them.
enum FormulaTV {
    /// A copy of `providers.formulatv` in providers.yaml (the `&formulatv` anchor, which
    /// `formulatv-recorded` reuses), key for key: the bench target cannot read providers.yaml, as
    /// GuideConfig is not among its dependencies. bench/lxml_audiences.py carries the same copy.
    static let recipe = ScrapeRecipe(
        url: "https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/",
        encoding: nil,  // encoding: auto
        rows: "//table[@class='audiencias']//tr[td]",
        fields: [
            "rank": .init(xpath: "td[1]", parse: .integer),
            "title": .init(xpath: "td[2]", parse: .text),
            "channel": .init(xpath: "td[3]", parse: .text),
            "viewers": .init(xpath: "td[4]", parse: .number),
            "share": .init(xpath: "td[5]", parse: .percent),
            "start": .init(xpath: "td[6]", regex: "(\\d{1,2}:\\d{2})", parse: .time),
        ],
        required: ["title", "channel", "viewers"],
        produces: .audience)

    /// The recording of the pages: `audiencias/DD-MM-YYYY` under this base (docs/recording.md).
    static let baseURL = "https://www.formulatv.com/"

    /// The site's channel names (the providers.yaml channel list's names and aliases) → canonical
    /// ids, compared lowercased: the lxml peer's `CHANNEL_MAP`, so both sides resolve alike. The
    /// product resolves through TVGuideKit's `ChannelNames`, which this target cannot import.
    static let channels: [String: String] = [
        "la 1": "La1.es", "tve1": "La1.es", "la 2": "La2.es", "antena 3": "Antena3.es", "cuatro": "Cuatro.es",
        "telecinco": "Telecinco.es", "lasexta": "LaSexta.es", "24h": "24h.es", "clan": "Clan.es",
        "teledeporte": "Teledeporte.es", "neox": "Neox.es", "nova": "Nova.es", "mega": "Mega.es",
        "atreseries": "Atreseries.es", "fdf": "FDF.es", "energy": "Energy.es", "divinity": "Divinity.es",
        "boing": "Boing.es", "be mad": "BeMad.es", "dmax": "DMAX.es", "paramount network": "ParamountNetwork.es",
        "trece": "Trece.es", "dkiss": "DKiss.es", "tv3": "TV3.es", "etb 1": "ETB1.es", "etb1": "ETB1.es",
    ]

    static func channel(named name: String) -> String? {
        channels[name.lowercased()]
    }

    /// The day a page's file name (`19-10-2026`) records.
    static func day(ofPage name: String) -> Day? {
        let parts = name.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Day(year: parts[2], month: parts[1], day: parts[0])
    }
}
