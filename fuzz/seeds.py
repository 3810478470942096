#!/usr/bin/env python3
"""Assembles a fuzz target's seed corpus and libFuzzer dictionary from Fixtures/ at run time.

    fuzz/seeds.py TARGET CORPUS_DIR DICT_FILE

The fixtures are real responses, often tens of kilobytes; libFuzzer mutates small inputs far
faster, so each seed is cut down while staying well-formed (JSON lists to their first items,
XMLTV and HTML to their first channels, programmes or rows). Nothing here is committed: the
corpus and the dictionary are rebuilt from Fixtures/ on every run. The dictionary lists the
format's tokens and the names (JSON keys, XML tags and attributes, YAML keys) found in the seeds.
"""
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Fixtures"
SEPARATOR = b"\n--fuzz-part--\n"  # FuzzParts.separator in fuzz/Support/FuzzSupport.swift


def shrink(value, keep):
    """The JSON value with every list cut to its first `keep` items."""
    if isinstance(value, list):
        return [shrink(item, keep) for item in value[:keep]]
    if isinstance(value, dict):
        return {key: shrink(item, keep) for key, item in value.items()}
    return value


def json_bytes(value):
    # The snapshot layout (docs/snapshot.md), which ProgrammeJSONReader reads; any JSON for the rest.
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def shrunk_json(path, keep=3):
    return json_bytes(shrink(json.loads(path.read_bytes()), keep))


def json_keys(value, keys):
    if isinstance(value, list):
        for item in value:
            json_keys(item, keys)
    elif isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            json_keys(item, keys)
    return keys


def first_blocks(text, tag, count):
    return re.findall(rf"<{tag}[\s>].*?</{tag}>", text, flags=re.S)[:count]


def cut_rows(page, keep):
    """An HTML page with only its first `keep` table rows (the bytes as they are: any encoding)."""
    rows = list(re.finditer(rb"<tr[\s>].*?</tr>", page, flags=re.S | re.I))
    for row in reversed(rows[keep:]):
        page = page[: row.start()] + page[row.end():]
    return page


def xmltv_seeds():
    seeds = [path.read_bytes() for path in sorted((FIXTURES / "xmltv").glob("*")) if path.name != "sample.xml"]
    # Hostile documents: entity amplification in attributes, billion laughs, a loop, an external entity.
    seeds += [path.read_bytes() for path in sorted((FIXTURES / "fuzz" / "xmltv").glob("*"))]
    sample = (FIXTURES / "xmltv" / "sample.xml").read_text(encoding="utf-8")
    head = sample[: sample.index("<channel")]
    small = head + "".join(first_blocks(sample, "channel", 3)) + "".join(first_blocks(sample, "programme", 8)) + "</tv>\n"
    seeds.append(small.encode())
    seeds.append(gzip.compress(small.encode(), mtime=0))
    return seeds


def miguiatv_seeds():
    folder = FIXTURES / "miguiatv" / "es_ES"
    paths = [folder / "channels.json", folder / "channel" / "now.json"] + sorted((folder / "channel").glob("[0-9]*.json"))[:4]
    return [shrunk_json(path) for path in paths]


def parts(*paths, keep=3):
    return SEPARATOR.join(shrunk_json(path, keep).rstrip(b"\n") for path in paths)


def tmdb_seeds():
    cases = FIXTURES / "tmdb-cases"
    configuration = cases / "configuration"
    movie_search = cases / "search" / "movie?language=es-ES&query=Titanic&year=1997"
    series_search = cases / "search" / "tv?first_air_date_year=1989&language=es-ES&query=Los%20Simpson"
    seeds = [parts(configuration, movie_search, details) for details in sorted((cases / "movie").glob("*"))]
    seeds += [parts(configuration, series_search, details) for details in sorted((cases / "tv").glob("*"))]
    recorded = FIXTURES / "tmdb"
    seeds += [parts(configuration, movie_search, details) for details in sorted((recorded / "movie").glob("*"))[:3]]
    seeds += [parts(configuration, series_search, details) for details in sorted((recorded / "tv").glob("*"))[:3]]
    return seeds


def thetvdb_seeds():
    cases = FIXTURES / "thetvdb-cases" / "replay"
    seeds = [parts(cases / "login", cases / "search?query=Hermanos&type=series&year=2024",
                   cases / "series" / "80200" / "extended?meta=translations")]
    recorded = FIXTURES / "thetvdb"
    searches = sorted(recorded.glob("search?*"))[:3]
    records = sorted((recorded / "series").glob("*/extended*"))[:3]
    seeds += [parts(recorded / "login", search, record) for search, record in zip(searches, records)]
    return seeds


