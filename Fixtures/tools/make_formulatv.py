#!/usr/bin/env python3
"""Writes the recorded formulatv-style audience pages: Fixtures/formulatv/ and Fixtures/formulatv-moved/.

`Fixtures/formulatv/` is a recording (docs/recording.md) for `base_url: "https://www.formulatv.com/"`:
the page of `https://www.formulatv.com/audiencias/19-10-2026/` is the file `audiencias/19-10-2026`
(no extension, the trailing slash dropped). It holds 14 days, Monday 12 to Sunday 25 October 2026.
Each page is about 100 KB of formulatv-like HTML: head with metas, styles and scripts, navigation,
ad slots, the day's ranking `<table class="audiencias">` (a header row of `th`, then 40 rows of six
`td`: rank, programme, channel, viewers, share, start), a second table of channel shares
(`class="cuotas"`, which the ranking selector must not pick), sidebars, comments and a footer.

The ranking measures the sample guide (Fixtures/xmltv/sample.xml): every row of 19-25 October is
an airing of that day's broadcast day (06:00 to 06:00 Madrid time) with the guide's title, channel
and local start time, so audiences join the guide. 12-18 October repeat the same airings at the
same weekday and times (the line-up repeats weekly; all of it is summer time), with other figures.
Times after midnight are written past 24 (`24:45` is 00:45 of the next day), as rankings that
follow the broadcast day do; none falls in the repeated hour of the 25th.

Formats, as Spanish sites mix them: viewers `1.234.000`, `2,1 M`, `2,1M`, `2,1 millones`, `850 mil`;
share `12,5%` (sometimes `12,5 %`); start `22:05` followed by the duration, `22:05 (85 min)`.
Rows are ranked by the viewers as printed, so the rank order and the parsed figures agree (no ties).
Every page ranks all 24 channels of providers.yaml at least once and one airing after midnight.
Channel names are the site's: `Trece` and `ETB1` differ from providers.yaml's `TRECE` and `ETB 1`.
The chrome is tag soup as real pages are: HTML5 elements, inline SVG, menu items and paragraphs
left open, and an inline script whose strings hold `<tr class="publi"><td colspan="6">` markup.

Special pages:
- 21-10-2026 is ISO-8859-1 (`<meta charset="iso-8859-1">`, accented titles as Latin-1 bytes);
  every other page is UTF-8 (`<meta charset="utf-8">`).
- 23-10-2026 has an advert row inside the ranking, `<tr class="publi"><td colspan="6">`.
- Fixtures/formulatv-moved/audiencias/25-10-2026: the site's new layout, the ranking as
  `<div class="ranking"><div class="fila">` blocks with no table (the rows selector finds nothing).
- Fixtures/formulatv-moved/audiencias/24-10-2026: the table kept but its columns reordered
  (rank, channel, programme, start, viewers, share), so `td[4]` holds `22:05 (85 min)`, not a number.

Deterministic: no clock, no `random`; run it again and no file changes.

    python3 Fixtures/tools/make_formulatv.py [--guide Fixtures/xmltv/sample.xml] [--out Fixtures]
"""

import argparse
import calendar
import hashlib
import html
import os
import time
import unicodedata
import xml.etree.ElementTree as ET

# Canonical id -> the channel as formulatv writes it, its slug on the site and its audience weight:
# the viewers of an average programme at prime time. Two names differ from providers.yaml's `name`
# on purpose, as they do on the real site: `Trece` (TRECE) and `ETB1` (ETB 1).
CHANNELS = {
    "La1.es": ("La 1", "la-1", 1_250_000),
    "La2.es": ("La 2", "la-2", 330_000),
    "Antena3.es": ("Antena 3", "antena-3", 1_500_000),
    "Cuatro.es": ("Cuatro", "cuatro", 560_000),
    "Telecinco.es": ("Telecinco", "telecinco", 1_100_000),
    "LaSexta.es": ("laSexta", "lasexta", 720_000),
    "24h.es": ("24h", "24h", 110_000),
    "Clan.es": ("Clan", "clan", 140_000),
    "Teledeporte.es": ("Teledeporte", "teledeporte", 120_000),
    "Neox.es": ("Neox", "neox", 210_000),
    "Nova.es": ("Nova", "nova", 260_000),
    "Mega.es": ("Mega", "mega", 190_000),
    "Atreseries.es": ("Atreseries", "atreseries", 170_000),
    "FDF.es": ("FDF", "fdf", 240_000),
    "Energy.es": ("Energy", "energy", 200_000),
    "Divinity.es": ("Divinity", "divinity", 150_000),
    "Boing.es": ("Boing", "boing", 90_000),
    "BeMad.es": ("Be Mad", "be-mad", 100_000),
    "DMAX.es": ("DMAX", "dmax", 160_000),
    "ParamountNetwork.es": ("Paramount Network", "paramount-network", 170_000),
    "Trece.es": ("Trece", "trece", 180_000),
    "DKiss.es": ("DKISS", "dkiss", 110_000),
    "TV3.es": ("TV3", "tv3", 420_000),
    "ETB1.es": ("ETB1", "etb1", 75_000),
}

# Regional channels' share is measured in their own territory (a smaller universe).
TERRITORY = {"TV3.es": 0.3, "ETB1.es": 0.1}

# Hits draw more than their channel's average at that hour.
BOOST = {
    "Pasapalabra": 2.0, "El hormiguero 3.0": 1.35, "Antena 3 Noticias 1": 1.3, "Antena 3 Noticias 2": 1.2,
    "Telediario 1": 1.3, "Telediario 2": 1.15, "La Revuelta": 1.05, "Sueños de libertad": 1.25,
    "La Promesa": 1.2, "Valle salvaje": 1.1, "El cazador": 1.15, "Aquí la Tierra": 1.15,
    "Informativos Telecinco": 1.25, "Gran Hermano": 1.3, "Gran Hermano: El debate": 1.2,
    "Reacción en cadena": 1.2, "La ruleta de la suerte": 1.35, "El intermedio": 1.3,
    "laSexta Noticias 14h": 1.3, "First Dates": 1.4, "Cuarto milenio": 1.5, "Saber y ganar": 1.6,
    "Telenotícies vespre": 1.4, "Telenotícies migdia": 1.35, "Polònia": 1.3, "Està passant": 1.25,
    "Cuéntame cómo pasó": 1.1, "Y ahora Sonsoles": 1.1, "Espejo público": 1.3, "Corazón": 1.15,
    "Gaur egun": 1.3, "Herri txiki, infernu handi": 1.2, "La que se avecina": 1.2, "Los Simpson": 1.1,
    "El chiringuito de Jugones": 1.4, "Jugones": 1.2, "Informe semanal": 1.3,
}

