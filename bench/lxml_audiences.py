#!/usr/bin/env python3
"""The peer of tvguide's scraper in bench/audiences.sh: Python's lxml.html + XPath doing the same
extraction on the same pages, so bench/run.sh can print the two throughputs side by side.

For every page of a folder (by default the recorded formulatv fortnight, Fixtures/formulatv/audiencias)
it does what the `type: scrape` audience provider does with the formulatv recipe of providers.yaml:
find the charset (`<meta charset>` in the first 1024 bytes, else UTF-8), parse with libxml2's HTML
parser in recovery mode, select the rows, evaluate each field's XPath relative to its row, collapse
whitespace, apply the field's regex, parse Spanish numbers, percentages and times, skip advert rows
(a cell count other than the page's usual one) and empty rows, fail on a row whose required field
does not parse, and map the channel name to its canonical id. The pages are read into memory first:
the figure is parse + extraction, not disk.

    python3 -m venv bench/.work/venv && bench/.work/venv/bin/pip install lxml
    bench/.work/venv/bin/python bench/lxml_audiences.py [FOLDER] [--passes 30] [--json] [--dump FILE]

Prints one summary line per figure; `--json` prints one JSON object instead (MB are 10^6 bytes).
`--dump FILE` writes every extracted record as a JSON line, to compare with tvguide's own output.
"""

import argparse
import json
import os
import re
import statistics
import sys
import time

try:
    import lxml
    import lxml.html
    from lxml import etree
except ImportError:
    sys.exit("lxml is missing: python3 -m venv bench/.work/venv && bench/.work/venv/bin/pip install lxml, "
             "then run this script with bench/.work/venv/bin/python")

# The formulatv recipe, as providers.yaml declares it.
RECIPE = {
    "rows": "//table[@class='audiencias']//tr[td]",
    "fields": {
        "rank": {"xpath": "td[1]", "parse": "integer"},
        "title": {"xpath": "td[2]", "parse": "text"},
        "channel": {"xpath": "td[3]", "parse": "text"},
        "viewers": {"xpath": "td[4]", "parse": "number"},
        "share": {"xpath": "td[5]", "parse": "percent"},
        "start": {"xpath": "td[6]", "regex": r"(\d{1,2}:\d{2})", "parse": "time"},
    },
    "required": ["title", "channel", "viewers"],
}

# Channel names as the site writes them (and their aliases) -> canonical ids, matched without case.
CHANNEL_MAP = {
    "la 1": "La1.es", "tve1": "La1.es", "la 2": "La2.es", "antena 3": "Antena3.es", "cuatro": "Cuatro.es",
    "telecinco": "Telecinco.es", "lasexta": "LaSexta.es", "24h": "24h.es", "clan": "Clan.es",
    "teledeporte": "Teledeporte.es", "neox": "Neox.es", "nova": "Nova.es", "mega": "Mega.es",
    "atreseries": "Atreseries.es", "fdf": "FDF.es", "energy": "Energy.es", "divinity": "Divinity.es",
    "boing": "Boing.es", "be mad": "BeMad.es", "dmax": "DMAX.es", "paramount network": "ParamountNetwork.es",
    "trece": "Trece.es", "dkiss": "DKiss.es", "tv3": "TV3.es", "etb 1": "ETB1.es", "etb1": "ETB1.es",
}


class Malformed(Exception):
    """The page's layout no longer matches the recipe."""


SPACES = re.compile(r"\s+")
META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?\s*(millones|millón|mill\.?|m|mil|k)?$", re.IGNORECASE)
PERCENT = re.compile(r"^(\d+)(?:[.,](\d+))?\s*%?$")
TIME = re.compile(r"^(\d{1,2})[:.h](\d{2})$")


def parse_integer(text):
    if not re.fullmatch(r"\d+", text):
        raise ValueError("is not an integer")
    return int(text)


def parse_number(text):
    """`1.234.000`, `1.234`, `2,1 M`, `2,1M`, `2,1 millones`, `850 mil`, `850.000`."""
    match = NUMBER.match(text.replace("\u00a0", " "))
    if not match:
        raise ValueError("is not a number")
    whole, fraction, unit = match.group(1), match.group(2), (match.group(3) or "").lower()
    value = float(whole.replace(".", "") + ("." + fraction if fraction else ""))
    if unit in ("m", "millones", "millón", "mill", "mill."):
        value *= 1_000_000
    elif unit in ("mil", "k"):
        value *= 1_000
    return int(round(value))


def parse_percent(text):
    match = PERCENT.match(text.replace("\u00a0", " "))
    if not match:
        raise ValueError("is not a percentage")
    return float(match.group(1) + "." + (match.group(2) or "0"))


