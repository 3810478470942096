/// `/openapi.yaml`: the whole service in OpenAPI 3.1, every route `GuideServer.routes` lists
/// (`OpenAPITests` holds the two together). Kept as text rather than generated so that it reads
/// as the reference it is; docs/server.md has the examples.
enum OpenAPIDocument {
    static let yaml = #"""
    openapi: 3.1.0
    info:
      title: tvguide
      version: "1.0"
      summary: Spanish TV guide over HTTP
      description: |
        `tvguide serve`: the merged guide (channels, programmes, film and series details, audience
        rankings) as a JSON API, iCalendar reminders and feeds, an XMLTV export and a web guide.
        Times are ISO 8601; `tz` (an IANA zone such as `Europe/Madrid`) renders them in that zone and
        reads local `date` and `at` there; the default is UTC. Every 200 carries an `ETag` and a
        `Cache-Control`; a request with a matching `If-None-Match` (weak comparison) gets a 304
        without a body, one whose `If-Match` does not match a 412. Bodies of 1 kB and more are sent
        gzip-compressed (`Content-Encoding: gzip`, a weak `ETag`) to clients that accept it, with
        `Vary: Accept-Encoding`. Errors are JSON (`Error`): 400 for a bad parameter, naming it;
        404 for an unknown id or route.
    servers:
      - url: http://127.0.0.1:8080
    tags:
      - name: guide
        description: Channels, what is on, schedules, details, search.
      - name: audiences
        description: Daily audience rankings.
      - name: feeds
        description: iCalendar reminders and saved searches, the XMLTV export.
      - name: web
        description: The web guide, server-rendered HTML.
      - name: operations
        description: Health, metrics and this document.
    paths:
      /health:
        get:
          tags: [operations]
          operationId: getHealth
          summary: The served guide and how its refreshes went
          responses:
            "200":
              description: Serving a guide.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Health" }
            "503":
              description: No guide loaded yet (`status` is `empty`).
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Health" }
      /metrics:
        get:
          tags: [operations]
          operationId: getMetrics
          summary: Prometheus metrics
          description: Requests and latency by route pattern, refreshes, per-provider fetches, failures and fallbacks, the guide's size.
          responses:
            "200":
              description: Prometheus text exposition format 0.0.4.
              content:
                text/plain:
                  schema: { type: string }
      /openapi.yaml:
        get:
          tags: [operations]
          operationId: getOpenAPI
          summary: This document
          responses:
            "200":
              description: OpenAPI 3.1.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/yaml:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
      /channels:
        get:
          tags: [guide]
          operationId: listChannels
          summary: The guide's channels
          parameters:
            - name: type
              in: query
              description: Only channels of this type (`national`, `regional`…), case- and accent-insensitive.
              schema: { type: string }
            - $ref: "#/components/parameters/lineup"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: Channels in providers.yaml's channel-map order, the others after by id (or in the line-up's order).
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/ChannelPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /lineups:
        get:
          tags: [guide]
          operationId: listLineups
          summary: The named line-ups configured in providers.yaml
          parameters:
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: Line-ups by name, each with its channel ids in order.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/LineupPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
      /now:
        get:
          tags: [guide]
          operationId: getNow
          summary: What is on every channel now, and next
          description: Rendered at most once per second per query; `remainingSeconds` and `progress` are as of `now`.
          parameters:
            - $ref: "#/components/parameters/channels"
            - $ref: "#/components/parameters/lineup"
            - $ref: "#/components/parameters/tz"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: One item per channel.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/NowPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /grid:
        get:
          tags: [guide]
          operationId: getGrid
          summary: Every channel's programmes over a span of time
          parameters:
            - name: at
              in: query
              description: Start of the span; ISO 8601 with an offset, or a local time or day read in `tz`. Default now.
              schema: { type: string, examples: ["2026-10-21T21:00:00+02:00", "2026-10-21T21:00:00", "2026-10-21"] }
            - name: hours
              in: query
              description: Length of the span.
              schema: { type: integer, minimum: 1, maximum: 24, default: 3 }
            - $ref: "#/components/parameters/channels"
            - $ref: "#/components/parameters/lineup"
            - $ref: "#/components/parameters/tz"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: One row per channel with the programmes overlapping [from, to).
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/GridPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /channels/{id}/schedule:
        get:
          tags: [guide]
          operationId: getChannelSchedule
          summary: One channel's day, the programme on air marked
          description: |
            The programmes overlapping local midnight to the next local midnight in `tz` (23 or 25
            hours on the days clocks change). Each has `current`; the one on air now also has
            `remainingSeconds` and `progress`. Rendered at most once per second per query.
          parameters:
            - $ref: "#/components/parameters/channelID"
            - name: date
              in: query
              description: The day, `YYYY-MM-DD`, in `tz`. Default today in `tz`.
              schema: { type: string, format: date }
            - $ref: "#/components/parameters/tz"
          responses:
            "200":
              description: The channel's day.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/ChannelDay" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /programmes/{id}:
        get:
          tags: [guide]
          operationId: getProgramme
          summary: A programme's detail, merged metadata and provenance
          parameters:
            - $ref: "#/components/parameters/programmeID"
            - $ref: "#/components/parameters/tz"
          responses:
            "200":
              description: The airing, the film or series it is, and where each part came from.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/ProgrammeDetail" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /programmes/{id}/airings:
        get:
          tags: [guide]
          operationId: listOtherAirings
          summary: Other airings of the same film or series from now on
          description: Airings of the programme's work (or, when no work was matched, of the same title, accent- and case-insensitive) starting now or later, the programme itself excluded, by start.
          parameters:
            - $ref: "#/components/parameters/programmeID"
            - $ref: "#/components/parameters/tz"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: The airings.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/AiringPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /upcoming:
        get:
          tags: [guide]
          operationId: listUpcoming
          summary: Programmes starting from now on, filtered
          description: The original app's home list, by start then channel.
          parameters:
            - name: kind
              in: query
              schema: { $ref: "#/components/schemas/ProgrammeKind" }
            - name: genre
              in: query
              description: A genre of the work or a category of the programme, whole, accent- and case-insensitive (`ciencia ficcion` matches `Ciencia ficción`).
              schema: { type: string }
            - name: year_from
              in: query
              description: Earliest year (the work's, else the programme's); programmes without a year are left out.
              schema: { type: integer, minimum: 0, maximum: 9999 }
            - name: year_to
              in: query
              description: Latest year; not before `year_from`.
              schema: { type: integer, minimum: 0, maximum: 9999 }
            - name: from
              in: query
              description: List programmes starting at or after this time instead of now (ISO 8601, or local in `tz`).
              schema: { type: string }
            - $ref: "#/components/parameters/channels"
            - $ref: "#/components/parameters/lineup"
            - $ref: "#/components/parameters/tz"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: The programmes.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/AiringPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /search:
        get:
          tags: [guide]
          operationId: search
          summary: Programmes by title, accent- and case-insensitive
          description: Substring of the programme's title or of its work's title or original title. Programmes not yet ended first, by start; then past ones, latest first.
          parameters:
            - name: q
              in: query
              required: true
              schema: { type: string, minLength: 1, maxLength: 200 }
            - $ref: "#/components/parameters/tz"
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: The programmes found.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/AiringPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
      /audiences:
        get:
          tags: [audiences]
          operationId: getAudienceDay
          summary: A day's audience ranking
          parameters:
            - name: date
              in: query
              description: The day, `YYYY-MM-DD`. Default the latest day held.
              schema: { type: string, format: date }
            - $ref: "#/components/parameters/limit"
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: The day's records by viewers, with every day held.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/AudienceDayPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404":
              description: No ranking is held for that day; the message names the days held.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Error" }
      /audiences/top:
        get:
          tags: [audiences]
          operationId: getAudienceTop
          summary: The most-watched records across days
          parameters:
            - name: from
              in: query
              description: First day, `YYYY-MM-DD`. Default six days before `to`.
              schema: { type: string, format: date }
            - name: to
              in: query
              description: Last day, `YYYY-MM-DD`, at most 365 days after `from`. Default the latest day held.
              schema: { type: string, format: date }
            - name: limit
              in: query
              schema: { type: integer, minimum: 1, maximum: 1000, default: 20 }
            - $ref: "#/components/parameters/offset"
          responses:
            "200":
              description: Records ranked by viewers.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/AudienceTopPage" }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
      /reminders.ics:
        get:
          tags: [feeds]
          operationId: getReminders
          summary: iCalendar reminders for chosen airings
          description: RFC 5545; one VEVENT per airing (the channel as location, the synopsis as description) with a display alarm before it starts.
          parameters:
            - name: programme
              in: query
              required: true
              description: 1…100 programme ids, repeated or comma-separated.
              schema: { type: array, items: { type: string }, minItems: 1, maxItems: 100 }
              style: form
              explode: true
            - $ref: "#/components/parameters/alarm"
          responses:
            "200":
              description: The calendar.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/calendar:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /calendar.ics:
        get:
          tags: [feeds]
          operationId: getSavedSearchCalendar
          summary: A saved search as a calendar to subscribe to
          description: Every airing not yet ended that matches all the criteria given (at least one of `title`, `genre`, `kind`), by start, at most 1,000.
          parameters:
            - name: title
              in: query
              description: Text the title contains, accent- and case-insensitive.
              schema: { type: string, maxLength: 200 }
            - name: genre
              in: query
              description: A genre of the work or a category of the programme, accent- and case-insensitive.
              schema: { type: string, maxLength: 200 }
            - name: kind
              in: query
              schema: { $ref: "#/components/schemas/ProgrammeKind" }
            - $ref: "#/components/parameters/channels"
            - $ref: "#/components/parameters/lineup"
            - $ref: "#/components/parameters/alarm"
          responses:
            "200":
              description: The calendar.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/calendar:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequest" }
            "404": { $ref: "#/components/responses/NotFound" }
      /xmltv.xml:
        get:
          tags: [feeds]
          operationId: getXMLTV
          summary: The merged guide as XMLTV
          description: For Kodi, Plex, Jellyfin and Tvheadend (docs/integrations.md).
          parameters:
            - $ref: "#/components/parameters/lineup"
          responses:
            "200":
              description: An XMLTV document; with `lineup`, that line-up's channels only.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/xml:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "404": { $ref: "#/components/responses/NotFound" }
      /xmltv.xml.gz:
        get:
          tags: [feeds]
          operationId: getXMLTVGzip
          summary: The merged guide as gzip-compressed XMLTV
          parameters:
            - $ref: "#/components/parameters/lineup"
          responses:
            "200":
              description: The XMLTV document, gzip-compressed.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                application/gzip:
                  schema: { type: string, contentEncoding: gzip }
            "304": { $ref: "#/components/responses/NotModified" }
            "404": { $ref: "#/components/responses/NotFound" }
      /playlist.m3u:
        get:
          tags: [feeds]
          operationId: getPlaylist
          summary: The user's M3U playlist with the guide's channel ids
          description: >-
            The playlist providers.yaml names (`playlist:`), given back in its order with `tvg-id`
            set to the guide channel each entry matched (by tvg-id, tvg-name, then display name),
            `tvg-logo` filled from the guide where the entry has none, and `url-tvg`/`x-tvg-url` on
            the `#EXTM3U` line pointing at this server's `/xmltv.xml` (with the same `lineup`).
            Stream URLs and other lines are passed through untouched; unmatched entries are kept
            without a new id. The file is read again at most once a minute; when a read fails, the
            last good playlist is served.
          parameters:
            - $ref: "#/components/parameters/lineup"
          responses:
            "200":
              description: An extended M3U playlist; with `lineup`, only the entries of that line-up's channels.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                audio/x-mpegurl:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "404": { $ref: "#/components/responses/NotFound" }
            "503":
              description: No playlist has been read well since the server started; the message says why.
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Error" }
      /:
        get:
          tags: [web]
          operationId: getGridPage
          summary: The web guide's grid
          description: Channels down, time across, a line at now; the times in `tz` (default Europe/Madrid).
          parameters:
            - name: at
              in: query
              description: Where the grid starts (ISO 8601, or local in `tz`). Default now.
              schema: { type: string }
            - name: hours
              in: query
              schema: { type: integer, minimum: 1, maximum: 12, default: 3 }
            - name: lineup
              in: query
              description: Show only this line-up's channels ("my channels").
              schema: { type: string }
            - $ref: "#/components/parameters/webZone"
          responses:
            "200":
              description: An HTML page.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/html:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequestPage" }
      /channel/{id}:
        get:
          tags: [web]
          operationId: getChannelPage
          summary: A channel's day as a web page
          parameters:
            - $ref: "#/components/parameters/channelID"
            - name: date
              in: query
              description: The day, `YYYY-MM-DD`. Default today.
              schema: { type: string, format: date }
            - $ref: "#/components/parameters/webZone"
          responses:
            "200":
              description: An HTML page.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/html:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequestPage" }
            "404": { $ref: "#/components/responses/NotFoundPage" }
      /programme/{id}:
        get:
          tags: [web]
          operationId: getProgrammePage
          summary: A programme's detail as a web page
          description: Poster, synopsis, cast, trailer, other airings and an "add reminder" link to `/reminders.ics`.
          parameters:
            - $ref: "#/components/parameters/programmeID"
            - $ref: "#/components/parameters/webZone"
          responses:
            "200":
              description: An HTML page.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/html:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "400": { $ref: "#/components/responses/BadRequestPage" }
            "404": { $ref: "#/components/responses/NotFoundPage" }
      /assets/{name}:
        get:
          tags: [web]
          operationId: getAsset
          summary: The web guide's stylesheet and script
          parameters:
            - name: name
              in: path
              required: true
              schema: { type: string, enum: [guide.css, guide.js] }
          responses:
            "200":
              description: The asset.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                text/css:
                  schema: { type: string }
                text/javascript:
                  schema: { type: string }
            "304": { $ref: "#/components/responses/NotModified" }
            "404": { $ref: "#/components/responses/NotFoundPage" }
      /favicon.ico:
        get:
          tags: [web]
          operationId: getFavicon
          summary: The web guide's icon, 32×32
          responses:
            "200":
              description: An ICO file.
              headers: { ETag: { $ref: "#/components/headers/ETag" }, Cache-Control: { $ref: "#/components/headers/CacheControl" } }
              content:
                image/vnd.microsoft.icon:
                  schema: { type: string, format: binary }
            "304": { $ref: "#/components/responses/NotModified" }
    components:
      parameters:
        limit:
          name: limit
          in: query
          description: Items per page.
          schema: { type: integer, minimum: 1, maximum: 1000, default: 100 }
        offset:
          name: offset
          in: query
          description: Items to skip.
          schema: { type: integer, minimum: 0, default: 0 }
        tz:
          name: tz
          in: query
          description: IANA time zone to render times in and to read local times and days in. Default UTC.
          schema: { type: string, examples: [Europe/Madrid, Atlantic/Canary] }
        webZone:
          name: tz
          in: query
          description: IANA time zone the page shows times in. Default Europe/Madrid.
          schema: { type: string }
        channels:
          name: channels
          in: query
          description: Channel ids, comma-separated or repeated, at most 1,000, in the order wanted; an unknown id is a 404.
          schema: { type: array, items: { type: string } }
          style: form
          explode: false
        lineup:
          name: lineup
          in: query
          description: A line-up from `/lineups`; with `channels`, both narrow. An unknown name is a 404 that lists the known ones.
          schema: { type: string }
        alarm:
          name: alarm
          in: query
          description: Minutes before the start the reminder goes off. Default the configured lead (5).
          schema: { type: integer, minimum: 0, maximum: 1440 }
        channelID:
          name: id
          in: path
          required: true
          description: A channel id (`La1.es`).
          schema: { type: string }
        programmeID:
          name: id
          in: path
          required: true
          description: A programme id, the channel and the start in UTC (`La1.es@20261025T203000Z`); `@` may be sent as `%40`.
          schema: { type: string }
      headers:
        ETag:
          description: A digest of the body (`W/"…"` for the gzip-compressed body); send it back in `If-None-Match` to get a 304.
          schema: { type: string }
        CacheControl:
          description: "`public, max-age=N`: 1 s for bodies that show time left, 30 s for lists from now on, 300 s for the rest."
          schema: { type: string }
      responses:
        NotModified:
          description: The client's copy (`If-None-Match`) is current; no body.
        BadRequest:
          description: A parameter is missing, malformed or out of range; the message names it.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        NotFound:
          description: An unknown id, line-up or route (or no playlist configured); the message names it.
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Error" }
        BadRequestPage:
          description: A parameter is malformed; an HTML page says which.
          content:
            text/html:
              schema: { type: string }
        NotFoundPage:
          description: Nothing has that id; an HTML page says so.
          content:
            text/html:
              schema: { type: string }
      schemas:
        Error:
          type: object
          required: [error]
          properties:
            error:
              type: object
              required: [status, message]
              properties:
                status: { type: integer, examples: [400] }
                message: { type: string, examples: ["parameter 'hours': 1000 is out of range 1…24"] }
        Time:
          type: string
          format: date-time
          description: ISO 8601 in the zone asked (`2026-10-21T21:00:00+02:00`), `Z` in UTC.
        Day:
          type: string
          format: date
          examples: ["2026-10-21"]
        ProgrammeKind:
          type: string
          enum: [movie, series, programme, documentary, news, sports, kids, other]
        PageFields:
          type: object
          required: [total, offset, limit]
          properties:
            total: { type: integer, description: Items in the whole list. }
            offset: { type: integer }
            limit: { type: integer }
        Channel:
          type: object
          required: [id, name]
          properties:
            id: { type: string, examples: [La1.es] }
            name: { type: string }
            otherNames: { type: array, items: { $ref: "#/components/schemas/LocalizedText" } }
            type: { type: string, examples: [national, regional] }
            language: { type: string }
            logo: { type: string, format: uri }
            url: { type: string, format: uri }
            providerIDs: { type: object, additionalProperties: { type: string } }
        ChannelBrief:
          type: object
          required: [id, name]
          properties:
            id: { type: string }
            name: { type: string }
            logo: { type: string, format: uri }
        LocalizedText:
          type: object
          required: [value]
          properties:
            value: { type: string }
            lang: { type: string }
        Airing:
          type: object
          description: An airing in a list; `/programmes/{id}` has the rest.
          required: [id, channel, start, title]
          properties:
            id: { type: string, examples: ["La1.es@20261021T190000Z"] }
            channel: { type: string }
            start: { $ref: "#/components/schemas/Time" }
            stop: { $ref: "#/components/schemas/Time" }
            title: { type: string }
            subtitle: { type: string }
            kind: { $ref: "#/components/schemas/ProgrammeKind" }
            year: { type: integer }
            season: { type: integer }
            episode: { type: integer }
            genres: { type: array, items: { type: string }, description: "The work's genres, else the programme's categories." }
            poster: { type: string, format: uri }
            work: { type: string, description: "The film or series (`movie/tmdb/603`)." }
            current: { type: boolean, description: "`/channels/{id}/schedule` only: on air now." }
            remainingSeconds: { type: integer, description: On the programme on air now, seconds until it ends. }
            progress: { type: number, minimum: 0, maximum: 1, description: On the programme on air now, the share already shown. }
        NowItem:
          type: object
          required: [channel]
          properties:
            channel: { $ref: "#/components/schemas/ChannelBrief" }
            current: { $ref: "#/components/schemas/Airing" }
            next: { $ref: "#/components/schemas/Airing" }
        GridRow:
          type: object
          required: [channel, programmes]
          properties:
            channel: { $ref: "#/components/schemas/ChannelBrief" }
            programmes: { type: array, items: { $ref: "#/components/schemas/Airing" } }
        ChannelDay:
          type: object
          required: [channel, date, timeZone, from, to, programmes]
          properties:
            channel: { $ref: "#/components/schemas/ChannelBrief" }
            date: { $ref: "#/components/schemas/Day" }
            timeZone: { type: string, examples: [Europe/Madrid] }
            from: { $ref: "#/components/schemas/Time" }
            to: { $ref: "#/components/schemas/Time" }
            programmes: { type: array, items: { $ref: "#/components/schemas/Airing" } }
        Lineup:
          type: object
          required: [name, channels]
          properties:
            name: { type: string }
            channels: { type: array, items: { type: string } }
        AudienceItem:
          type: object
          required: [day, title, channel, channelName, viewers, source]
          properties:
            day: { $ref: "#/components/schemas/Day" }
            rank: { type: integer, description: Position in its day's ranking (1 = most watched). }
            title: { type: string }
            channel: { type: string }
            channelName: { type: string }
            viewers: { type: integer }
            share: { type: number, description: Percent of the audience. }
            start: { $ref: "#/components/schemas/Time" }
            programme: { type: string, description: The guide programme measured, when found. }
            source: { type: string }
        ChannelPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [items]
              properties:
                items: { type: array, items: { $ref: "#/components/schemas/Channel" } }
        LineupPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [items]
              properties:
                items: { type: array, items: { $ref: "#/components/schemas/Lineup" } }
        AiringPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [items]
              properties:
                items: { type: array, items: { $ref: "#/components/schemas/Airing" } }
        NowPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [now, items]
              properties:
                now: { $ref: "#/components/schemas/Time" }
                items: { type: array, items: { $ref: "#/components/schemas/NowItem" } }
        GridPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [from, to, items]
              properties:
                from: { $ref: "#/components/schemas/Time" }
                to: { $ref: "#/components/schemas/Time" }
                items: { type: array, items: { $ref: "#/components/schemas/GridRow" } }
        AudienceDayPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [day, days, items]
              properties:
                day: { $ref: "#/components/schemas/Day" }
                days: { type: array, items: { $ref: "#/components/schemas/Day" }, description: Every day held. }
                items: { type: array, items: { $ref: "#/components/schemas/AudienceItem" } }
        AudienceTopPage:
          allOf:
            - $ref: "#/components/schemas/PageFields"
            - type: object
              required: [from, to, items]
              properties:
                from: { $ref: "#/components/schemas/Day" }
                to: { $ref: "#/components/schemas/Day" }
                items: { type: array, items: { $ref: "#/components/schemas/AudienceItem" } }
        Rating:
          type: object
          required: [value]
          properties:
            system: { type: string }
            value: { type: string }
            icon: { type: string }
        Image:
          type: object
          required: [url]
          properties:
            url: { type: string, format: uri }
            kind: { type: string, examples: [poster, backdrop] }
            width: { type: integer }
            height: { type: integer }
        CastMember:
          type: object
          required: [name]
          properties:
            name: { type: string }
            character: { type: string }
            photo: { type: string, format: uri }
        CrewMember:
          type: object
          required: [name, job]
          properties:
            name: { type: string }
            job: { type: string, examples: [Director] }
            department: { type: string }
        MetadataMatch:
          type: object
          required: [method, confidence, providerID, title]
          properties:
            method: { type: string, enum: [providerID, exact, titleOnly, nearYear] }
            confidence: { type: number }
            providerID: { type: string }
            title: { type: string }
        Programme:
          type: object
          description: Every field of an airing as the snapshot holds it (docs/snapshot.md).
          required: [channel, start, title, source]
          properties:
            channel: { type: string }
            start: { $ref: "#/components/schemas/Time" }
            stop: { $ref: "#/components/schemas/Time" }
            title: { type: string }
            subtitle: { type: string }
            synopsis: { type: string }
            textLanguage: { type: string }
            otherTexts:
              type: array
              items:
                type: object
                properties: { field: { type: string, enum: [title, subtitle, synopsis] }, value: { type: string }, lang: { type: string } }
            kind: { $ref: "#/components/schemas/ProgrammeKind" }
            categories: { type: array, items: { $ref: "#/components/schemas/LocalizedText" } }
            keywords: { type: array, items: { $ref: "#/components/schemas/LocalizedText" } }
            date: { type: string, description: "The date of production as the source gave it (`2006`)." }
            year: { type: integer }
            episode:
              type: object
              properties:
                season: { type: integer }
                seasonCount: { type: integer }
                number: { type: integer }
                episodeCount: { type: integer }
                part: { type: integer }
                partCount: { type: integer }
                xmltvNS: { type: string }
                onscreen: { type: string }
                other: { type: object, additionalProperties: { type: string } }
            credits:
              type: array
              items:
                type: object
                required: [role, name]
                properties:
                  role: { type: string, enum: [director, actor, writer, adapter, producer, composer, editor, presenter, commentator, guest] }
                  name: { type: string }
                  character: { type: string }
            language: { type: string }
            originalLanguage: { type: string }
            countries: { type: array, items: { type: string } }
            length: { type: integer, description: Running time in seconds. }
            images: { type: array, items: { $ref: "#/components/schemas/Image" } }
            urls: { type: array, items: { type: string } }
            video: { type: object, properties: { present: { type: boolean }, colour: { type: boolean }, aspect: { type: string }, quality: { type: string } } }
            audio: { type: object, properties: { present: { type: boolean }, stereo: { type: string } } }
            previouslyShown: { type: object, properties: { start: { type: string }, channel: { type: string } } }
            premiere: { type: boolean }
            lastChance: { type: boolean }
            new: { type: boolean }
            subtitles: { type: array, items: { type: object, properties: { type: { type: string }, language: { type: string } } } }
            ratings: { type: array, items: { $ref: "#/components/schemas/Rating" } }
            starRatings: { type: array, items: { $ref: "#/components/schemas/Rating" } }
            providerIDs: { type: object, additionalProperties: { type: string } }
            source: { type: string, description: The guide provider that supplied the airing. }
            work: { type: string }
        ProgrammeDetail:
          type: object
          description: Presentation fields prefer the work's merged metadata and fall back to the programme's own.
          required: [id, programme, channel, title, genres, cast, crew, images, ratings, provenance, audiences]
          properties:
            id: { type: string }
            programme: { $ref: "#/components/schemas/Programme" }
            channel: { $ref: "#/components/schemas/ChannelBrief" }
            title: { type: string }
            synopsis: { type: string, description: "The guide's synopsis, else the work's overview." }
            overview: { type: string }
            tagline: { type: string }
            poster: { type: string, format: uri }
            backdrop: { type: string, format: uri }
            genres: { type: array, items: { type: string } }
            cast: { type: array, items: { $ref: "#/components/schemas/CastMember" } }
            crew: { type: array, items: { $ref: "#/components/schemas/CrewMember" } }
            trailer:
              type: object
              description: The first video of type Trailer.
              required: [name, url, site, key]
              properties:
                name: { type: string }
                url: { type: string, format: uri, examples: ["https://www.youtube.com/watch?v=KEY"] }
                site: { type: string }
                key: { type: string }
                language: { type: string }
            year: { type: integer }
            budget: { type: integer, description: US dollars. }
            images: { type: array, items: { $ref: "#/components/schemas/Image" } }
            ratings:
              type: object
              properties:
                voteAverage: { type: number, description: Out of 10. }
                voteCount: { type: integer }
                contentRating: { type: string }
                programme: { type: array, items: { $ref: "#/components/schemas/Rating" }, description: "The guide's content ratings." }
                stars: { type: array, items: { $ref: "#/components/schemas/Rating" }, description: "The guide's star ratings." }
            work:
              type: object
              required: [id, kind, guideTitles]
              properties:
                id: { type: string, examples: [movie/tmdb/603] }
                kind: { $ref: "#/components/schemas/ProgrammeKind" }
                title: { type: string }
                originalTitle: { type: string }
                originalLanguage: { type: string }
                released: { type: string, format: date }
                runtime: { type: integer, description: Minutes. }
                status: { type: string }
                network: { type: string }
                seasons: { type: integer }
                countries: { type: array, items: { type: string } }
                homepage: { type: string, format: uri }
                revenue: { type: integer }
                providerIDs: { type: object, additionalProperties: { type: string } }
                guideTitles: { type: array, items: { type: string } }
            provenance:
              type: object
              required: [programme]
              properties:
                programme: { type: string, description: The guide provider of the airing. }
                work: { type: object, additionalProperties: { type: string }, description: "Metadata field → the provider that gave it." }
                matches: { type: object, additionalProperties: { $ref: "#/components/schemas/MetadataMatch" }, description: How each metadata provider found the work. }
            audiences: { type: array, items: { $ref: "#/components/schemas/AudienceItem" }, description: Audience records measured for this airing. }
        Health:
          type: object
          required: [status, origin, channels, programmes, staleChannels, refresh]
          properties:
            status: { type: string, enum: [ok, degraded, empty] }
            origin: { type: string, description: "Where the served guide came from: `latest.json`, `refresh` or `none`." }
            generatedAt: { $ref: "#/components/schemas/Time" }
            loadedAt: { $ref: "#/components/schemas/Time" }
            channels: { type: integer }
            programmes: { type: integer }
            staleChannels: { type: array, items: { type: string } }
            refresh:
              type: object
              required: [enabled, succeeded, failed]
              properties:
                enabled: { type: boolean }
                intervalSeconds: { type: integer }
                lastAttempt: { $ref: "#/components/schemas/Time" }
                lastSuccess: { $ref: "#/components/schemas/Time" }
                lastError: { type: string }
                succeeded: { type: integer }
                failed: { type: integer }
    """#
}