def scrape_html_seeds():
    cases = FIXTURES / "scrape-cases"
    seeds = [path.read_bytes() for path in sorted(cases.glob("*/*")) + sorted(cases.glob("guia/*/*")) if path.is_file()]
    pages = sorted((FIXTURES / "formulatv" / "audiencias").glob("*"))[:2] + sorted((FIXTURES / "formulatv-moved").glob("*/*"))
    seeds += [ranking_only(page.read_bytes()) for page in pages]
    return seeds


def ranking_only(page):
    """A formulatv page cut to its <head> and its ranking table's first rows: the rest is the site's
    navigation, 80 kB of it, which the recipe never reads."""
    table = re.search(rb"<table class=\"audiencias\".*?</table>", page, flags=re.S)
    head = page[: page.find(b"<body")]
    body = cut_rows(table.group(0), 6) if table else page[page.find(b"<body"):][:4096]
    return head + b"<body>\n" + body + b"\n</body></html>\n"


def json_feed_seeds():
    return [shrunk_json(path, 4) for path in sorted((FIXTURES / "json-feed").rglob("*.json"))]


def config_seeds():
    seeds = [(ROOT / "providers.yaml").read_bytes()]
    for doc in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        if doc.exists():
            seeds += [block.encode() for block in re.findall(r"```ya?ml\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)]
    return seeds


def golden_programmes():
    golden = json.loads((FIXTURES / "golden" / "offline-default.json").read_bytes())
    # The richest programmes first: they carry every optional field the reader knows.
    richest = sorted(golden["programmes"], key=lambda programme: -len(json.dumps(programme)))
    return golden, richest


def snapshot_seeds():
    golden, richest = golden_programmes()
    small = shrink(golden, 3)
    small["works"] = dict(list(small["works"].items())[:3])
    seeds = [json_bytes(small)]
    small["programmes"] = richest[:6]
    seeds.append(json_bytes(small))
    seeds.append(json_bytes(richest[:4]))
    seeds.append(json_bytes(golden["programmes"][:3]))
    return seeds


def icalendar_seeds():
    _, richest = golden_programmes()
    seeds = []
    for programme in richest[:6]:
        texts = ["tvguide: " + programme["channel"], programme["channel"] + "/" + programme["start"], programme["title"],
                 programme["channel"], programme.get("description", ""),
                 "|".join(category["value"] for category in programme.get("categories", []))]
        seeds.append(SEPARATOR.join(text.encode() for text in texts))
    tricky = ["a,b;c\\d", "uid", "Línea 1\r\nLínea 2\rx\ny", "é" * 40, "\t\x01\x7f" + "日本" * 30, "x|y,z"]
    seeds.append(SEPARATOR.join(text.encode() for text in tricky))
    return seeds


def openapi():
    import yaml  # PyYAML, as bench/ uses
    return yaml.safe_load((ROOT / "Sources" / "GuideServer" / "Resources" / "openapi.yaml").read_text())


def parameter_values(parameter, schemas):
    """Values worth trying for a parameter: its enumeration (the first few), examples, bounds, default."""
    schema = parameter.get("schema", {})
    if "$ref" in schema:
        schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
    values = [str(value) for value in (schema.get("enum") or [])[:4] + schema.get("examples", [])]
    values += [str(schema[key]) for key in ("minimum", "maximum", "default") if key in schema]
    if schema.get("format") == "date":
        values.append("2026-10-21")
    return values or ["x"]


def router_requests():
    """A request target per operation, each with its parameters set, then one per parameter value."""
    document = openapi()
    components = document["components"]
    golden, _ = golden_programmes()
    channel = golden["programmes"][0]["channel"]
    programme = channel + "@" + golden["programmes"][0]["start"].replace("-", "").replace(":", "")
    targets = []
    for path, item in document["paths"].items():
        parameters = [components["parameters"][p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p
                      for p in item["get"].get("parameters", [])]
        concrete = path.replace("{id}", programme if path.startswith("/programme") else channel).replace("{name}", "guide.css")
        query = [(p["name"], parameter_values(p, components["schemas"])) for p in parameters if p["in"] == "query"]
        targets.append(concrete + ("?" + "&".join(f"{name}={values[0]}" for name, values in query) if query else ""))
        targets += [f"{concrete}?{name}={value}" for name, values in query for value in values[1:3]]
    return targets


def router_dictionary(seeds):
    document = openapi()
    tokens = ["?", "&", "=", "%40", "%", "%00", "%C3%B1", "/", ",", "T21:00:00", "Z", "+02:00", "2026-10-21", "@20261021T190000Z"]
    for path, item in document["paths"].items():
        tokens += [segment for segment in path.split("/") if segment and not segment.startswith("{")]
        for parameter in item["get"].get("parameters", []):
            name = parameter.get("name") or parameter["$ref"].rsplit("/", 1)[1]
            tokens.append(name + "=")
    tokens += document["components"]["schemas"]["TimeZoneName"]["enum"][::40]
    return tokens


JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '""', "null", "true", "false", "0", "-1", "1e308", "0.5", '"\\u0000"', '"\\ud800"']
XML_TOKENS = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!DOCTYPE tv SYSTEM \"xmltv.dtd\">", "<![CDATA[", "]]>", "&amp;",
              "&#x0;", "&#1114111;", "<!ENTITY a \"aaaa\">", "&a;", " +0200", " -0130", "20261025023000", "encoding=\"ISO-8859-1\""]
HTML_TOKENS = ["<meta charset=\"iso-8859-1\">", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">",
               "<table class=\"audiencias\">", "<tr>", "<td>", "</td>", "<td colspan=\"6\">", "&nbsp;", "<script>",
               "<ul class=\"parrilla\">", "<li>", "<span class=\"hora\">", "<span class=\"fin\">", "25:30", "2.526.000", "2,1 M",
               "1,9 millones", "850 mil", "12,5%", "2º"]
YAML_TOKENS = [": ", "- ", "{ ", " }", "[", "]", "&a ", "*a", "<<: ", "${", "${X:-y}", "${TMDB_API_KEY}", "|\n", ">\n", "---\n",
               "!!str ", "!!binary ", "? ", "\"\\u0000\"", "1d", "2h", "10s", "auto", "~", "null"]


def json_dictionary(seeds):
    keys = set()
    for seed in seeds:
        for piece in seed.split(SEPARATOR):
            try:
                json_keys(json.loads(piece), keys)
            except ValueError:
                pass
    return JSON_TOKENS + [f'"{key}"' for key in sorted(keys)]


def xml_dictionary(seeds):
    names = set()
    for seed in seeds:
        names.update(name.decode("latin-1") for name in re.findall(rb"<([A-Za-z][\w-]*)", seed))
        names.update(name.decode("latin-1") for name in re.findall(rb"\s([A-Za-z][\w-]*)=\"", seed))
    return XML_TOKENS + [f"<{name}" for name in sorted(names)] + [f"</{name}>" for name in sorted(names)] + \
        [f" {name}=\"" for name in sorted(names)]


def yaml_dictionary(seeds):
    keys = set()
    for seed in seeds:
        keys.update(re.findall(r"^\s*-?\s*([a-z_]+):", seed.decode("utf-8", "replace"), flags=re.M))
    return YAML_TOKENS + [f"{key}: " for key in sorted(keys)]


TARGETS = {
    "xmltv": (xmltv_seeds, xml_dictionary),
    "miguiatv": (miguiatv_seeds, json_dictionary),
    "tmdb": (tmdb_seeds, json_dictionary),
    "thetvdb": (thetvdb_seeds, json_dictionary),
    "scrape-html": (scrape_html_seeds, lambda seeds: HTML_TOKENS + xml_dictionary(seeds)[len(XML_TOKENS):]),
    "json-feed": (json_feed_seeds, json_dictionary),
    "config": (config_seeds, yaml_dictionary),
    "snapshot": (snapshot_seeds, json_dictionary),
    "router": (lambda: [target.encode() for target in router_requests()], router_dictionary),
    "icalendar": (icalendar_seeds, lambda seeds: ["\\", ";", ",", "\r\n", "\r", "\n", "\t", "|", "\x7f", "é", "日", "😀",
                                                   SEPARATOR.decode()]),
}


def dictionary_line(index, token):
    escaped = "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else
                      "".join(f"\\x{byte:02x}" for byte in c.encode()) for c in token)
    return f'token{index}="{escaped}"'


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: seeds.py {{{'|'.join(TARGETS)}}} CORPUS_DIR DICT_FILE")
    target, corpus, dictionary = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    make_seeds, make_dictionary = TARGETS[target]
    seeds = make_seeds()
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        (corpus / ("seed-" + hashlib.sha1(seed).hexdigest())).write_bytes(seed)
    tokens = list(dict.fromkeys(token for token in make_dictionary(seeds) if token))
    dictionary.write_text("".join(dictionary_line(index, token) + "\n" for index, token in enumerate(tokens)))
    print(f"{target}: {len(seeds)} seeds, largest {max(map(len, seeds))} bytes, {len(tokens)} dictionary tokens")


if __name__ == "__main__":
    main()
