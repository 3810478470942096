import Foundation

/// The web guide's Mustache templates. Every text that comes from the guide goes through `{{ }}`,
/// which escapes it for HTML (quotes included, so it is safe in attributes too); `{{{ }}}` is
/// never used. Pages extend `layout` and fill its blocks.
enum WebTemplates {
    static let all: [String: String] = [
        "layout": layout,
        "grid": grid,
        "channel": channel,
        "programme": programme,
        "error": error,
    ]

    /// The page chrome. `data-now` is the server's clock (fixed by `--now` in screenshots):
    /// guide.js advances it by the time since the page loaded instead of trusting the browser's.
    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$title}}tvguide{{/title}}</title>
        <link rel="stylesheet" href="\(WebAssets.stylesheetPath)">
        <script src="\(WebAssets.scriptPath)" defer></script>
        </head>
        <body data-page="{{$page}}page{{/page}}" data-now="{{nowEpoch}}">
        <header class="top">
        <a class="home" href="/">tvguide</a>
        <a href="/">Grid</a>
        </header>
        <main>
        {{$main}}{{/main}}
        </main>
        <footer>Times in {{zoneName}}.</footer>
        </body>
        </html>

        """

    static let grid = """
        {{<layout}}
        {{$title}}{{heading}} {{spanLabel}} · tvguide{{/title}}
        {{$page}}grid{{/page}}
        {{$main}}
        <section class="toolbar">
        <h1>{{heading}} <span class="span">{{spanLabel}}</span></h1>
        <nav class="slide" aria-label="Move in time">
        <a href="{{earlierHref}}" rel="prev">← earlier</a>
        <a class="now-link" href="{{nowHref}}">Now</a>
        <a href="{{laterHref}}" rel="next">later →</a>
        </nav>
        <form class="lineup" method="get" action="/">
        {{#formFields}}
        <input type="hidden" name="{{name}}" value="{{value}}">
        {{/formFields}}
        <label>Channels <select name="lineup">
        {{#lineups}}
        <option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>
        {{/lineups}}
        </select></label>
        <button type="submit" data-js-hide>Show</button>
        </form>
        <details id="my-channels" class="my-channels" hidden>
        <summary>My channels <span data-hidden-count></span></summary>
        <div class="checks">
        {{#rows}}
        <label><input type="checkbox" data-channel="{{id}}" checked> {{name}}</label>
        {{/rows}}
        </div>
        <button type="button" data-action="show-all">All channels</button>
        </details>
        </section>
        {{#hasRows}}
        <div class="grid" style="--hours:{{hours}}" data-start="{{startEpoch}}" data-end="{{endEpoch}}">
        <div class="grid-scroll">
        <div class="grid-inner">
        <div class="row head"><div class="ch" title="{{zoneName}}">{{zoneCity}}</div><div class="lane">{{#ticks}}<span class="tick" style="left:{{left}}">{{label}}</span>{{/ticks}}</div></div>
        {{#rows}}
        <div class="row" data-channel="{{id}}"><a class="ch" href="{{href}}" title="{{name}}">{{name}}</a><div class="lane">{{#blocks}}<a class="{{classes}}" style="{{style}}" href="{{href}}" title="{{tooltip}}" data-start="{{startEpoch}}" data-end="{{endEpoch}}"><b>{{title}}</b><small>{{time}}</small></a>{{/blocks}}</div></div>
        {{/rows}}
        <div class="now-layer" aria-hidden="true"><div class="now-line" style="left:{{nowLeft}}"{{^nowVisible}} hidden{{/nowVisible}}></div></div>
        </div>
        </div>
        </div>
        {{/hasRows}}
        {{^hasRows}}
        <p class="empty">No channels to show.</p>
        {{/hasRows}}
        {{/main}}
        {{/layout}}

        """

    static let channel = """
        {{<layout}}
        {{$title}}{{channelName}} · {{dayLabel}} · tvguide{{/title}}
        {{$page}}channel{{/page}}
        {{$main}}
        <section class="toolbar">
        <h1>{{channelName}} <span class="span">{{dayLabel}}</span></h1>
        <nav class="slide" aria-label="Other days">
        <a href="{{previousHref}}" rel="prev">← {{previousLabel}}</a>
        <a class="now-link" href="{{todayHref}}">Today</a>
        <a href="{{nextHref}}" rel="next">{{nextLabel}} →</a>
        </nav>
        </section>
        {{#hasRows}}
        <ol class="day">
        {{#rows}}
        <li class="{{classes}}"{{#timeLeft}} id="on-air"{{/timeLeft}}><time datetime="{{startISO}}">{{time}}{{#otherDay}}<small>{{.}}</small>{{/otherDay}}</time><div class="what"><a href="{{href}}">{{title}}</a>{{#subtitle}} <span class="sub">{{.}}</span>{{/subtitle}}{{#timeLeft}}<span class="left">On air · {{.}}</span>{{/timeLeft}}</div>{{#kind}}<span class="kind">{{.}}</span>{{/kind}}</li>
        {{/rows}}
        </ol>
        {{/hasRows}}
        {{^hasRows}}
        <p class="empty">Nothing in the guide for {{channelName}} on this day.</p>
        {{/hasRows}}
        {{/main}}
        {{/layout}}

        """

    static let programme = """
        {{<layout}}
        {{$title}}{{title}} · {{channelName}} · tvguide{{/title}}
        {{$page}}programme{{/page}}
        {{$main}}
        <article class="detail{{#backdrop}} has-backdrop{{/backdrop}}">
        {{#backdrop}}
        <div class="backdrop"><img src="{{.}}" alt="" data-fallback></div>
        {{/backdrop}}
        <div class="detail-body">
        <div class="poster"><span>{{title}}</span>{{#poster}}<img src="{{.}}" alt="{{title}}" data-fallback>{{/poster}}</div>
        <div class="facts">
        <h1>{{title}}</h1>
        {{#subtitle}}
        <p class="subtitle">{{.}}</p>
        {{/subtitle}}
        <p class="when"><a href="{{channelHref}}">{{channelName}}</a> · <time datetime="{{startISO}}">{{when}}</time> · {{duration}}{{#kind}} · {{.}}{{/kind}}</p>
        {{#status}}
        <p class="status">{{.}}</p>
        {{/status}}
        <p class="actions"><a class="button primary" href="{{reminderHref}}">Add reminder</a>{{#trailerHref}} <a class="button" href="{{.}}" rel="noopener noreferrer">Trailer</a>{{/trailerHref}}</p>
        {{#tagline}}
        <p class="tagline">{{.}}</p>
        {{/tagline}}
        {{#synopsis}}
        <p class="synopsis">{{.}}</p>
        {{/synopsis}}
        <dl>
        {{#year}}<dt>Year</dt><dd>{{.}}</dd>{{/year}}
        {{#genres}}<dt>Genres</dt><dd>{{.}}</dd>{{/genres}}
        {{#director}}<dt>Director</dt><dd>{{.}}</dd>{{/director}}
        {{#rating}}<dt>Rating</dt><dd>{{.}}</dd>{{/rating}}
        {{#contentRating}}<dt>Age rating</dt><dd>{{.}}</dd>{{/contentRating}}
        </dl>
        {{#hasCast}}
        <h2>Cast</h2>
        <ul class="cast">
        {{#cast}}
        <li>{{name}}{{#character}} <span>as {{.}}</span>{{/character}}</li>
        {{/cast}}
        </ul>
        {{/hasCast}}
        </div>
        </div>
        <section class="airings">
        <h2>Other airings</h2>
        {{#hasOtherAirings}}
        <ul>
        {{#otherAirings}}
        <li class="{{classes}}"><a href="{{href}}"><time datetime="{{startISO}}">{{when}}</time> {{channelName}}</a></li>
        {{/otherAirings}}
        </ul>
        {{/hasOtherAirings}}
        {{^hasOtherAirings}}
        <p class="empty">No other airings in the guide.</p>
        {{/hasOtherAirings}}
        </section>
        </article>
        {{/main}}
        {{/layout}}

        """

    static let error = """
        {{<layout}}
        {{$title}}{{heading}} · tvguide{{/title}}
        {{$page}}error{{/page}}
        {{$main}}
        <section class="error">
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        <p><a class="button" href="/">Back to the guide</a></p>
        </section>
        {{/main}}
        {{/layout}}

        """
}