def parse_time(text):
    """Minutes after midnight; `25:30` is 01:30 of the next day (1530)."""
    match = TIME.match(text)
    if not match or int(match.group(2)) > 59:
        raise ValueError("is not a time")
    return int(match.group(1)) * 60 + int(match.group(2))


PARSERS = {"text": lambda text: text, "integer": parse_integer, "number": parse_number,
           "percent": parse_percent, "time": parse_time}


class Scraper:
    """The recipe compiled once: XPath objects, regexes and one HTML parser per charset."""

    def __init__(self, recipe):
        self.rows = etree.XPath(recipe["rows"])
        self.cells = etree.XPath("count(td)")
        self.fields = []
        for name, spec in recipe["fields"].items():
            regex = re.compile(spec["regex"]) if "regex" in spec else None
            self.fields.append((name, spec, etree.XPath("string(%s)" % spec["xpath"]), regex, PARSERS[spec["parse"]]))
        self.required = set(recipe["required"])
        self.parsers = {}

    def parser(self, data):
        match = META_CHARSET.search(data[:1024])
        charset = match.group(1).decode("ascii").lower() if match else "utf-8"
        if charset not in self.parsers:
            self.parsers[charset] = lxml.html.HTMLParser(encoding=charset, recover=True, no_network=True)
        return self.parsers[charset]

    def page(self, name, data):
        """(records, advert rows skipped) of one page; `Malformed` when the layout changed."""
        document = lxml.html.document_fromstring(data, parser=self.parser(data))
        rows = self.rows(document)
        if not rows:
            raise Malformed("%s: no rows match %s" % (name, RECIPE["rows"]))
        counts = [int(self.cells(row)) for row in rows]
        usual = statistics.mode(counts)
        records, adverts = [], 0
        for row, count in zip(rows, counts):
            if count != usual:
                adverts += 1
                continue
            record, problems, empty = {}, [], True
            for field, spec, xpath, regex, parse in self.fields:
                text = SPACES.sub(" ", xpath(row)).strip()
                if text:
                    empty = False
                if regex is not None:
                    found = regex.search(text)
                    text = (found.group(1) if found.groups() else found.group(0)) if found else ""
                try:
                    if not text:
                        raise ValueError("is empty")
                    record[field] = parse(text)
                except ValueError as error:
                    if field in self.required:
                        problems.append("field '%s' (xpath %s, parse %s): '%s' %s"
                                        % (field, spec["xpath"], spec["parse"], text, error))
            if empty:
                continue
            if problems:
                raise Malformed("%s: %s" % (name, "; ".join(problems)))
            channel = CHANNEL_MAP.get(record["channel"].lower())
            if channel is None:
                raise Malformed("%s: unknown channel '%s'" % (name, record["channel"]))
            record["channel"] = channel
            records.append(record)
        return records, adverts


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="lxml.html + XPath extraction of the audience pages")
    parser.add_argument("folder", nargs="?", default=os.path.join(here, "..", "Fixtures", "formulatv", "audiencias"))
    parser.add_argument("--passes", type=int, default=30, help="passes over all pages (default 30)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--dump", help="write every record of one pass as JSON lines to this file")
    args = parser.parse_args()

    pages = []
    for name in sorted(os.listdir(args.folder)):
        path = os.path.join(args.folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                pages.append((name, handle.read()))
    if not pages:
        sys.exit("no pages in %s" % args.folder)
    size = sum(len(data) for _, data in pages)
    scraper = Scraper(RECIPE)

    # One pass first: it checks every page and warms the caches the timed passes use.
    records, adverts = [], 0
    for name, data in pages:
        page_records, page_adverts = scraper.page(name, data)
        records += [dict(record, day=name) for record in page_records]
        adverts += page_adverts
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")

    timings = []
    for _ in range(args.passes):
        started = time.perf_counter()
        rows = 0
        for name, data in pages:
            rows += len(scraper.page(name, data)[0])
        timings.append(time.perf_counter() - started)
    median = statistics.median(timings)
    result = {
        "tool": "lxml.html %s (libxml2 %s)" % (lxml.__version__, ".".join(map(str, etree.LIBXML_VERSION))),
        "pages": len(pages), "bytes": size, "rows": len(records), "adverts_skipped": adverts,
        "passes": args.passes, "median_pass_s": round(median, 6), "best_pass_s": round(min(timings), 6),
        "mb_per_s": round(size / median / 1e6, 2),
    }
    if args.json:
        print(json.dumps(result))
        return
    print("%s: %d pages, %d bytes, %d rows (%d advert rows skipped), %d passes"
          % (result["tool"], len(pages), size, len(records), adverts, args.passes))
    print("lxml parse+extract: median pass %.4f s, best %.4f s, %.2f MB/s"
          % (median, min(timings), result["mb_per_s"]))


if __name__ == "__main__":
    try:
        main()
    except Malformed as error:
        sys.exit("malformed: %s" % error)
