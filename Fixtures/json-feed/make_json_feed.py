#!/usr/bin/env python3
"""Writes the json-feed fixtures under Fixtures/json-feed/ from the sample guide.

Two channels (feed ids `la1` and `antena3`) over Saturday 24 and Sunday 25 October 2026, the
day summer time ends in Madrid (03:00 CEST -> 02:00 CET), taken from Fixtures/xmltv/sample.xml
so that titles and times agree with the rest of the fixtures. Each folder is a recording folder
(docs/recording.md) for one feed layout, served by the tests' loopback server:

    iso/guide/<channel>/<yyyy-MM-dd>.json      {"data": {"programmes": [...]}}, ISO 8601 times;
                                               la1 with local offsets (+02:00/+01:00), antena3 in
                                               UTC (Z); la1's Sunday repeats Saturday's last film,
                                               which runs past midnight
    unix/epg/<channel>.json                    both days in one response (no date in the URL),
                                               {"result": [{"events": [...]}]}, Unix seconds as
                                               numbers (t0) and numeric strings (t1), episodes
    clock/programacion/<dd-MM-yyyy>/<channel>.json
                                               a bare array of "HH:mm" times; la1 by calendar day,
                                               with the repeated hour of the DST change written as
                                               local clock times (02:45, then 02:15 CET); antena3
                                               by broadcast day (06:00 to 06:00 the next morning)
    changed/guide/<channel>/<yyyy-MM-dd>.json  the iso layout where Sunday changed: la1's `name`
                                               became `titulo`, antena3's array moved to
                                               data.schedule.items

Output is deterministic: run it again and the files do not change.

    python3 Fixtures/json-feed/make_json_feed.py
"""

import json
import os
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "xmltv", "sample.xml")
CHANNELS = {"la1": "La1.es", "antena3": "Antena3.es"}
DAYS = ["20261024", "20261025"]

# Synthetic episode numbers for the unix feed, in every notation the reader accepts.
EPISODES = {"Cocina al punto con Peña y Tamara": "S02E05", "La ruleta de la suerte": 1520,
            "Centímetros cúbicos": "3x07", "Los más": {"season": 4, "episode": 11}}


def parse_time(text):
    return datetime.strptime(text, "%Y%m%d%H%M%S %z")


def programmes():
    """Channel id -> the sample's programmes starting on the two days (local date), in order."""
    root = ET.parse(SAMPLE).getroot()
    out = {key: [] for key in CHANNELS}
    for element in root.iter("programme"):
        for key, canonical in CHANNELS.items():
            if element.get("channel") == canonical and element.get("start")[:8] in DAYS:
                out[key].append({
                    "start": parse_time(element.get("start")),
                    "stop": parse_time(element.get("stop")),
                    "title": element.findtext("title"),
                    "desc": element.findtext("desc"),
                    "categories": [c.text for c in element.findall("category")],
                })
    return out


def iso(moment, utc):
    if utc:
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    text = moment.strftime("%Y-%m-%dT%H:%M:%S%z")
    return text[:-2] + ":" + text[-2:]


def write(relative, value):
    path = os.path.join(HERE, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, ensure_ascii=False, indent=1)
        handle.write("\n")


def local_day(programme):
    return programme["start"].strftime("%Y%m%d")


def dashed(day):
    return f"{day[:4]}-{day[4:6]}-{day[6:]}"


def iso_item(programme, utc):
    item = {"begin": iso(programme["start"], utc), "end": iso(programme["stop"], utc), "name": programme["title"],
            "genre": programme["categories"][0]}
    if programme["desc"]:
        item["info"] = {"text": programme["desc"]}
    return item


def iso_feed(shows):
    for key, listing in shows.items():
        utc = key == "antena3"
        for day in DAYS:
            items = [iso_item(p, utc) for p in listing if local_day(p) == day]
            if key == "la1" and day == DAYS[1]:
                crossing = [p for p in listing if local_day(p) == DAYS[0]][-1]
                items.insert(0, iso_item(crossing, utc))
            document = {"channel": key, "date": dashed(day), "data": {"programmes": items}}
            write(f"iso/guide/{key}/{dashed(day)}.json", document)
            yield key, day, document


def unix_feed(shows):
    for key, listing in shows.items():
        events = []
        for p in listing:
            event = {"t0": int(p["start"].timestamp()), "t1": str(int(p["stop"].timestamp())), "title": p["title"],
                     "genres": p["categories"]}
            if p["title"] in EPISODES:
                event["ep"] = EPISODES[p["title"]]
            events.append(event)
        write(f"unix/epg/{key}.json", {"result": [{"channel": key, "events": events}]})


def clock(moment):
    return moment.strftime("%H:%M")


def clock_feed(shows):
    # la1: one file per calendar day; Sunday's repeated hour spelt out as the clock shows it.
    for day in DAYS:
        rows = []
        for p in [p for p in shows["la1"] if local_day(p) == day]:
            if p["start"] == datetime(2026, 10, 25, 2, 45, tzinfo=timezone(timedelta(hours=2))):
                # 02:45 CEST until 02:15 CET, then 02:15 CET until 06:00 CET.
                rows.append({"hora": "02:45", "fin": "02:15", "titulo": p["title"], "tipo": p["categories"][0]})
                rows.append({"hora": "02:15", "fin": clock(p["stop"]), "titulo": p["title"], "tipo": p["categories"][0]})
                continue
            rows.append({"hora": clock(p["start"]), "fin": clock(p["stop"]), "titulo": p["title"], "tipo": p["categories"][0]})
        write(f"clock/programacion/{day[6:]}-{day[4:6]}-{day[:4]}/la1.json", rows)
    # antena3: broadcast days from 06:00 to 06:00, so a file ends with the next morning's hours.
    listing = shows["antena3"]
    for day in DAYS:
        begin = datetime.strptime(day + "06", "%Y%m%d%H").replace(tzinfo=listing[0]["start"].tzinfo)
        rows = []
        for p in listing:
            start_day = p["start"] - timedelta(hours=6)
            if start_day.strftime("%Y%m%d") == day:
                rows.append({"hora": clock(p["start"]), "fin": clock(p["stop"]), "titulo": p["title"],
                             "tipo": p["categories"][0]})
        write(f"clock/programacion/{day[6:]}-{day[4:6]}-{day[:4]}/antena3.json", rows)


def changed_feed(iso_documents):
    for key, day, document in iso_documents:
        changed = json.loads(json.dumps(document))
        if day == DAYS[1] and key == "la1":
            for item in changed["data"]["programmes"]:
                item["titulo"] = item.pop("name")
        if day == DAYS[1] and key == "antena3":
            changed["data"] = {"schedule": {"items": changed["data"]["programmes"]}}
        write(f"changed/guide/{key}/{dashed(day)}.json", changed)


def main():
    shows = programmes()
    documents = list(iso_feed(shows))
    unix_feed(shows)
    clock_feed(shows)
    changed_feed(documents)


if __name__ == "__main__":
    main()
