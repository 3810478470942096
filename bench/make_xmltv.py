#!/usr/bin/env python3
"""Writes a deterministic XMLTV guide of N channels x D days for the benchmarks.

Usage: make_xmltv.py CHANNELS DAYS OUTPUT [--shift-minutes M] [--start 2026-10-19] [--works N]

Each channel gets about 24 airings a day of 30 to 90 minutes with titles, descriptions,
categories, credits on films and episode numbers on series, so a 300 x 7 guide is about 50,000
programmes and 25 MB, the size the issue names. The same arguments give the same bytes.

With --works N, films and series are drawn from N distinct works (half films, half series), each
with its own kind and year and carrying its TMDB id as xmltv.dtd proposes
(`<episode-num system="themoviedb.org">movie/ID`), so that the metadata benchmark has N distinct
titles to enrich however often each airs.
"""
import argparse
import datetime as dt
import random

KINDS = [
    ("Noticias", None), ("Película", "movie"), ("Serie", "series"), ("Documental", None),
    ("Deportes", None), ("Infantil", None), ("Entretenimiento", None),
]
WORDS = ("el la los las un una de del en con sin por para sobre bajo noche día mar sol luna "
         "casa vida amor guerra ciudad río montaña historia secreto viaje tiempo camino fuego "
         "agua tierra cielo sombra luz memoria verano invierno puerto frontera").split()


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("channels", type=int)
    parser.add_argument("days", type=int)
    parser.add_argument("output")
    parser.add_argument("--shift-minutes", type=int, default=0)
    parser.add_argument("--start", default="2026-10-19")
    parser.add_argument("--works", type=int, default=0)
    args = parser.parse_args()
    works = [(f"Obra {n:05d}", "movie" if n % 2 == 0 else "tv", 100000 + n, 1950 + n % 75) for n in range(args.works)]

    rng = random.Random(20261019)
    start = dt.datetime.fromisoformat(args.start).replace(hour=6, tzinfo=dt.timezone.utc)
    start += dt.timedelta(minutes=args.shift_minutes)
    end = start + dt.timedelta(days=args.days)
    with open(args.output, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n')
        out.write('<tv generator-info-name="tvguide bench/make_xmltv.py">\n')
        for c in range(args.channels):
            out.write(f'  <channel id="bench{c:04d}.es">\n    <display-name lang="es">Canal {c}</display-name>\n'
                      f'    <icon src="https://example.invalid/logos/{c}.png"/>\n  </channel>\n')
        for c in range(args.channels):
            t = start
            episode = 0
            while t < end:
                length = rng.choice((30, 45, 60, 60, 90))
                stop = t + dt.timedelta(minutes=length)
                category, kind = rng.choice(KINDS)
                title = sentence(rng, rng.randint(2, 4))
                work = rng.choice(works) if works and kind in ("movie", "series") else None
                if work:
                    title = work[0]
                    category, kind = ("Película", "movie") if work[1] == "movie" else ("Serie", "series")
                fmt = "%Y%m%d%H%M%S +0000"
                out.write(f'  <programme start="{t.strftime(fmt)}" stop="{stop.strftime(fmt)}" channel="bench{c:04d}.es">\n')
                out.write(f'    <title lang="es">{title}</title>\n')
                if kind == "series":
                    out.write(f'    <sub-title lang="es">{sentence(rng, 3)}</sub-title>\n')
                out.write(f'    <desc lang="es">{sentence(rng, rng.randint(25, 45))}.</desc>\n')
                if kind == "movie":
                    out.write('    <credits>\n'
                              f'      <director>{sentence(rng, 2)}</director>\n'
                              f'      <actor role="{sentence(rng, 1)}">{sentence(rng, 2)}</actor>\n'
                              f'      <actor>{sentence(rng, 2)}</actor>\n'
                              '    </credits>\n'
                              f'    <date>{work[3] if work else rng.randint(1950, 2025)}</date>\n')
                out.write(f'    <category lang="es">{category}</category>\n')
                if kind == "series":
                    episode += 1
                    out.write(f'    <episode-num system="xmltv_ns">{episode // 20}.{episode % 20}.</episode-num>\n')
                if work:
                    out.write(f'    <episode-num system="themoviedb.org">{work[1]}/{work[2]}</episode-num>\n')
                out.write('  </programme>\n')
                t = stop
        out.write("</tv>\n")


if __name__ == "__main__":
    main()
