#!/usr/bin/env python3
"""Writes the offline recordings of TMDB v3 and TheTVDB v4 for the sample guide's films and series.

    python3 Fixtures/tools/make_metadata.py

Deletes and rewrites Fixtures/tmdb/ (base_url https://api.themoviedb.org/3/) and Fixtures/thetvdb/
(base_url https://api4.thetvdb.com/v4/) in the recording layout of docs/recording.md: one file per
request the providers make, named after the request path and its query items sorted by name, the
body compact UTF-8 JSON shaped as the real API sends it. Deterministic: the same facts give the
same bytes. The facts are in metadata_films.py and metadata_series.py next to this file.

What is real and what is a stand-in
- Real, as far as known: titles, original titles, dates, runtimes, genres, countries, directors,
  writers, cast and characters, collections, the big studios' company ids (Paramount 4,
  Universal 33, Warner Bros. 174, ...), the US networks' ids (ABC 2, CBS 16, FOX 19), TMDB and
  TheTVDB genre ids, and the ids listed below as certain. Overviews are one sentence written for
  these fixtures; taglines only where known. Budgets and revenues are 0 (TMDB's "unknown")
  where not known.
- Stand-ins, derived from hashes so that they are stable: image paths, person ids, credit ids,
  video ids and YouTube keys, artwork ids, popularity, vote figures of series, season and episode
  ids, other company and network ids. Season and episode counts of long-running series are
  approximate, as are the day and month of a few first air dates (the year is right).

Uncertain ids (stand-ins chosen for the work; check before relying on them)
- TMDB movie: Alcarràs 774825, Atraco a las tres 110560, Bienvenido, Mister Marshall 27053,
  Campeones 491283, Celda 211 33273, El verdugo 4497, Estiu 1993 431805, Handia 461054,
  La isla mínima 284289, Las aventuras de Tadeo Jones 86606, Loreak 297162,
  Los lunes al sol 2899, Ocho apellidos vascos 255343, Pa negre 54186, Tesis 1902.
  Their IMDb ids are null unless known (Celda 211, La isla mínima, Ocho apellidos vascos, Tesis).
- TMDB tv / TheTVDB series: every series except The Simpsons (456 / 71663), NCIS (4614 / 72108),
  NCIS: Los Angeles (17610 / 95451), Criminal Minds (4057 / 75710), Modern Family (1421 / 95011),
  Young Sheldon (71728 / 328724), CSI (1431 / 72546) and Yellowstone (73586 / 341164). The IMDb
  ids of the uncertain ones are null.
- Also from memory, worth a check: the collection ids of Jaws (2366), Shrek (2150) and Finding
  Nemo (137697); TheTVDB's genre ids; the es-ES names "Del revés" (TMDB may write
  "Del revés (Inside Out)", which would not match the guide), "CSI: Las Vegas",
  "Regreso al futuro II" / "III".

Cases these recordings exercise
- Loreak (TMDB 297162) has an empty es-ES overview; its en-US details are recorded too.
- "Retorn al futur" (1985), TV3's Catalan title of Back to the Future, is neither the es-ES
  title nor the original title: both its searches (with and without the year) are recorded and
  neither matches.
- "Días de cine", "Home Cinema" and "Paramount Network presenta" are no films: their searches
  (no year) are empty.
- TheTVDB names Yellowstone "Yellowstone (2018)" (its name and translations carry the year):
  the guide's "Yellowstone" matches only once the year suffix is taken off.
- Hermanos, Tierra amarga and Love Is in the Air are Turkish series: TheTVDB's name is the
  Turkish one, the guide's title is the spa translation.
- The NCIS searches also return NCIS: Los Angeles, which does not match "NCIS".
- "Pecado original" is not identified with certainty: both of its series searches are empty.
- TheTVDB's extended record is requested in full (no short=true, which would leave out
  characters and artworks), with its translations.
"""

import base64
import hashlib
import json
import shutil
import sys
import unicodedata
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import metadata_films as films  # noqa: E402
import metadata_series as series  # noqa: E402

FIXTURES = HERE.parent
TMDB_DIR = FIXTURES / "tmdb"
TVDB_DIR = FIXTURES / "thetvdb"

LANGUAGE = "es-ES"
FALLBACK_LANGUAGE = "en-US"
IMAGE_LANGUAGES = "es,en,null"
MOVIE_APPEND = "credits,videos,images"
TV_APPEND = "credits,videos,images,external_ids"
TVDB_EXTENDED_QUERY = (("meta", "translations"),)
TVDB_LAST_UPDATED = "2026-10-12 04:10:37"
TVDB_PAGE_SIZE = 50


# ---------------------------------------------------------------------------------------------
# Files

