"""bench/sources.sh's peer: the same mappings as the benchmark sites' recipes, in Python.

JSON: json.loads, pick the channel's programmes, join the details by id, parse the local times in
Europe/Madrid (zoneinfo), split the credits, resolve the image URL. HTML: lxml.html, XPath rows
and cells, clock times rolled over midnight. Prints items/s of the median pass as JSON, and writes
the programmes it made (start, stop, title) for the comparison with tvguide's.
"""
import json
import statistics
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import lxml.html

MADRID = ZoneInfo("Europe/Madrid")


def local(text):
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=MADRID).astimezone(ZoneInfo("UTC"))


def names(value):
    return value.split(", ") if isinstance(value, str) and value else None


def map_json(grid_bytes, details_bytes, channel):
    grid = json.loads(grid_bytes)
    details = {d["id_programa"]: d for d in json.loads(details_bytes)}
    out = []
    for entry in grid:
        if entry["idCanal"] != channel:
            continue
        for item in entry["programas"]:
            d = details.get(item["id_programa"], {})
            out.append({
                "start": local(item["iniDate"]), "stop": local(item["endDate"]), "title": item["title"],
                "subtitle": d.get("episode_title"), "description": d.get("episode_description") or item.get("description"),
                "categories": "/".join(x for x in [d.get("txt_genre"), d.get("txt_subgenre")] if x) or None,
                "images": "https://programacion-tv.elpais.com/" + d["image"] if d.get("image") else None,
                "credits": {"director": names(d.get("director")), "actor": names(d.get("actors"))},
                "season": int(d["season"]) if d.get("season") else None,
                "episode": int(d["episode"]) if d.get("episode") else None,
            })
    return out


def map_html(page_bytes, day):
    doc = lxml.html.fromstring(page_bytes)
    out = []
    previous = None
    base = datetime(day.year, day.month, day.day, tzinfo=MADRID)
    for row in doc.xpath("//ul[@class='grid']/li"):
        clock = row.xpath("string(span[@class='time'])").strip()
        hours, minutes = (int(x) for x in clock.split(":"))
        start = base + timedelta(hours=hours, minutes=minutes)
        while previous is not None and start < previous:
            start += timedelta(days=1)
        previous = start
        out.append({
            "start": start.astimezone(ZoneInfo("UTC")), "title": " ".join(row.xpath("string(h3)").split()),
            "description": " ".join(row.xpath("string(p)").split()) or None,
        })
    return out


def main():
    grid, details, page, passes, dump = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    grid_bytes, details_bytes, page_bytes = (open(p, "rb").read() for p in (grid, details, page))
    results = {}
    for name, work in [("json", lambda: map_json(grid_bytes, details_bytes, "1")),
                       ("html", lambda: map_html(page_bytes, datetime(2026, 10, 24)))]:
        work()
        times = []
        for _ in range(passes):
            started = time.perf_counter()
            made = work()
            times.append(time.perf_counter() - started)
        results[name] = {"items": len(made), "seconds": statistics.median(times)}
        with open(f"{dump}.{name}", "w") as out:
            for p in made:
                out.write(f'{p["start"].strftime("%Y-%m-%dT%H:%M:%SZ")}\t{p["title"]}\n')
    print(json.dumps(results))


main()