# Below this many minutes an airing (a weather report, a trailer) is not ranked, nor are fillers.
MIN_MINUTES = 20
UNRANKED = {"Teletienda", "Minutos musicales", "Palabra de vida"}

ROWS_PER_DAY = 40
FIRST_DAY = (2026, 10, 12)
DAYS = 14
GUIDE_FIRST_DAY = (2026, 10, 19)  # the sample guide's week: Monday 19 .. Sunday 25
LATIN1_DAY = (2026, 10, 21)
ADVERT_DAY = (2026, 10, 23)
ADVERT_AFTER_ROW = 10
MOVED_DAY = (2026, 10, 25)
REORDERED_DAY = (2026, 10, 24)

WEEKDAYS = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
          "octubre", "noviembre", "diciembre"]


# --- deterministic noise ---------------------------------------------------------------------------

def unit(*key):
    """A number in [0, 1) fixed by its key: the same key always gives the same number."""
    digest = hashlib.sha256("|".join(str(part) for part in key).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64


def pick(items, *key):
    return items[int(unit(*key) * len(items))]


# --- days ------------------------------------------------------------------------------------------

def day_number(date):
    return calendar.timegm((date[0], date[1], date[2], 0, 0, 0)) // 86400


def from_day_number(number):
    parts = time.gmtime(number * 86400)
    return (parts.tm_year, parts.tm_mon, parts.tm_mday)


def weekday(date):
    return calendar.weekday(*date)  # Monday is 0


def slug_date(date):
    return "%02d-%02d-%04d" % (date[2], date[1], date[0])


def long_date(date):
    return "%s %d de %s de %d" % (WEEKDAYS[weekday(date)], date[2], MONTHS[date[1] - 1], date[0])


def short_date(date):
    return "%s %d" % (WEEKDAYS[weekday(date)], date[2])


# --- the guide -------------------------------------------------------------------------------------

def load_airings(path):
    """Airings per broadcast day of the guide: {(y, m, d): [airing]}. An airing is a dict with the
    channel, title, category, the local start in minutes after the broadcast day's midnight (1440
    and more after midnight) and the duration in minutes. The guide's times carry their local offset,
    so the local wall clock is read straight from them."""
    days = {}
    for programme in ET.parse(path).getroot().iter("programme"):
        start, stop = programme.get("start"), programme.get("stop")
        local = (int(start[0:4]), int(start[4:6]), int(start[6:8]))
        minute = int(start[8:10]) * 60 + int(start[10:12])
        if minute < 6 * 60:  # before 06:00: the tail of the previous broadcast day
            local = from_day_number(day_number(local) - 1)
            minute += 24 * 60
        duration = (utc_minutes(stop) - utc_minutes(start))
        days.setdefault(local, []).append({
            "channel": programme.get("channel"),
            "title": programme.findtext("title"),
            "category": programme.findtext("category") or "",
            "start": minute,
            "minutes": duration,
        })
    return days


def utc_minutes(stamp):
    """Minutes since the epoch of an XMLTV time `20261025023000 +0200`."""
    seconds = calendar.timegm((int(stamp[0:4]), int(stamp[4:6]), int(stamp[6:8]),
                               int(stamp[8:10]), int(stamp[10:12]), int(stamp[12:14])))
    sign = 1 if stamp[15] == "+" else -1
    offset = sign * (int(stamp[16:18]) * 60 + int(stamp[18:20]))
    return seconds // 60 - offset


def clock(minute):
    """`22:05`; after midnight `24:45` (the broadcast day's own night)."""
    return "%02d:%02d" % (minute // 60, minute % 60)


# --- the audience model ----------------------------------------------------------------------------

def slot(minute):
    """(audience factor, viewers watching TV in Spain) for a start time of the broadcast day."""
    hour = minute / 60
    for limit, factor, universe in ((9, 0.15, 1_500_000), (12, 0.3, 2_800_000), (14, 0.45, 4_000_000),
                                    (15, 0.8, 7_000_000), (16, 1.1, 9_000_000), (19, 0.6, 6_500_000),
                                    (21, 0.85, 8_500_000), (22.5, 1.15, 11_000_000), (24, 0.85, 9_000_000)):
        if hour < limit:
            return factor, universe
    return 0.35, 3_500_000


def viewers_of(airing, date):
    """The audience of one airing on one day: the channel's weight, the hour, the programme's pull,
    the day of the week and a fixed +-15% of noise per day, so each day of the fortnight differs."""
    base = CHANNELS[airing["channel"]][2]
    factor, _ = slot(airing["start"])
    if base < 300_000:  # thematic channels: a flatter curve through the day
        factor = factor ** 0.6
    if airing["category"] == "Infantil" and (7 * 60 <= airing["start"] < 10 * 60 or 17 * 60 <= airing["start"] < 20 * 60 + 30):
        factor *= 1.8
    if airing["category"] in ("Cine", "Pel·lícula", "Filma"):
        factor *= 0.9
    day_factor = (1.0, 1.0, 1.02, 1.0, 0.93, 0.85, 0.95)[weekday(date)]
    noise = 0.85 + 0.3 * unit("viewers", slug_date(date), airing["channel"], airing["start"], airing["title"])
    return int(base * factor * BOOST.get(airing["title"], 1.0) * day_factor * noise)


def printed_viewers(viewers, key):
    """The figure as the page prints it and the number it means."""
    style = unit("format", *key)
    if style < 0.55 or viewers < 10_000:
        value = round(viewers, -3)
        return "{:,}".format(value).replace(",", "."), value
    if style < 0.85:
        if viewers >= 1_000_000:
            tenths = round(viewers / 100_000)
            return "%d,%d M" % divmod(tenths, 10), tenths * 100_000
        thousands = round(viewers / 1000)
        return "%d mil" % thousands, thousands * 1000
    if viewers >= 1_000_000:
        hundredths = round(viewers / 10_000)
        if style < 0.93:
            return "%d,%02dM" % divmod(hundredths, 100), hundredths * 10_000
        tenths = round(viewers / 100_000)
        return "%d,%d millones" % divmod(tenths, 10), tenths * 100_000
    value = round(viewers, -4)
    return "{:,}".format(value).replace(",", "."), value


def printed_share(share, key):
    tenths = round(share * 10)
    text = "%d,%d" % divmod(tenths, 10)
    return text + (" %" if unit("share", *key) < 0.1 else "%")


def ranking(airings, date):
    """The day's 40 rows, ranked by the viewers as printed. Every channel's best airing is in (the
    site lists the leader of each channel) and the best one after midnight; the rest are the day's
    most watched."""
    candidates = []
    for airing in airings:
        if airing["minutes"] < MIN_MINUTES or airing["title"] in UNRANKED:
            continue
        if airing["start"] >= 25 * 60:  # after 01:00 nobody is ranked (and the repeated hour is avoided)
            continue
        candidates.append(dict(airing, viewers=viewers_of(airing, date)))
    candidates.sort(key=lambda a: (-a["viewers"], a["channel"], a["start"]))
    # The night's most watched airing after midnight is always in: its start is printed past 24.
    chosen = [next(a for a in candidates if a["start"] >= 24 * 60)]
    seen = {chosen[0]["channel"]}
    for airing in candidates:
        if airing["channel"] not in seen:
            seen.add(airing["channel"])
            chosen.append(airing)
    for airing in candidates:
        if len(chosen) >= ROWS_PER_DAY:
            break
        if airing not in chosen:
            chosen.append(airing)

    rows, taken = [], set()
    for airing in chosen:
        key = (slug_date(date), airing["channel"], airing["start"])
        text, value = printed_viewers(airing["viewers"], key)
        while value in taken:  # two rows never tie: the ranking order is the figures' order
            value += 1000
            text = "{:,}".format(value).replace(",", ".")
        taken.add(value)
        _, universe = slot(airing["start"])
        share = 100 * value / (universe * TERRITORY.get(airing["channel"], 1.0))
        rows.append(dict(airing, shown=text, value=value, share=printed_share(min(share, 45.0), key)))
    rows.sort(key=lambda r: -r["value"])
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def slug(text):
    """`Cuéntame cómo pasó` -> `cuentame-como-paso`, as the site builds its programme URLs."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    out, dash = [], False
    for char in plain:
        if char.isalnum():
            out.append(char)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def esc(text):
    return html.escape(text, quote=True)


# --- page chrome -----------------------------------------------------------------------------------

STATIC = "https://static.formulatv.com"
SITE = "https://www.formulatv.com"

SECTIONS = [
    ("Noticias", "noticias", ["Última hora", "Televisión", "Series", "Cine", "Realities", "Plataformas",
                              "Música", "Eurovisión", "Internacional", "Entrevistas", "Reportajes"]),
    ("Audiencias", "audiencias", ["Audiencias de ayer", "Ranking semanal", "Ranking mensual", "Cadenas",
                                  "Temáticas", "Autonómicas", "Históricos", "Minuto de oro", "Récords"]),
    ("Series", "series", ["Estrenos", "Españolas", "Americanas", "Británicas", "Turcas", "Coreanas",
                          "Animación", "Calendario", "Renovadas", "Canceladas"]),
    ("Programas", "programas", ["Concursos", "Realities", "Talk shows", "Informativos", "Humor",
                                "Magacines", "Deportes", "Infantiles", "Cocina"]),
    ("Plataformas", "plataformas", ["Netflix", "Prime Video", "Disney+", "Max", "Movistar Plus+",
                                    "Atresplayer", "Mitele", "RTVE Play", "Filmin", "SkyShowtime", "Apple TV+"]),
    ("Programación", "programacion", ["Hoy", "Mañana", "Esta semana", "Cine en TV", "Deportes en TV",
                                      "TDT", "Autonómicas", "Parrilla"]),
    ("Personajes", "personajes", ["Presentadores", "Actores", "Actrices", "Concursantes", "Periodistas",
                                  "Cantantes", "Influencers"]),
    ("Foro", "foro", ["Televisión", "Series", "Realities", "Audiencias", "Eurovisión", "Off-topic"]),
]

HEADLINES = [
    "{t} firma su mejor dato de la temporada y roza el {s} de cuota",
    "{c} prepara cambios en su access prime time tras el último dato de {t}",
    "Así será la nueva temporada de {t}: fichajes, novedades y fecha de estreno",
    "{t} se despide con un emotivo final que reúne a {v} espectadores",
    "Las claves del éxito de {t}, líder de su franja en {c}",
    "{c} renueva {t} por una temporada más pese a su discreta audiencia",
    "El equipo de {t} responde a las críticas de los espectadores en redes",
    "{t} cambia de horario: {c} lo traslada a la noche del {d}",
    "Audiencias del {d}: {t} lidera y {c} cierra el día con un {s}",
    "Los espectadores se vuelcan con {t} en su entrega más comentada",
    "{c} estrena nueva imagen corporativa y renueva su continuidad",
    "Polémica en {t} por una decisión de la dirección del programa",
    "{t} bate su récord en redes sociales con más de {v} interacciones",
    "Entrevista: «En {t} hemos aprendido a no mirar la audiencia cada mañana»",
    "{c} apuesta por el cine español para plantar cara a {t}",
]

COMMENTS = [
    "Pues a mí {t} me parece lo mejor que hay ahora mismo en la tele, no entiendo las críticas.",
    "{c} debería cuidar más sus horarios, empiezan todo tardísimo y así no hay quien aguante.",
    "Increíble el dato de {t}. Quién lo iba a decir cuando lo estrenaron.",
    "Lo de {c} es de traca, cada semana cambian la programación sin avisar.",
    "Yo lo veo en diferido en la plataforma, esas audiencias no cuentan y somos muchísimos.",
    "{t} está ya muy quemado, necesita renovarse o acabará cayendo como todos.",
    "¿Alguien sabe si el minuto de oro fue para {t}? No aparece en la tabla.",
    "Buen dato para {c}, que falta le hacía después de un mes flojo.",
    "Las autonómicas siempre olvidadas en estos rankings, TV3 hace cifras muy buenas.",
    "Me quedo con {t}, aunque la competencia lo tiene difícil a esa hora.",
    "Mucho ruido en redes pero luego la cuota es la que es.",
    "Ojalá recuperen el formato de antes, con menos publicidad y más programa.",
]

USERS = ["televidente84", "Marta_G", "zapping_total", "seriéfilo", "LaTeleDeAntes", "pepe.m",
         "audienciasfan", "Nerea_BCN", "elmandoadistancia", "Iñaki_EH", "sofá_y_manta", "Raúl R.",
         "cuotadepantalla", "AnaTV", "el_de_siempre", "Lucía M.", "primetime_es", "jordi_tv3"]


def head(date, charset, rows):
    title = "Audiencias del %s" % long_date(date)
    leader = rows[0]
    description = ("Audiencias de televisión del %s: %s lidera con %s espectadores y un %s de cuota. "
                   "Consulta el ranking completo de programas, cadenas y temáticas."
                   % (long_date(date), leader["title"], leader["shown"], leader["share"]))
    url = "%s/audiencias/%s/" % (SITE, slug_date(date))
    out = ['<!DOCTYPE html>', '<html lang="es" class="no-js">', '<head>',
           '<meta charset="%s">' % charset,
           '<meta http-equiv="X-UA-Compatible" content="IE=edge">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>%s - FormulaTV</title>' % esc(title),
           '<meta name="description" content="%s">' % esc(description),
           '<meta name="keywords" content="audiencias, audiencias tv, share, cuota de pantalla, %s">'
           % esc(", ".join(r["title"] for r in rows[:8])),
           '<meta name="robots" content="index, follow, max-image-preview:large">',
           '<meta property="og:type" content="article">',
           '<meta property="og:site_name" content="FormulaTV">',
           '<meta property="og:title" content="%s">' % esc(title),
           '<meta property="og:description" content="%s">' % esc(description),
           '<meta property="og:url" content="%s">' % url,
           '<meta property="og:image" content="%s/images/audiencias/%s.jpg">' % (STATIC, slug_date(date)),
           '<meta name="twitter:card" content="summary_large_image">',
           '<meta name="twitter:site" content="@formulatv">',
           '<link rel="canonical" href="%s">' % url,
           '<link rel="preconnect" href="%s" crossorigin>' % STATIC,
           '<link rel="preconnect" href="https://securepubads.g.doubleclick.example">',
           '<link rel="dns-prefetch" href="https://www.googletagmanager.example">']
    for sheet in ("base", "cabecera", "audiencias", "tablas", "lateral", "comentarios", "pie"):
        out.append('<link rel="stylesheet" href="%s/css/%s.min.css?v=20261019" media="all">' % (STATIC, sheet))
    out.append('<link rel="icon" href="%s/favicon.ico" sizes="any">' % STATIC)
    out.append('<style>')
    for selector, body in CRITICAL_CSS:
        out.append("%s{%s}" % (selector, body))
    out.append('</style>')
    out.append('<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",'
               '"headline":"%s","datePublished":"%04d-%02d-%02dT09:31:00+02:00","author":{"@type":"Organization",'
               '"name":"FormulaTV"},"publisher":{"@type":"Organization","name":"FormulaTV","logo":{"@type":'
               '"ImageObject","url":"%s/images/logo.png"}},"mainEntityOfPage":"%s"}</script>'
               % ((esc(title),) + from_day_number(day_number(date) + 1) + (STATIC, url)))
    out.append(ADS_SCRIPT % {"day": slug_date(date)})
    out.append('<script async src="https://www.googletagmanager.example/gtag/js?id=G-FTV2026"></script>')
    out.append('</head>')
    return out


CRITICAL_CSS = [
    ("html,body", "margin:0;padding:0;font-family:'Roboto',Arial,Helvetica,sans-serif;color:#222;background:#f4f4f4"),
    ("a", "color:#c4161c;text-decoration:none"), ("a:hover", "text-decoration:underline"),
    ("#cabecera", "background:#c4161c;height:64px;position:sticky;top:0;z-index:100"),
    ("#cabecera .logo", "display:block;width:180px;height:40px;margin:12px 16px"),
    ("#menu", "display:flex;flex-wrap:wrap;list-style:none;margin:0;padding:0 16px;background:#222"),
    ("#menu>li", "position:relative;padding:10px 14px;color:#fff;font-weight:700;text-transform:uppercase"),
    ("#menu>li ul", "display:none;position:absolute;top:100%;left:0;background:#fff;min-width:200px"),
    ("#menu>li:hover ul", "display:block"),
    (".contenedor", "max-width:1200px;margin:0 auto;display:grid;grid-template-columns:1fr 320px;gap:24px"),
    (".publi", "text-align:center;margin:16px auto;min-height:90px;background:#eee"),
    (".publi-728", "width:728px;height:90px"), (".publi-300", "width:300px;min-height:600px"),
    ("table.audiencias", "width:100%;border-collapse:collapse;font-size:14px;background:#fff"),
    ("table.audiencias th", "background:#222;color:#fff;padding:8px;text-align:left"),
    ("table.audiencias td", "padding:6px 8px;border-bottom:1px solid #e2e2e2"),
    ("table.audiencias tr.par td", "background:#fafafa"),
    ("table.audiencias td.espectadores,table.audiencias td.cuota", "text-align:right;font-variant-numeric:tabular-nums"),
    ("table.audiencias td.cadena img", "vertical-align:middle;margin-right:4px"),
    ("table.audiencias tr.publi td", "text-align:center;background:#fffbe6"),
    ("table.cuotas", "width:100%;font-size:13px"), ("table.cuotas td", "padding:4px"),
    (".noticias-lista li", "display:grid;grid-template-columns:96px 1fr;gap:8px;margin-bottom:12px"),
    (".comentario", "border-top:1px solid #ddd;padding:12px 0"), (".comentario .autor", "font-weight:700"),
    ("#pie", "background:#222;color:#bbb;padding:32px 16px;margin-top:32px"), ("#pie a", "color:#ddd"),
    ("@media (max-width:900px)", ".contenedor{grid-template-columns:1fr}.publi-728{width:320px;height:100px}"),
]

ADS_SCRIPT = """<script>
window.googletag = window.googletag || {cmd: []};
window.ftvAds = {
  page: "audiencias/%(day)s", section: "audiencias", kw: ["audiencias", "share", "tv"],
  slots: [
    {id: "div-gpt-ad-top", path: "/1234567/ftv/audiencias/top", sizes: [[728, 90], [970, 250]]},
    {id: "div-gpt-ad-lateral1", path: "/1234567/ftv/audiencias/lateral1", sizes: [[300, 250], [300, 600]]},
    {id: "div-gpt-ad-lateral2", path: "/1234567/ftv/audiencias/lateral2", sizes: [[300, 250]]},
    {id: "div-gpt-ad-intext", path: "/1234567/ftv/audiencias/intext", sizes: [[300, 250], [640, 360]]},
    {id: "div-gpt-ad-pie", path: "/1234567/ftv/audiencias/pie", sizes: [[728, 90]]}
  ],
  // Lazy slots render their own markup: the parser must not take this for the page's table.
  placeholder: '<div class="publi-cargando"><span>Publicidad</span></div>',
  rowTemplate: '<tr class="publi"><td colspan="6">' + "{slot}" + '</td></tr>'
};
googletag.cmd.push(function () {
  window.ftvAds.slots.forEach(function (s) {
    if (document.getElementById(s.id) && s.sizes.length > 0) {
      googletag.defineSlot(s.path, s.sizes, s.id).addService(googletag.pubads());
    }
  });
  googletag.pubads().setTargeting("seccion", window.ftvAds.section);
  googletag.pubads().enableLazyLoad({fetchMarginPercent: 200, renderMarginPercent: 50});
  googletag.enableServices();
});
</script>"""


def header():
    out = ['<body class="audiencias dia">',
           '<!-- Google Tag Manager (noscript) --><noscript><iframe src="https://www.googletagmanager.example/ns.html?id=GTM-FTV" '
           'height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>',
           '<a class="saltar" href="#contenido">Saltar al contenido</a>',
           '<header id="cabecera">',
           '<a class="logo" href="%s/"><img src="%s/images/logo-formulatv.svg" alt="FormulaTV" width=180 height=40></a>'
           % (SITE, STATIC),
           '<form class="buscador" action="/buscar/" method="get"><input type="search" name="q" '
           'placeholder="Buscar series, programas, noticias..." aria-label="Buscar"><button type="submit">Buscar</button></form>',
           '<div class="usuario"><a href="/usuarios/entrar/">Entrar</a> | <a href="/usuarios/registro/">Regístrate</a></div>',
           '</header>', '<nav id="navegacion" aria-label="Principal">', '<ul id="menu">']
    for name, path, items in SECTIONS:
        out.append('<li class="menu-%s"><a href="/%s/">%s</a>' % (path, path, esc(name)))
        out.append('<ul>')
        for item in items:
            # The site leaves its menu items unclosed; HTML parsers close them.
            out.append('<li><a href="/%s/%s/">%s</a>' % (path, slug(item), esc(item)))
        out.append('</ul></li>')
    out += ['</ul>', '</nav>',
            '<div id="div-gpt-ad-top" class="publi publi-728"><script>googletag.cmd.push(function(){googletag.display("div-gpt-ad-top");});</script></div>']
    return out


def breadcrumb(date):
    return ['<ol class="migas" itemscope itemtype="https://schema.org/BreadcrumbList">',
            '<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="/"><span itemprop="name">Inicio</span></a><meta itemprop="position" content="1"></li>',
            '<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="/audiencias/"><span itemprop="name">Audiencias</span></a><meta itemprop="position" content="2"></li>',
            '<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><span itemprop="name">%s</span><meta itemprop="position" content="3"></li>' % esc(long_date(date).capitalize()),
            '</ol>']


def day_navigator(date):
    """Previous and next day, and the month as a calendar of links."""
    today = day_number(date)
    before, after = from_day_number(today - 1), from_day_number(today + 1)
    out = ['<div class="navegador-dias">',
           '<a class="anterior" rel="prev" href="/audiencias/%s/">&laquo; %s</a>' % (slug_date(before), esc(short_date(before))),
           '<a class="siguiente" rel="next" href="/audiencias/%s/">%s &raquo;</a>' % (slug_date(after), esc(short_date(after))),
           '<table class="calendario"><caption>%s %d</caption>' % (MONTHS[date[1] - 1].capitalize(), date[0]),
           '<tr><th>L</th><th>M</th><th>X</th><th>J</th><th>V</th><th>S</th><th>D</th></tr>']
    first = day_number((date[0], date[1], 1))
    cells = ['<td></td>'] * weekday((date[0], date[1], 1))
    for offset in range(calendar.monthrange(date[0], date[1])[1]):
        day = from_day_number(first + offset)
        mark = ' class="hoy"' if day == date else ''
        cells.append('<td%s><a href="/audiencias/%s/">%d</a></td>' % (mark, slug_date(day), day[2]))
    for start in range(0, len(cells), 7):
        out.append('<tr>' + ''.join(cells[start:start + 7]) + '</tr>')
    out += ['</table>', '</div>']
    return out


def cell_channel(row):
    name, channel_slug, _ = CHANNELS[row["channel"]]
    return ('<img src="%s/images/cadenas/16/%s.png" alt="" width="16" height="16" loading="lazy"> %s'
            % (STATIC, channel_slug, esc(name)))


def cell_title(row):
    return '<a href="/programas/%s/" title="Audiencias de %s">%s</a>' % (slug(row["title"]), esc(row["title"]), esc(row["title"]))


def cell_start(row):
    return '%s <span class="duracion">(%d min)</span>' % (clock(row["start"]), row["minutes"])


def ranking_table(date, rows, advert=False):
    out = ['<table class="audiencias" id="ranking-%s" summary="Programas más vistos del día">' % slug_date(date),
           '<thead>', '<tr><th class="pos">#</th><th>Programa</th><th>Cadena</th><th>Espectadores</th>'
           '<th>Cuota</th><th>Hora</th></tr>', '</thead>', '<tbody>']
    for row in rows:
        parity = "par" if row["rank"] % 2 == 0 else "impar"
        out.append('<tr class="%s" data-cadena="%s">' % (parity, CHANNELS[row["channel"]][1]))
        out.append('<td class="pos">%d</td>' % row["rank"])
        out.append('<td class="programa">%s</td>' % cell_title(row))
        out.append('<td class="cadena">%s</td>' % cell_channel(row))
        out.append('<td class="espectadores">%s</td>' % row["shown"])
        out.append('<td class="cuota">%s</td>' % row["share"])
        out.append('<td class="hora">%s</td>' % cell_start(row))
        out.append('</tr>')
        if advert and row["rank"] == ADVERT_AFTER_ROW:
            out.append('<tr class="publi"><td colspan="6"><div id="div-gpt-ad-intext" class="publi publi-intext">'
                       '<span class="etiqueta">Publicidad</span><script>googletag.cmd.push(function(){'
                       'googletag.display("div-gpt-ad-intext");});</script></div></td></tr>')
    out += ['</tbody>', '</table>']
    return out


def reordered_table(date, rows):
    """The same ranking after a redesign: channel before programme, the start before the figures."""
    out = ['<table class="audiencias" id="ranking-%s">' % slug_date(date),
           '<thead>', '<tr><th class="pos">#</th><th>Cadena</th><th>Programa</th><th>Hora</th>'
           '<th>Espectadores</th><th>Cuota</th></tr>', '</thead>', '<tbody>']
    for row in rows:
        out.append('<tr><td class="pos">%d</td><td class="cadena">%s</td><td class="programa">%s</td>'
                   '<td class="hora">%s</td><td class="espectadores">%s</td><td class="cuota">%s</td></tr>'
                   % (row["rank"], cell_channel(row), cell_title(row), cell_start(row), row["shown"], row["share"]))
    out += ['</tbody>', '</table>']
    return out


def ranking_blocks(date, rows):
    """The site's new layout: one block per programme, no table at all."""
    out = ['<div class="ranking" id="ranking-%s" role="list">' % slug_date(date)]
    for row in rows:
        out.append('<div class="fila" role="listitem" data-pos="%d">' % row["rank"])
        out.append('<span class="pos">%d</span>' % row["rank"])
        out.append('<div class="info"><span class="programa">%s</span><span class="cadena">%s</span></div>'
                   % (cell_title(row), cell_channel(row)))
        out.append('<div class="datos"><span class="espectadores">%s</span><span class="cuota">%s</span>'
                   '<span class="hora">%s</span></div>' % (row["shown"], row["share"], clock(row["start"])))
        out.append('</div>')
    out.append('</div>')
    return out


def channel_shares(date):
    """The day's share per channel (a second table the ranking selector must leave alone)."""
    national = sum(w for cid, (_, _, w) in CHANNELS.items() if cid not in TERRITORY)
    out = ['<h2 id="cadenas">Cuota de pantalla por cadenas</h2>',
           '<table class="cuotas">', '<tr><th>Cadena</th><th>Cuota del día</th><th>Variación</th></tr>']
    for channel_id, (name, channel_slug, weight) in CHANNELS.items():
        scope = 1.0 if channel_id not in TERRITORY else TERRITORY[channel_id] * 6
        share = 78.0 * weight / national / scope * (0.9 + 0.2 * unit("cuota", slug_date(date), channel_id))
        change = (unit("variacion", slug_date(date), channel_id) - 0.5) * 1.6
        out.append('<tr><td><a href="/cadenas/%s/">%s</a></td><td>%s%%</td><td class="%s">%+.1f</td></tr>'
                   % (channel_slug, esc(name), ("%.1f" % share).replace(".", ","),
                      "sube" if change >= 0 else "baja", change))
    out.append('</table>')
    return out


def fill(template, date, row, other):
    return template.format(t=row["title"], c=CHANNELS[other["channel"]][0], s=row["share"],
                           v=row["shown"], d=short_date(date))


def analysis(date, rows):
    """The newsroom's text about the day, quoting the ranking."""
    leader, second, third = rows[0], rows[1], rows[2]
    name = lambda r: CHANNELS[r["channel"]][0]
    out = ['<article class="analisis" id="contenido">',
           '<h1>Audiencias del %s</h1>' % esc(long_date(date)),
           '<p class="entradilla">%s se impone en la jornada del %s con %s espectadores y un %s de cuota de '
           'pantalla. Le siguen %s (%s) y %s (%s).' % (esc(leader["title"]), esc(long_date(date)), leader["shown"],
                                                     leader["share"], esc(second["title"]), esc(name(second)),
                                                     esc(third["title"]), esc(name(third)))]
    for index, row in enumerate(rows[3:15]):
        out.append('<p>En %s, <strong>%s</strong> congregó a %s espectadores (%s) a partir de las %s. %s'
                   % (esc(name(row)), esc(row["title"]), row["shown"], row["share"], clock(row["start"]),
                      esc(pick(ANALYSIS_TAILS, slug_date(date), index))))
    out += ['<div id="div-gpt-ad-intext2" class="publi publi-intext"></div>',
            '<p class="nota">Datos de audiencia: espectadores medios y cuota de pantalla del programa en su '
            'emisión lineal. Las cadenas autonómicas, en su ámbito de emisión. Los datos de consumo en diferido '
            'y en plataformas no están incluidos.</p>', '</article>']
    return out


ANALYSIS_TAILS = [
    "Mejora respecto a la semana anterior y se consolida en su franja.",
    "Pierde algo de fuelle frente a su competencia directa, aunque mantiene el tipo.",
    "Es su mejor dato en lo que va de mes.",
    "Repite prácticamente las cifras de su última emisión.",
    "La cadena celebra el dato en redes sociales.",
    "Se queda por debajo de la media de la cadena en el día.",
    "Crece medio punto y sigue al alza desde su estreno.",
    "El minuto de oro de la cadena llegó durante su emisión.",
]


def news_list(date, rows, count, title, css):
    out = ['<section class="%s">' % css, '<h3>%s</h3>' % esc(title), '<ul class="noticias-lista">']
    for index in range(count):
        row = rows[int(unit("noticia", css, slug_date(date), index) * len(rows))]
        other = rows[int(unit("otra", css, slug_date(date), index) * len(rows))]
        headline = fill(pick(HEADLINES, css, slug_date(date), index), date, row, other)
        number = 1_240_000 + int(unit("id", css, slug_date(date), index) * 90_000)
        minutes = int(unit("hace", css, slug_date(date), index) * 23 * 60)
        out.append('<li><a href="/noticias/%d/%s/"><img src="%s/images/noticias/%d-96x64.jpg" alt="" width="96" '
                   'height="64" loading="lazy"></a><div><a href="/noticias/%d/%s/">%s</a>'
                   '<time datetime="%04d-%02d-%02dT%02d:%02d">%02d:%02d</time></div></li>'
                   % (number, slug(headline)[:80], STATIC, number, number, slug(headline)[:80], esc(headline),
                      date[0], date[1], date[2], minutes // 60, minutes % 60, minutes // 60, minutes % 60))
    out += ['</ul>', '</section>']
    return out


def comments(date, rows, count):
    out = ['<section id="comentarios">', '<h2>%d comentarios</h2>' % count,
           '<form class="comentar" action="/comentarios/enviar/" method="post"><textarea name="texto" rows="4" '
           'placeholder="Escribe tu comentario"></textarea><input type="hidden" name="pagina" value="audiencias-%s">'
           '<button>Comentar</button></form>' % slug_date(date)]
    for index in range(count):
        row = rows[int(unit("comentario", slug_date(date), index) * len(rows))]
        text = fill(pick(COMMENTS, "texto", slug_date(date), index), date, row, row)
        minutes = 9 * 60 + int(unit("hora", slug_date(date), index) * 14 * 60)
        likes = int(unit("votos", slug_date(date), index) * 60)
        # Comments are written as site users write them: a paragraph left open, a line break.
        out.append('<div class="comentario" id="c%d"><span class="autor">%s</span> <span class="fecha">%02d:%02d</span>'
                   '<p>%s<br>%s</div>' % (index + 1, esc(pick(USERS, "usuario", slug_date(date), index)),
                                           minutes // 60, minutes % 60, esc(text),
                                           '<a class="votar" href="#c%d">&#9650; %d</a>' % (index + 1, likes)))
    out.append('</section>')
    return out


def sidebar(date, rows, airings):
    out = ['<aside id="lateral">',
           '<div id="div-gpt-ad-lateral1" class="publi publi-300"><script>googletag.cmd.push(function(){'
           'googletag.display("div-gpt-ad-lateral1");});</script></div>']
    out += news_list(date, rows, 10, "Lo más leído", "mas-leido")
    out += tonight(date, airings)
    out.append('<section class="semana"><h3>Audiencias de la semana</h3><ul>')
    for back in range(1, 8):
        day = from_day_number(day_number(date) - back)
        out.append('<li><a href="/audiencias/%s/">Audiencias del %s</a></li>' % (slug_date(day), esc(long_date(day))))
    out.append('</ul></section>')
    out += ['<div class="boletin"><h3>Boletín de audiencias</h3><p>Recibe cada mañana los datos del día anterior.',
            '<form action="/boletin/alta/" method="post"><input type="email" name="correo" placeholder="Tu correo">'
            '<label><input type="checkbox" name="acepto" value=1> Acepto la política de privacidad</label>'
            '<button>Suscribirme</button></form></div>',
            '<div id="div-gpt-ad-lateral2" class="publi publi-300"></div>']
    out += news_list(date, rows, 30, "Últimas noticias", "ultimas")
    out.append('</aside>')
    return out


def footer(date):
    out = ['<footer id="pie">', '<div class="columnas">']
    for name, path, items in SECTIONS:
        out.append('<div class="columna"><h4>%s</h4><ul>' % esc(name))
        out += ['<li><a href="/%s/%s/">%s</a></li>' % (path, slug(item), esc(item)) for item in items]
        out.append('</ul></div>')
    out += ['</div>',
            '<p class="legal">&copy; 2004-%d FormulaTV &mdash; <a href="/aviso-legal/">Aviso legal</a> &middot; '
            '<a href="/privacidad/">Política de privacidad</a> &middot; <a href="/cookies/">Cookies</a> &middot; '
            '<a href="/contacto/">Contacto</a></p>' % date[0],
            '</footer>',
            '<div id="consentimiento" hidden><p>Utilizamos cookies propias y de terceros para fines analíticos y para '
            'mostrarte publicidad personalizada. <button data-accion="aceptar">Aceptar</button> '
            '<button data-accion="configurar">Configurar</button></div>',
            '<script>',
            '(function(){var d=document,c=d.getElementById("consentimiento");if(!/ftv_cmp=/.test(d.cookie)){c.hidden=false;}',
            'c.addEventListener("click",function(e){var a=e.target.getAttribute("data-accion");if(a==="aceptar"){',
            'd.cookie="ftv_cmp=1; max-age=31536000; path=/";c.hidden=true;}});',
            'var filas=d.querySelectorAll("table.audiencias tbody tr");for(var i=0;i<filas.length;i++){',
            'if(i<3&&filas[i].className.indexOf("publi")<0){filas[i].className+=" podio";}}',
            'if(window.innerWidth<600&&filas.length>0){d.body.className+=" movil";}})();',
            '</script>',
            '<script src="%s/js/comun.min.js?v=20261019" defer></script>' % STATIC,
            '<script src="%s/js/audiencias.min.js?v=20261019" defer></script>' % STATIC,
            '</body>', '</html>']
    return out


def icon_sprite():
    """The inline SVG icons the site ships at the top of every page."""
    out = ['<svg xmlns="http://www.w3.org/2000/svg" style="display:none" aria-hidden="true">']
    for index, name in enumerate(ICONS):
        points = " ".join("%s%.2f %.2f" % ("M" if step == 0 else "L", 12 + 10 * unit(name, step, "x") - 5,
                                           12 + 10 * unit(name, step, "y") - 5) for step in range(14))
        out.append('<symbol id="icono-%s" viewBox="0 0 24 24"><title>%s</title><path fill="currentColor" d="%s Z"/>'
                   '<circle cx="%d" cy="%d" r="%d"/></symbol>' % (name, name, points, 6 + index % 12, 6 + index % 9, 1 + index % 3))
    out.append('</svg>')
    return out


ICONS = ["buscar", "menu", "cerrar", "usuario", "sube", "baja", "igual", "tv", "mando", "calendario",
         "reloj", "comentario", "compartir", "facebook", "x", "instagram", "tiktok", "youtube", "whatsapp",
         "telegram", "correo", "estrella", "flecha-izq", "flecha-der", "play", "rss"]


def time_bands(date, rows):
    """The day's leader per time band (a table of its own, not the ranking)."""
    out = ['<h2 id="franjas">Ganadores por franjas</h2>', '<table class="franjas">',
           '<tr><th>Franja</th><th>Cadena</th><th>Cuota</th></tr>']
    for index, band in enumerate(("Mañana", "Sobremesa", "Tarde", "Prime time", "Late night", "Total día")):
        row = rows[int(unit("franja", slug_date(date), index) * 6)]
        out.append('<tr><td>%s</td><td>%s</td><td>%s</td></tr>' % (band, esc(CHANNELS[row["channel"]][0]), row["share"]))
    out.append('</table>')
    return out


def tonight(date, airings):
    """The sidebar's "Qué ver esta noche": each channel's prime time from the guide."""
    out = ['<section class="esta-noche"><h3>Qué ver esta noche</h3>', '<dl>']
    for channel_id, (name, channel_slug, _) in CHANNELS.items():
        evening = [a for a in airings if a["channel"] == channel_id and 21 * 60 <= a["start"] < 24 * 60][:3]
        out.append('<dt><a href="/programacion/%s/"><svg class="icono"><use href="#icono-tv"></use></svg> %s</a></dt>'
                   % (channel_slug, esc(name)))
        for airing in evening:
            out.append('<dd><time>%s</time> <a href="/programas/%s/">%s</a> <span class="genero">%s</span></dd>'
                       % (clock(airing["start"]), slug(airing["title"]), esc(airing["title"]), esc(airing["category"])))
    out += ['</dl>', '<a class="mas" href="/programacion/">Toda la programación &raquo;</a>', '</section>']
    return out


# --- pages -----------------------------------------------------------------------------------------

def page(date, rows, airings, charset="utf-8", layout="table"):
    """One day's page as bytes in its charset. `layout` is `table` (the recorded site), `advert`
    (an ad row inside the table), `reordered` (columns moved) or `blocks` (no table any more)."""
    if layout == "blocks":
        ranking_markup = ranking_blocks(date, rows)
    elif layout == "reordered":
        ranking_markup = reordered_table(date, rows)
    else:
        ranking_markup = ranking_table(date, rows, advert=(layout == "advert"))
    article = analysis(date, rows)
    lines = head(date, charset, rows) + header()[:1] + icon_sprite() + header()[1:] + breadcrumb(date)
    lines += ['<div class="contenedor">', '<main>']
    lines += article[:3]  # the article's opening and its lead paragraph, then the ranking
    lines += day_navigator(date)
    lines += ['<h2 id="ranking">Ranking de programas más vistos</h2>'] + ranking_markup
    lines += article[3:]
    lines += time_bands(date, rows) + channel_shares(date)
    lines += news_list(date, rows, 16, "Noticias relacionadas", "relacionadas")
    lines += comments(date, rows, 36)
    lines += ['</main>'] + sidebar(date, rows, airings) + ['</div>'] + footer(date)
    text = "\n".join(lines) + "\n"
    return text.encode(charset, errors="xmlcharrefreplace")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    fixtures = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--guide", default=os.path.join(fixtures, "xmltv", "sample.xml"))
    parser.add_argument("--out", default=fixtures, help="the Fixtures folder to write into")
    args = parser.parse_args()

    airings = load_airings(args.guide)
    first, guide_first = day_number(FIRST_DAY), day_number(GUIDE_FIRST_DAY)
    print("%-40s %-10s %5s %8s  %s" % ("file", "charset", "rows", "bytes", "note"))
    total = 0
    for offset in range(DAYS):
        date = from_day_number(first + offset)
        # Days before the guide's week measure the same line-up one week earlier.
        guide_day = from_day_number(guide_first + (day_number(date) - guide_first) % 7)
        rows = ranking(airings[guide_day], date)
        charset, layout, note = "utf-8", "table", ""
        if date == LATIN1_DAY:
            charset, note = "iso-8859-1", "Latin-1 page"
        if date == ADVERT_DAY:
            layout, note = "advert", "advert row after rank %d" % ADVERT_AFTER_ROW
        data = page(date, rows, airings[guide_day], charset, layout)
        name = os.path.join("formulatv", "audiencias", slug_date(date))
        write(os.path.join(args.out, name), data)
        total += len(data)
        print("%-40s %-10s %5d %8d  %s" % (name, charset, len(rows), len(data), note))
        if date == MOVED_DAY or date == REORDERED_DAY:
            layout = "blocks" if date == MOVED_DAY else "reordered"
            moved = page(date, rows, airings[guide_day], "utf-8", layout)
            name = os.path.join("formulatv-moved", "audiencias", slug_date(date))
            write(os.path.join(args.out, name), moved)
            print("%-40s %-10s %5d %8d  %s" % (name, "utf-8", len(rows), len(moved),
                                              "new layout: div.ranking > div.fila, no table" if layout == "blocks"
                                              else "columns reordered: td[4] is the start time"))
    print("%d days, %d bytes (%.1f KB a page on average)" % (DAYS, total, total / DAYS / 1024))


if __name__ == "__main__":
    main()