def recording_name(path, query=()):
    """The recording file for a request: path after base_url, `?`, query items sorted by name
    (stable), each percent-encoded like QueryEncoding (only A-Za-z0-9-._~ left as they are)."""
    if not query:
        return path
    items = sorted(query, key=lambda item: item[0])
    encoded = "&".join(
        f"{urllib.parse.quote(name, safe='-._~')}={urllib.parse.quote(str(value), safe='-._~')}"
        for name, value in items)
    return f"{path}?{encoded}"


def compact(body):
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


class Recording:
    """One provider's folder; refuses to write the same file twice (two requests, one answer)."""

    def __init__(self, root):
        self.root = root
        self.files = {}

    def write(self, path, query, body):
        name = recording_name(path, query)
        if name in self.files:
            raise SystemExit(f"{self.root.name}: {name} written twice")
        target = self.root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = compact(body)
        target.write_text(text, encoding="utf-8")
        self.files[name] = text
        return name


# ---------------------------------------------------------------------------------------------
# Stable stand-ins

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
YOUTUBE = BASE62 + "-_"


def digest(*seed):
    return hashlib.sha256("\x1f".join(str(part) for part in seed).encode("utf-8")).digest()


def pick(alphabet, length, *seed):
    number = int.from_bytes(digest(*seed), "big")
    characters = []
    for _ in range(length):
        number, index = divmod(number, len(alphabet))
        characters.append(alphabet[index])
    return "".join(characters)


def number(low, high, *seed):
    return low + int.from_bytes(digest(*seed)[:8], "big") % (high - low + 1)


def decimal(low, high, places, *seed):
    steps = int(round((high - low) * 10 ** places))
    return round(low + number(0, steps, *seed) / 10 ** places, places)


def tmdb_path(*seed, ext=".jpg"):
    return "/" + pick(BASE62, 27, "tmdb-image", *seed) + ext


def hex_id(*seed, length=24):
    return digest("hex", *seed).hex()[:length]


def youtube_key(*seed):
    return pick(YOUTUBE, 11, "youtube", *seed)


def person_id(name):
    """The same person has the same (stand-in) id in every credit."""
    return number(1_000_000, 4_999_999, "person", name)


def published_at(year, *seed):
    return (f"{year:04d}-{number(1, 12, 'month', *seed):02d}-{number(1, 28, 'day', *seed):02d}"
            f"T{number(8, 20, 'hour', *seed):02d}:00:{number(0, 59, 's', *seed):02d}.000Z")


def slug(name):
    text = unicodedata.normalize("NFKD", name.replace("ı", "i"))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    words, current = [], ""
    for character in text:
        if character.isalnum():
            current += character
        elif current:
            words.append(current)
            current = ""
    if current:
        words.append(current)
    return "-".join(words)


def year_of(date):
    return int(date[:4]) if date else None


# ---------------------------------------------------------------------------------------------
# Reference tables (TMDB sends genre names in the request's language, country and company names
# in English, spoken-language names in the language itself)

