#!/usr/bin/env python3
"""A fake TMDB v3 server on loopback for the metadata benchmark.

Usage: fake_tmdb.py PORT_FILE REQUEST_LOG [--latency-ms 20]

Listens on 127.0.0.1 and a free port (written to PORT_FILE once listening), answers
`/3/configuration`, `/3/movie/<id>` and `/3/tv/<id>` with bodies in TMDB's real shape after the
given latency, and appends one line per request to REQUEST_LOG, so the benchmark counts what the
client really asked. Threaded with HTTP/1.1 keep-alive, so the client's concurrency is the limit.
"""
import argparse
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONFIGURATION = {
    "change_keys": ["overview", "title"],
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


def film(work_id):
    return {
        "adult": False, "backdrop_path": f"/b{work_id}.jpg", "belongs_to_collection": None,
        "budget": 1000000, "genres": [{"id": 18, "name": "Drama"}], "homepage": "",
        "id": work_id, "imdb_id": f"tt{work_id:07d}", "origin_country": ["ES"], "original_language": "es",
        "original_title": f"Obra {work_id - 100000:05d}", "overview": "Una obra del banco de pruebas.",
        "popularity": 1.5, "poster_path": f"/p{work_id}.jpg", "production_companies": [],
        "production_countries": [{"iso_3166_1": "ES", "name": "Spain"}], "release_date": "2001-01-01",
        "revenue": 0, "runtime": 100, "spoken_languages": [], "status": "Released", "tagline": "",
        "title": f"Obra {work_id - 100000:05d}", "video": False, "vote_average": 6.5, "vote_count": 10,
        "credits": {"cast": [{"adult": False, "gender": 1, "id": 1, "known_for_department": "Acting",
                              "name": "Actriz Uno", "original_name": "Actriz Uno", "popularity": 1.0,
                              "profile_path": None, "cast_id": 1, "character": "Ella",
                              "credit_id": "c1", "order": 0}],
                    "crew": [{"adult": False, "gender": 2, "id": 2, "known_for_department": "Directing",
                              "name": "Director Dos", "original_name": "Director Dos", "popularity": 1.0,
                              "profile_path": None, "credit_id": "c2", "department": "Directing",
                              "job": "Director"}]},
        "videos": {"results": []},
        "images": {"backdrops": [], "logos": [], "posters": []},
    }


def series(work_id):
    return {
        "adult": False, "backdrop_path": None, "created_by": [], "episode_run_time": [45],
        "first_air_date": "2010-01-01", "genres": [{"id": 18, "name": "Drama"}], "homepage": "",
        "id": work_id, "in_production": False, "languages": ["es"], "last_air_date": "2012-01-01",
        "name": f"Obra {work_id - 100000:05d}", "networks": [{"id": 1, "name": "La 1", "logo_path": None,
                                                             "origin_country": "ES"}],
        "number_of_episodes": 20, "number_of_seasons": 2, "origin_country": ["ES"], "original_language": "es",
        "original_name": f"Obra {work_id - 100000:05d}", "overview": "Una serie del banco de pruebas.",
        "popularity": 1.5, "poster_path": None, "production_companies": [], "production_countries": [],
        "seasons": [], "spoken_languages": [], "status": "Ended", "tagline": "", "type": "Scripted",
        "vote_average": 7.0, "vote_count": 5,
        "credits": {"cast": [], "crew": []}, "videos": {"results": []},
        "images": {"backdrops": [], "logos": [], "posters": []},
        "external_ids": {"imdb_id": None, "tvdb_id": None},
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port_file")
    parser.add_argument("request_log")
    parser.add_argument("--latency-ms", type=float, default=20)
    args = parser.parse_args()
    latency = args.latency_ms / 1000
    log_lock = threading.Lock()
    log = open(args.request_log, "a", encoding="utf-8")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; with Nagle on, the body waits for the client's
        # delayed ACK (40 ms on Linux) and the server, not the client, would set the pace.
        disable_nagle_algorithm = True

        def do_GET(self):
            time.sleep(latency)
            with log_lock:
                log.write(self.path + "\n")
                log.flush()
            path = self.path.split("?", 1)[0]
            body = None
            if path == "/3/configuration":
                body = CONFIGURATION
            elif m := re.fullmatch(r"/3/movie/(\d+)", path):
                body = film(int(m.group(1)))
            elif m := re.fullmatch(r"/3/tv/(\d+)", path):
                body = series(int(m.group(1)))
            data = json.dumps(body if body is not None else {"success": False, "status_code": 34,
                                                            "status_message": "The resource you requested could not be found."},
                              separators=(",", ":")).encode()
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json;charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file, "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
