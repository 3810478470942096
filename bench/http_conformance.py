"""Sends the same raw HTTP/1.x requests to tvguide and to nginx and prints what each answered.

Usage: http_conformance.py TVGUIDE_PORT NGINX_PORT

Each request goes on a fresh connection, byte for byte as written here. The client then reads
until the server closes or is silent for `QUIET` seconds, and splits what came into answers
(Content-Length or chunked framing). A row shows, per server: the status of every answer in
order, the `Connection` field of the last one, the other fields the row is about (of the first
answer), and whether the server closed the connection ("closed") or kept it ("kept").
"""
import socket
import sys
import time

QUIET = 0.7
HOST = "127.0.0.1"


def exchange(port, parts):
    connection = socket.create_connection((HOST, port), timeout=5)
    for part in parts:
        connection.sendall(part)
        time.sleep(0.05)
    connection.settimeout(QUIET)
    received, closed = b"", False
    while True:
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            closed = True
            break
        if not chunk:
            closed = True
            break
        received += chunk
    connection.close()
    return parse(received), closed


def parse(data):
    answers = []
    while b"\r\n\r\n" in data:
        head, data = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0].split(" ")[1] if " " in lines[0] else "?"
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        body = b""
        if "content-length" in fields:
            length = int(fields["content-length"])
            body, data = data[:length], data[length:]
        elif fields.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size_line, _, data = data.partition(b"\r\n")
                size = int(size_line.split(b";")[0] or b"0", 16)
                body, data = body + data[:size], data[size + 2:]
                if size == 0:
                    break
        answers.append((lines[0], status, fields, body))
    return answers


def describe(answers, closed, show):
    if not answers:
        return "no answer, " + ("closed" if closed else "kept")
    statuses = "+".join(status for _, status, _, _ in answers)
    first, last = answers[0][2], answers[-1][2]
    parts = [statuses, "Connection: " + last.get("connection", "-")]
    for name in show:
        parts.append(f"{name}: {first.get(name.lower(), '-')}")
    parts.append("closed" if closed else "kept")
    return ", ".join(parts)


def etag(port, path):
    answers, _ = exchange(port, [f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()])
    return answers[0][2].get("etag", '"none"')


def modified(port, path):
    answers, _ = exchange(port, [f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()])
    return answers[0][2].get("last-modified", "Thu, 01 Jan 1970 00:00:00 GMT")


def main():
    ports = {"tvguide": int(sys.argv[1]), "nginx": int(sys.argv[2])}
    get = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    long_target = "/health?q=" + "a" * 9000
    many_fields = "".join(f"X-{n}: 1\r\n" for n in range(101))
    cases = [
        ("Connection: close, then a pipelined GET", [f"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n{get}"], []),
        ("HTTP/1.0, then a pipelined GET", ["GET /health HTTP/1.0\r\n\r\nGET /health HTTP/1.0\r\n\r\n"], []),
        ("HTTP/1.0 keep-alive, twice", ["GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" * 2], []),
        ("Upgrade: h2c, then a pipelined GET",
         ["GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n" + get],
         ["Upgrade"]),
        ("Upgrade: websocket, then a GET",
         ["GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", get], ["Upgrade"]),
        ("CONNECT", ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"], ["Allow", "Content-Length"]),
        ("HTTP/1.1 without Host", ["GET /health HTTP/1.1\r\n\r\n"], []),
        ("two Host fields", ["GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"], []),
        ("Host: a/b", ["GET /health HTTP/1.1\r\nHost: a/b\r\n\r\n"], []),
        ("HTTP/1.2, then a GET", ["GET /health HTTP/1.2\r\nHost: x\r\n\r\n", get], []),
        ("absolute form", ["GET http://x/health HTTP/1.1\r\nHost: x\r\n\r\n"], []),
        ("absolute form with userinfo", ["GET http://user:pw@x/health HTTP/1.1\r\nHost: x\r\n\r\n"], []),
        ("unknown method BREW", ["BREW /health HTTP/1.1\r\nHost: x\r\n\r\n"], ["Allow"]),
        ("PROPFIND, then a GET", ["PROPFIND /health HTTP/1.1\r\nHost: x\r\n\r\n" + get], ["Allow"]),
        ("If-None-Match: W/<etag>", lambda port: [f"GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nIf-None-Match: W/{etag(port, '/xmltv.xml')}\r\n\r\n"], []),
        ('If-Match: "other"', ['GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nIf-Match: "other"\r\n\r\n'], []),
        ("Accept-Encoding: gzip (/xmltv.xml)", ["GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"],
         ["Content-Encoding", "Vary", "ETag"]),
        ("HEAD, Accept-Encoding: gzip", ["HEAD /xmltv.xml HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"], ["Content-Encoding"]),
        ("Accept-Encoding: gzip;q=0", ["GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0\r\n\r\n"], ["Content-Encoding", "Vary"]),
        ("a 9 kB target", [f"GET {long_target} HTTP/1.1\r\nHost: x\r\n\r\n"], []),
        ("101 header fields", [f"GET /health HTTP/1.1\r\nHost: x\r\n{many_fields}\r\n"], []),
        ("Content-Length: 2000000 on a GET", ["GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n"], []),
        ("a 65 kB request line", [f"GET /health?q={'a' * 66000} HTTP/1.1\r\nHost: x\r\n\r\n"], []),
        ("Transfer-Encoding: gzip", ["GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"], []),
        ("Range: bytes=0-99 (/xmltv.xml)", ["GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nRange: bytes=0-99\r\n\r\n"], ["Content-Range", "Content-Length"]),
        ("Range: bytes=-100", ["GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nRange: bytes=-100\r\n\r\n"], ["Content-Range", "Content-Length"]),
        ("Range past the end", ["GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nRange: bytes=999999999-\r\n\r\n"], ["Content-Range"]),
        ('Range with If-Range: "other"', ['GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nRange: bytes=0-99\r\nIf-Range: "other"\r\n\r\n'],
         ["Content-Range"]),
        ("If-Modified-Since: its Last-Modified", lambda port: [f"GET /xmltv.xml HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: {modified(port, '/xmltv.xml')}\r\n\r\n"],
         []),
        ("HEAD /xmltv.xml", ["HEAD /xmltv.xml HTTP/1.1\r\nHost: x\r\n\r\n"], ["Content-Length", "Accept-Ranges"]),
    ]
    rows = []
    for name, parts, show in cases:
        row = [name]
        for server, port in ports.items():
            sent = parts(port) if callable(parts) else parts
            answers, closed = exchange(port, [part.encode() for part in sent])
            row.append(describe(answers, closed, show))
        rows.append(row)
    print("| request | tvguide | nginx |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")


main()