MOVIE_GENRES = {
    28: ("Acción", "Action"), 12: ("Aventura", "Adventure"), 16: ("Animación", "Animation"),
    35: ("Comedia", "Comedy"), 80: ("Crimen", "Crime"), 99: ("Documental", "Documentary"),
    18: ("Drama", "Drama"), 10751: ("Familia", "Family"), 14: ("Fantasía", "Fantasy"),
    36: ("Historia", "History"), 27: ("Terror", "Horror"), 10402: ("Música", "Music"),
    9648: ("Misterio", "Mystery"), 10749: ("Romance", "Romance"),
    878: ("Ciencia ficción", "Science Fiction"), 10770: ("Película de TV", "TV Movie"),
    53: ("Suspense", "Thriller"), 10752: ("Bélica", "War"), 37: ("Western", "Western"),
}
TV_GENRES = {
    10759: "Action & Adventure", 16: "Animación", 35: "Comedia", 80: "Crimen", 99: "Documental",
    18: "Drama", 10751: "Familia", 10762: "Kids", 9648: "Misterio", 10763: "News",
    10764: "Reality", 10765: "Sci-Fi & Fantasy", 10766: "Soap", 10767: "Talk",
    10768: "War & Politics", 37: "Western",
}
TVDB_GENRES = {
    1: "Soap", 2: "Science Fiction", 5: "Mini-Series", 6: "Horror", 10: "Fantasy", 11: "Family",
    12: "Drama", 13: "Documentary", 14: "Crime", 15: "Comedy", 16: "Children", 17: "Animation",
    18: "Adventure", 19: "Action", 24: "Thriller", 26: "Western", 28: "Romance", 29: "Musical",
    31: "Mystery",
}
COUNTRIES = {
    "AR": "Argentina", "AU": "Australia", "DE": "Germany", "ES": "Spain", "FR": "France",
    "GB": "United Kingdom", "IT": "Italy", "MX": "Mexico", "TR": "Turkey",
    "US": "United States of America",
}
LANGUAGES = {
    "ca": ("Catalan", "Català"), "cs": ("Czech", "Český"), "de": ("German", "Deutsch"),
    "en": ("English", "English"), "es": ("Spanish", "Español"), "eu": ("Basque", "euskera"),
    "fr": ("French", "Français"), "it": ("Italian", "Italiano"), "ja": ("Japanese", "日本語"),
    "la": ("Latin", "Latin"), "sw": ("Swahili", "Kiswahili"), "th": ("Thai", "ภาษาไทย"),
    "tr": ("Turkish", "Türkçe"),
}
TVDB_LANGUAGE = {"ca": "cat", "de": "deu", "en": "eng", "es": "spa", "eu": "eus", "tr": "tur"}
TVDB_COUNTRY = {"DE": "deu", "ES": "esp", "TR": "tur", "US": "usa"}
COMPANIES = {
    "Lucasfilm Ltd.": (1, "US"), "Walt Disney Pictures": (2, "US"), "Pixar": (3, "US"),
    "Paramount Pictures": (4, "US"), "DreamWorks Pictures": (7, "US"), "20th Century Fox": (25, "US"),
    "Universal Pictures": (33, "US"), "Orion Pictures": (41, "US"), "Amblin Entertainment": (56, "US"),
    "Village Roadshow Pictures": (79, "US"), "Castle Rock Entertainment": (97, "US"),
    "Warner Bros. Pictures": (174, "US"), "Summit Entertainment": (491, "US"),
    "DreamWorks Animation": (521, "US"), "Legendary Pictures": (923, "US"), "Syncopy": (9996, "GB"),
    "Touchstone Pictures": (9195, "US"),
}
NETWORKS = {("ABC", "US"): 2, ("CBS", "US"): 16, ("FOX", "US"): 19}
WEEKDAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")


# ---------------------------------------------------------------------------------------------
# TMDB v3

def tmdb_configuration():
    return {
        "change_keys": [
            "adult", "air_date", "also_known_as", "alternative_titles", "biography", "birthday", "budget",
            "cast", "certifications", "character_names", "created_by", "crew", "deathday", "episode",
            "episode_number", "episode_run_time", "freebase_id", "freebase_mid", "general", "genres",
            "guest_stars", "homepage", "images", "imdb_id", "languages", "name", "network", "origin_country",
            "original_name", "original_title", "overview", "parts", "place_of_birth", "plot_keywords",
            "production_code", "production_companies", "production_countries", "releases", "revenue",
            "runtime", "season", "season_number", "season_regular", "spoken_languages", "status", "tagline",
            "title", "translations", "tvdb_id", "tvrage_id", "type", "video", "videos"],
        "images": {
            "base_url": "http://image.tmdb.org/t/p/",
            "secure_base_url": "https://image.tmdb.org/t/p/",
            "backdrop_sizes": ["w300", "w780", "w1280", "original"],
            "logo_sizes": ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
            "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
            "profile_sizes": ["w45", "w185", "h632", "original"],
            "still_sizes": ["w92", "w185", "w300", "original"],
        },
    }


def tmdb_page(results):
    return {"page": 1, "results": results, "total_pages": 1, "total_results": len(results)}


def popularity(vote_count, *seed):
    """Grows with the vote count, as TMDB's does, plus a stable jitter."""
    return round(1.5 + vote_count / 400 + decimal(0.0, 9.9, 3, "popularity", *seed), 3)


def tmdb_company(name, country):
    known = COMPANIES.get(name)
    if known:
        return {"id": known[0], "logo_path": tmdb_path("logo", name, ext=".png"), "name": name,
                "origin_country": known[1]}
    return {"id": number(10_000, 199_999, "company", name), "logo_path": None, "name": name,
            "origin_country": country}


def tmdb_countries(codes):
    return [{"iso_3166_1": code, "name": COUNTRIES[code]} for code in codes]


def tmdb_spoken(codes):
    return [{"english_name": LANGUAGES[code][0], "iso_639_1": code, "name": LANGUAGES[code][1]} for code in codes]


def tmdb_image(kind, work, language, width, height, ext=".jpg"):
    return {"aspect_ratio": round(width / height, 3), "height": height, "iso_639_1": language,
            "file_path": tmdb_path(kind, work, language, ext=ext),
            "vote_average": decimal(5.1, 5.9, 3, "image-vote", kind, work, language),
            "vote_count": number(1, 24, "image-votes", kind, work, language), "width": width}


