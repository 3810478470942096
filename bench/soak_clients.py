#!/usr/bin/env python3
"""Slow clients for bench/soak.sh, alongside wrk: each kind holds connections the way an attacker
or a broken client would, and records how long the server let it.

Usage: soak_clients.py PORT SECONDS [SLOWLORIS] [IDLE] [STALLED]

- slowloris: sends a request line, then one header line a second, never the blank line; when
  the server closes the connection it notes how long it was held and whether a 408 came, and
  connects again.
- idle: connects and sends nothing, again and again.
- stalled: pipelines 30 requests for a 300-channel /now and never reads the answers; after 45 s
  (the server's write timeout is 30 s) it reads what is left and notes whether the server had
  closed the connection. Only when SECONDS is 60 or more.

Prints one JSON object with the counts and the longest hold of each kind.
"""
import json
import socket
import sys
import threading
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
slowloris, idle, stalled = (int(x) for x in (sys.argv[3:6] + ["32", "8", "2"][len(sys.argv[3:6]):]))
deadline = time.monotonic() + seconds
lock = threading.Lock()
figures = {"slowloris_connections": 0, "slowloris_closed": 0, "slowloris_408": 0, "slowloris_max_held_s": 0.0,
           "idle_connections": 0, "idle_closed": 0, "idle_max_held_s": 0.0,
           "stalled_connections": 0, "stalled_closed": 0}


def note(kind, held, answered_408=False):
    with lock:
        figures[f"{kind}_closed"] += 1
        figures[f"{kind}_max_held_s"] = round(max(figures[f"{kind}_max_held_s"], held), 2)
        if answered_408:
            figures["slowloris_408"] += 1


def held_until_closed(sock, started, trickle):
    """Waits for the server to close `sock` (trickling header lines if asked); the time held, the
    bytes read, or None when the soak ended first."""
    sock.settimeout(1.0)
    received = b""
    line = 0
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
            if not chunk:
                return time.monotonic() - started, received
            received += chunk
        except socket.timeout:
            if trickle:
                try:
                    sock.sendall(b"X-Slow-%d: 1\r\n" % line)
                    line += 1
                except OSError:
                    return time.monotonic() - started, received
        except OSError:
            return time.monotonic() - started, received
    return None


def slow(kind):
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            time.sleep(0.5)
            continue
        with lock:
            figures[f"{kind}_connections"] += 1
        if kind == "slowloris":
            sock.sendall(b"GET /now HTTP/1.1\r\nHost: soak\r\n")
        outcome = held_until_closed(sock, started, trickle=(kind == "slowloris"))
        sock.close()
        if outcome is not None:
            held, received = outcome
            note(kind, held, received.startswith(b"HTTP/1.1 408"))


def stalled_reader():
    if seconds < 60:
        return
    with lock:
        figures["stalled_connections"] += 1
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /now?limit=300&stalled=1 HTTP/1.1\r\nHost: soak\r\n\r\n" * 30)
    time.sleep(45)
    # Closed by the server: what it had sent drains, then the end (or a reset). Still open: it
    # answers all 30, then waits for more, and the read times out.
    sock.settimeout(5)
    closed = False
    try:
        while sock.recv(1 << 20):
            pass
        closed = True
    except socket.timeout:
        pass
    except OSError:
        closed = True
    if closed:
        with lock:
            figures["stalled_closed"] += 1
    sock.close()


threads = [threading.Thread(target=slow, args=("slowloris",)) for _ in range(slowloris)]
threads += [threading.Thread(target=slow, args=("idle",)) for _ in range(idle)]
threads += [threading.Thread(target=stalled_reader) for _ in range(stalled)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(figures))
