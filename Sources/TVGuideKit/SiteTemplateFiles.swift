import Foundation

/// What `tvguide sources new` writes.
enum SiteTemplateFiles {
    static func recipe(_ site: String) -> String {
        """
        # The recipe of \(site). Reference: docs/sources.md.
        site: \(site)
        description: "what the site lists (country, channels)"
        country: es                      # two letters: what `sources list` sorts and filters by
        timezone: Europe/Madrid          # the zone of the site's days and of times without an offset
        format: json                     # json, html, xml or text
        # One request per channel and day: {channel} is the site id, {date:yyyy-MM-dd} the day.
        url: "https://\(site)/guide/{channel}/{date:yyyy-MM-dd}.json"
        # jq: each item of the answer ($channel.id, $date, $details are there too).
        items: '.programmes[]'
        # jq: one item → one programme (start and title required).
        programme: |
          {
            start: .start,
            stop: .end,
            title: .title,
            description: .description
          }
        time_format: iso8601             # iso8601, unix, unix_ms or a pattern such as yyyy-MM-dd HH:mm
        # When the site needs more (docs/sources.md, "Recipes for harder sites"):
        #   steps:   a token, a cookie session, a build id read from a page, a computed URL part
        #   details: a second answer per channel, day or programme (JSON, HTML with XPath fields)
        #   {channel.lang}: an attribute of the channel list; day_words, keep, empty, pages

        """
    }

    static func tests(_ site: String) -> String {
        """
        # What \(site)'s recipe must read from its recordings (`tvguide sources test \(site)`).
        - channel: "1"                   # a site id from \(site).channels.xml
          date: 2026-01-01
          responses:
            https://\(site)/guide/1/2026-01-01.json: recordings/content.json
          url: https://\(site)/guide/1/2026-01-01.json
          count: 1
          programmes:
            - start: 2026-01-01T06:00:00Z
              title: A title

        """
    }

    static func channels(_ site: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <channels>
          <channel site="\(site)" site_id="1" lang="es" xmltv_id="La1.es">La 1</channel>
        </channels>

        """
    }
}