def tmdb_images(work, original_language):
    """The images TMDB sends for include_image_language=es,en,null: es and en posters and logos,
    a textless (null) poster and backdrop, an en backdrop; the first poster is the main one."""
    logo_languages = ["es", "en"] if original_language == "es" else ["en"]
    return {
        "backdrops": [tmdb_image("backdrop", work, None, 3840, 2160), tmdb_image("backdrop", work, "en", 1920, 1080)],
        "logos": [tmdb_image("logo", work, language, 1000, 296, ext=".png") for language in logo_languages],
        "posters": [tmdb_image("poster", work, "es", 2000, 3000), tmdb_image("poster", work, "en", 2000, 3000),
                    tmdb_image("poster", work, None, 1000, 1500)],
    }


def tmdb_videos(work, title, first_year, language):
    year = min(2024, max(first_year, 2009) + number(0, 6, "video-year", work))
    if language == "es":
        name, iso_639_1, iso_3166_1 = f"{title} - Tráiler", "es", "ES"
    else:
        name, iso_639_1, iso_3166_1 = "Official Trailer", "en", "US"
    return [{"iso_639_1": iso_639_1, "iso_3166_1": iso_3166_1, "name": name,
             "key": youtube_key(work, language), "site": "YouTube", "size": 1080, "type": "Trailer",
             "official": True, "published_at": published_at(year, "video", work, language),
             "id": hex_id("video", work, language)}]


def tmdb_person(name, department):
    return {"adult": False, "gender": 0, "id": person_id(name), "known_for_department": department,
            "name": name, "original_name": name, "popularity": decimal(0.6, 40.0, 3, "person-popularity", name),
            "profile_path": tmdb_path("profile", name)}


def tmdb_cast(work, cast, with_cast_id):
    members = []
    for order, (name, character) in enumerate(cast):
        member = tmdb_person(name, "Acting")
        if with_cast_id:
            member["cast_id"] = order + 2
        member.update({"character": character, "credit_id": hex_id("credit", work, name, character),
                       "order": order})
        members.append(member)
    return members


def tmdb_crew(work, jobs):
    """jobs: (name, department, job) in TMDB's order."""
    crew = []
    for name, department, job in jobs:
        member = tmdb_person(name, department)
        member.update({"credit_id": hex_id("credit", work, name, job), "department": department, "job": job})
        crew.append(member)
    return crew


def movie_key(film):
    return f"movie/{film['id']}"


def movie_search_result(film, language="es"):
    genres = film["gen"]
    return {"adult": False, "backdrop_path": tmdb_path("backdrop", movie_key(film), None),
            "genre_ids": list(genres), "id": film["id"], "original_language": film["ol"],
            "original_title": film["ot"], "overview": film["ov"], "popularity": popularity(film["va"][1], movie_key(film)),
            "poster_path": tmdb_path("poster", movie_key(film), language), "release_date": film["d"],
            "title": film["t"], "video": False, "vote_average": film["va"][0], "vote_count": film["va"][1]}


def movie_details(film, language):
    """GET movie/{id}?append_to_response=credits,videos,images&... in `language` ("es" or "en")."""
    work = movie_key(film)
    if language == "es":
        title, overview, tagline = film["t"], film["ov"], film.get("tl", "")
    else:
        english = film["en"]
        title, overview, tagline = english["t"], english["ov"], english["tl"]
    genre_index = 0 if language == "es" else 1
    collection = film.get("col")
    jobs = [(name, "Directing", "Director") for name in film["dir"]]
    jobs += [(name, "Writing", "Screenplay") for name in film.get("wr", ())]
    country = film["pc"][0]
    return {
        "adult": False,
        "backdrop_path": tmdb_path("backdrop", work, None),
        "belongs_to_collection": None if collection is None else {
            "id": collection[0], "name": collection[1],
            "poster_path": tmdb_path("poster", "collection", collection[0], "es"),
            "backdrop_path": tmdb_path("backdrop", "collection", collection[0], None)},
        "budget": film.get("bud", 0),
        "genres": [{"id": genre, "name": MOVIE_GENRES[genre][genre_index]} for genre in film["gen"]],
        "homepage": "",
        "id": film["id"],
        "imdb_id": film["imdb"],
        "origin_country": [country],
        "original_language": film["ol"],
        "original_title": film["ot"],
        "overview": overview,
        "popularity": popularity(film["va"][1], work),
        "poster_path": tmdb_path("poster", work, language),
        "production_companies": [tmdb_company(name, country) for name in film.get("co", ())],
        "production_countries": tmdb_countries(film["pc"]),
        "release_date": film["d"],
        "revenue": film.get("rev", 0),
        "runtime": film["rt"],
        "spoken_languages": tmdb_spoken(film.get("sl", (film["ol"],))),
        "status": "Released",
        "tagline": tagline,
        "title": title,
        "video": False,
        "vote_average": film["va"][0],
        "vote_count": film["va"][1],
        "credits": {"cast": tmdb_cast(work, film["cast"], with_cast_id=True), "crew": tmdb_crew(work, jobs)},
        "videos": {"results": tmdb_videos(work, title, year_of(film["d"]), language) if film.get("trailer", True) else []},
        "images": tmdb_images(work, film["ol"]),
    }


def tv_key(show):
    return f"tv/{show['tmdb']}"


def tv_votes(show):
    return decimal(6.4, 8.6, 1, "tv-vote", show["tmdb"]), number(20, 9_000, "tv-votes", show["tmdb"])


def tv_search_result(show):
    work = tv_key(show)
    vote_average, vote_count = tv_votes(show)
    return {"adult": False, "backdrop_path": tmdb_path("backdrop", work, None), "genre_ids": list(show["gen"]),
            "id": show["tmdb"], "origin_country": list(show["oc"]), "original_language": show["ol"],
            "original_name": show["on"], "overview": show["ov"], "popularity": popularity(vote_count, work),
            "poster_path": tmdb_path("poster", work, "es"), "first_air_date": show["fa"], "name": show["n"],
            "vote_average": vote_average, "vote_count": vote_count}


def episodes_per_season(show):
    seasons, episodes = show["ns"], show["ne"]
    return [episodes // seasons + (1 if number < episodes % seasons else 0) for number in range(seasons)]


def tv_network(show):
    name, country = show["net"], show["oc"][0]
    network_id = NETWORKS.get((name, country)) or number(100, 5_999, "network", name, country)
    return {"id": network_id, "logo_path": tmdb_path("network", name, country, ext=".png"), "name": name,
            "origin_country": country}


def tv_last_episode(show, counts):
    if show["la"] is None:
        return None
    number_in_season = counts[-1]
    return {"id": number(1_000_000, 5_999_999, "episode", show["tmdb"], "last"),
            "name": f"Episodio {number_in_season}", "overview": "", "vote_average": 0.0, "vote_count": 0,
            "air_date": show["la"], "episode_number": number_in_season, "episode_type": "finale",
            "production_code": "", "runtime": show["rt"][0], "season_number": show["ns"],
            "show_id": show["tmdb"], "still_path": tmdb_path("still", tv_key(show), "last")}


def tv_seasons(show, counts):
    work = tv_key(show)
    return [{"air_date": show["fa"] if season == 1 else None, "episode_count": count,
             "id": number(10_000, 499_999, "season", show["tmdb"], season), "name": f"Temporada {season}",
             "overview": "", "poster_path": tmdb_path("poster", work, "season", season), "season_number": season,
             "vote_average": decimal(6.0, 8.5, 1, "season-vote", show["tmdb"], season)}
            for season, count in enumerate(counts, start=1)]


def tv_details(show):
    """GET tv/{id}?append_to_response=credits,videos,images,external_ids&... in es-ES."""
    work = tv_key(show)
    counts = episodes_per_season(show)
    vote_average, vote_count = tv_votes(show)
    creators = [{"id": person_id(name), "credit_id": hex_id("creator", work, name), "name": name,
                 "original_name": name, "gender": 0, "profile_path": tmdb_path("profile", name)}
                for name in show["cb"]]
    jobs = [(name, "Production", "Executive Producer") for name in show["cb"]]
    has_trailer = show["oc"] == ("US",)
    return {
        "adult": False,
        "backdrop_path": tmdb_path("backdrop", work, None),
        "created_by": creators,
        "episode_run_time": list(show["rt"]),
        "first_air_date": show["fa"],
        "genres": [{"id": genre, "name": TV_GENRES[genre]} for genre in show["gen"]],
        "homepage": "",
        "id": show["tmdb"],
        "in_production": show["st"] != "Ended",
        "languages": [show["ol"]],
        "last_air_date": show["la"],
        "last_episode_to_air": tv_last_episode(show, counts),
        "name": show["n"],
        "next_episode_to_air": None,
        "networks": [tv_network(show)],
        "number_of_episodes": show["ne"],
        "number_of_seasons": show["ns"],
        "origin_country": list(show["oc"]),
        "original_language": show["ol"],
        "original_name": show["on"],
        "overview": show["ov"],
        "popularity": popularity(vote_count, work),
        "poster_path": tmdb_path("poster", work, "es"),
        "production_companies": [],
        "production_countries": tmdb_countries(show["oc"]),
        "seasons": tv_seasons(show, counts),
        "spoken_languages": tmdb_spoken((show["ol"],)),
        "status": show["st"],
        "tagline": "",
        "type": "Scripted",
        "vote_average": vote_average,
        "vote_count": vote_count,
        "credits": {"cast": tmdb_cast(work, show["cast"], with_cast_id=False), "crew": tmdb_crew(work, jobs)},
        "videos": {"results": tmdb_videos(work, show["n"], year_of(show["fa"]), "es") if has_trailer else []},
        "images": tmdb_images(work, show["ol"]),
        "external_ids": {"imdb_id": show["imdb"], "freebase_mid": None, "freebase_id": None,
                         "tvdb_id": show["tvdb"], "tvrage_id": None, "wikidata_id": None,
                         "facebook_id": None, "instagram_id": None, "twitter_id": None},
    }


def movie_search_query(title, year):
    query = [("query", title), ("language", LANGUAGE)]
    if year is not None:
        query.append(("year", str(year)))
    return query


def details_query(append, language):
    return [("append_to_response", append), ("include_image_language", IMAGE_LANGUAGES), ("language", language)]


def write_tmdb(recording):
    recording.write("configuration", (), tmdb_configuration())
    by_id = {film["id"]: film for film in films.FILMS}

    def found(film_id):
        if film_id in by_id:
            return movie_search_result(by_id[film_id])
        other = dict(films.ALSO_FOUND[film_id], id=film_id)
        return movie_search_result(other)

    for film in films.FILMS:
        recording.write("search/movie", movie_search_query(film["g"], film["y"]), tmdb_page([found(film["id"])]))
        recording.write(movie_key(film), details_query(MOVIE_APPEND, LANGUAGE), movie_details(film, "es"))
        if not film["ov"]:
            recording.write(movie_key(film), details_query(MOVIE_APPEND, FALLBACK_LANGUAGE), movie_details(film, "en"))
    for (title, year), searches in films.GUIDE_ALIASES.items():
        recording.write("search/movie", movie_search_query(title, year),
                        tmdb_page([found(film_id) for film_id in searches["with_year"]]))
        recording.write("search/movie", movie_search_query(title, None),
                        tmdb_page([found(film_id) for film_id in searches["without_year"]]))
    for title in films.NOT_FILMS:
        recording.write("search/movie", movie_search_query(title, None), tmdb_page([]))

    for show in series.SERIES:
        others = [tv_search_result(other) for other in series.ALSO_FOUND.get(show["g"], ())]
        recording.write("search/tv", [("query", show["g"]), ("language", LANGUAGE)],
                        tmdb_page([tv_search_result(show)] + others))
        recording.write(tv_key(show), details_query(TV_APPEND, LANGUAGE), tv_details(show))
    for title in series.NOT_FOUND:
        recording.write("search/tv", [("query", title), ("language", LANGUAGE)], tmdb_page([]))


# ---------------------------------------------------------------------------------------------
# TheTVDB v4

TVDB_API = "https://api4.thetvdb.com/v4/"
TVDB_ARTWORKS = "https://artworks.thetvdb.com/banners/"


def base64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def tvdb_login():
    """A JWT-shaped token (no real key in it) that expires on 2100-01-01."""
    header = {"alg": "RS256", "typ": "JWT"}
    claims = {"age": "", "apikey": "", "community_supported": False, "exp": 4102444800, "gender": "",
              "hits_per_day": 100000000, "hits_per_month": 100000000, "id": "0", "is_mod": False,
              "is_system_key": False, "is_trusted": False, "pin": None, "roles": [], "tenant": "tvdb", "uuid": ""}
    token = ".".join([base64url(compact(header).encode()), base64url(compact(claims).encode()),
                      base64url(digest("tvdb-signature") * 8)])
    return {"status": "success", "data": {"token": token}}


def artwork_url(show, kind, *seed, thumbnail=False):
    name = hex_id("tvdb-artwork", show["tvdb"], kind, *seed, length=13)
    return f"{TVDB_ARTWORKS}v4/series/{show['tvdb']}/{kind}/{name}{'_t' if thumbnail else ''}.jpg"


def tvdb_name(show):
    return show.get("tv", show["on"])


def tvdb_primary_language(show):
    return TVDB_LANGUAGE[show["ol"]]


def tvdb_overviews(show):
    overviews = {"spa": show["ov"]}
    if show.get("en"):
        overviews["eng"] = show["en"]
    return overviews


def tvdb_overview(show):
    """The record's own overview: in its original language when there is one, else English."""
    overviews = tvdb_overviews(show)
    return overviews.get(tvdb_primary_language(show)) or overviews.get("eng") or overviews["spa"]


def tvdb_translations(show):
    return show.get("tr") or {"eng": show["on"], "spa": show["n"]}


def tvdb_status(show):
    ended = show["st"] == "Ended"
    return {"id": 2 if ended else 1, "name": "Ended" if ended else "Continuing", "recordType": "series",
            "keepUpdated": False}


def tvdb_remote_ids(show):
    remote = [{"id": show["imdb"], "type": 2, "sourceName": "IMDB"}] if show["imdb"] else []
    return remote + [{"id": str(show["tmdb"]), "type": 12, "sourceName": "TheMovieDB.com"}]


def tvdb_network(show):
    name, country = show["net"], show["oc"][0]
    return {"id": number(100, 9_999, "tvdb-network", name, country), "name": name, "slug": slug(name),
            "nameTranslations": ["eng"], "overviewTranslations": [], "aliases": [],
            "country": TVDB_COUNTRY[country], "primaryCompanyType": 1, "activeDate": None, "inactiveDate": None,
            "companyType": {"companyTypeId": 1, "companyTypeName": "Network"},
            "parentCompany": {"id": None, "name": None, "relation": {"id": None, "typeName": None}},
            "tagOptions": None}


def tvdb_search_result(show):
    poster = artwork_url(show, "posters", "spa")
    return {"objectID": f"series-{show['tvdb']}", "aliases": list(show.get("al", ())),
            "country": TVDB_COUNTRY[show["oc"][0]], "id": f"series-{show['tvdb']}", "image_url": poster,
            "name": tvdb_name(show), "first_air_time": show["fa"], "overview": tvdb_overview(show),
            "primary_language": tvdb_primary_language(show), "primary_type": "series",
            "status": tvdb_status(show)["name"], "type": "series", "tvdb_id": str(show["tvdb"]),
            "year": show["fa"][:4], "slug": slug(tvdb_name(show)), "overviews": tvdb_overviews(show),
            "translations": tvdb_translations(show), "network": show["net"],
            "remote_ids": tvdb_remote_ids(show), "thumbnail": artwork_url(show, "posters", "spa", thumbnail=True)}


def tvdb_search(query, results):
    self_link = f"{TVDB_API}{recording_name('search', [('query', query), ('type', 'series')])}&page=0"
    return {"status": "success", "data": results,
            "links": {"prev": None, "self": self_link, "next": None, "total_items": len(results),
                      "page_size": TVDB_PAGE_SIZE}}


def tvdb_artworks(show):
    """The artworks of the full record: posters (type 2), a background (3) and a banner (1)."""
    kinds = [("posters", 2, "spa", 680, 1000, True), ("posters", 2, "eng", 680, 1000, True),
             ("backgrounds", 3, None, 1920, 1080, False), ("banners", 1, "eng", 758, 140, True)]
    return [{"id": number(60_000_000, 69_999_999, "artwork", show["tvdb"], kind, language),
             "image": artwork_url(show, kind, language), "thumbnail": artwork_url(show, kind, language, thumbnail=True),
             "language": language, "type": type_id, "score": number(10_000, 100_000, "artwork-score", show["tvdb"], kind),
             "width": width, "height": height, "includesText": text,
             "thumbnailWidth": width // 2, "thumbnailHeight": height // 2, "updatedAt": 0,
             "status": {"id": 0, "name": None}, "tagOptions": None}
            for kind, type_id, language, width, height, text in kinds]


def tvdb_characters(show):
    characters = []
    for sort, (actor, character) in enumerate(show["cast"]):
        people_id = number(200_000, 9_999_999, "tvdb-person", actor)
        portrait = f"{TVDB_ARTWORKS}v4/person/{people_id}/photos/{hex_id('tvdb-photo', actor, length=13)}.jpg"
        characters.append({
            "id": number(60_000_000, 99_999_999, "tvdb-character", show["tvdb"], actor), "name": character,
            "peopleId": people_id, "seriesId": show["tvdb"], "series": None, "movie": None, "movieId": None,
            "episodeId": None, "type": 3,
            "image": f"{TVDB_ARTWORKS}v4/actor/{people_id}/photo/{hex_id('tvdb-role', show['tvdb'], actor, length=13)}.jpg",
            "sort": sort, "isFeatured": sort < 3, "url": f"https://thetvdb.com/people/{people_id}-{slug(actor)}",
            "nameTranslations": None, "overviewTranslations": None, "aliases": None, "peopleType": "Actor",
            "personName": actor, "tagOptions": None, "personImgURL": portrait})
    return characters


def tvdb_seasons(show):
    official = {"id": 1, "name": "Aired Order", "type": "official", "alternateName": None}
    return [{"id": number(600_000, 2_999_999, "tvdb-season", show["tvdb"], season), "seriesId": show["tvdb"],
             "type": official, "number": season, "nameTranslations": [], "overviewTranslations": [],
             "image": artwork_url(show, "seasons", season), "imageType": 7,
             "companies": {"studio": None, "network": None, "production": None, "distributor": None,
                           "special_effects": None},
             "lastUpdated": TVDB_LAST_UPDATED}
            for season in range(1, show["ns"] + 1)]


def tvdb_extended(show):
    """GET series/{id}/extended?meta=translations: the full record, characters and artworks included."""
    primary = tvdb_primary_language(show)
    names = tvdb_translations(show)
    overviews = tvdb_overviews(show)
    airs_day, airs_time = show.get("airs", (None, None))
    network = tvdb_network(show)
    rating = show.get("cr")
    return {"status": "success", "data": {
        "id": show["tvdb"],
        "name": tvdb_name(show),
        "slug": slug(tvdb_name(show)),
        "image": artwork_url(show, "posters", "spa"),
        "nameTranslations": list(names),
        "overviewTranslations": list(overviews),
        "aliases": [{"language": primary, "name": alias} for alias in show.get("al", ())],
        "firstAired": show["fa"],
        "lastAired": show["la"] or "",
        "nextAired": "",
        "score": number(100, 250_000, "tvdb-score", show["tvdb"]),
        "status": tvdb_status(show),
        "originalCountry": TVDB_COUNTRY[show["oc"][0]],
        "originalLanguage": primary,
        "defaultSeasonType": 1,
        "isOrderRandomized": False,
        "lastUpdated": TVDB_LAST_UPDATED,
        "averageRuntime": show["rt"][0],
        "episodes": None,
        "overview": tvdb_overview(show),
        "year": show["fa"][:4],
        "artworks": tvdb_artworks(show),
        "companies": [network],
        "originalNetwork": network,
        "latestNetwork": network,
        "genres": [{"id": genre, "name": TVDB_GENRES[genre], "slug": slug(TVDB_GENRES[genre])} for genre in show["tg"]],
        "trailers": [],
        "lists": [],
        "remoteIds": tvdb_remote_ids(show),
        "characters": tvdb_characters(show),
        "airsDays": {day: day == airs_day for day in WEEKDAYS},
        "airsTime": airs_time,
        "seasons": tvdb_seasons(show),
        "tags": [],
        "contentRatings": [] if rating is None else [{
            "id": number(1, 999, "rating", *rating), "name": rating[1], "country": rating[0], "description": "",
            "contentType": "", "order": 0, "fullName": None}],
        "seasonTypes": [{"id": 1, "name": "Aired Order", "type": "official", "alternateName": None},
                        {"id": 2, "name": "DVD Order", "type": "dvd", "alternateName": None},
                        {"id": 3, "name": "Absolute Order", "type": "absolute", "alternateName": None}],
        "translations": {
            "nameTranslations": [dict({"name": name, "language": language}, **({"isPrimary": True} if language == primary else {}))
                                 for language, name in names.items()],
            "overviewTranslations": [dict({"overview": text, "language": language}, **({"isPrimary": True} if language == primary else {}))
                                     for language, text in overviews.items()],
            "alias": list(show.get("al", ())),
        },
    }}


def write_thetvdb(recording):
    recording.write("login", (), tvdb_login())
    for show in series.SERIES:
        results = [tvdb_search_result(show)] + [tvdb_search_result(other) for other in series.ALSO_FOUND.get(show["g"], ())]
        recording.write("search", [("query", show["g"]), ("type", "series")], tvdb_search(show["g"], results))
        recording.write(f"series/{show['tvdb']}/extended", TVDB_EXTENDED_QUERY, tvdb_extended(show))
    for title in series.NOT_FOUND:
        recording.write("search", [("query", title), ("type", "series")], tvdb_search(title, []))


# ---------------------------------------------------------------------------------------------

def main():
    written = {}
    for root, write in ((TMDB_DIR, write_tmdb), (TVDB_DIR, write_thetvdb)):
        if root.exists():
            shutil.rmtree(root)
        recording = Recording(root)
        write(recording)
        written[root.name] = recording.files
    print(f"films: {len(films.FILMS)} works, {len(films.GUIDE_ALIASES)} other guide title(s), "
          f"{len(films.NOT_FILMS)} non-film title(s)")
    print(f"series: {len(series.SERIES)} works, {len(series.NOT_FOUND)} not identified")
    for name, files in written.items():
        print(f"{name}: {len(files)} files, {sum(len(text.encode()) for text in files.values())} bytes")


if __name__ == "__main__":
    main()
