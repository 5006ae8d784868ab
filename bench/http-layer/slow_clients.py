#!/usr/bin/env python3
"""Slow-client test (standard library only): open N connections to HOST:PORT, each sending a
POST request one byte a second (a large Content-Length, so the request never completes within
the run). Reports how many connections opened, and after how many seconds the server closed
each (or that it had not within DURATION seconds). Output: one JSON line."""
import json
import select
import socket
import sys
import time


def main():
    host, port, n, duration = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    body_len = 100000
    request = (f"POST /webhooks/stripe-main HTTP/1.1\r\nHost: {host}\r\n"
               f"Content-Type: application/json\r\nStripe-Signature: t=1,v1=00\r\n"
               f"Content-Length: {body_len}\r\n\r\n").encode() + b"x" * body_len
    start = time.monotonic()
    conns = []
    for _ in range(n):
        s = socket.create_connection((host, port), timeout=5)
        s.setblocking(False)
        conns.append({"sock": s, "sent": 0, "closed_at": None})
    print(f"slow_clients: {n} connections open", file=sys.stderr, flush=True)
    next_tick = start
    while time.monotonic() - start < duration:
        now = time.monotonic()
        if now >= next_tick:
            for c in conns:
                if c["closed_at"] is not None:
                    continue
                try:
                    c["sock"].send(request[c["sent"]:c["sent"] + 1])
                    c["sent"] += 1
                except OSError:
                    c["closed_at"] = now - start
            next_tick += 1.0
        live = [c for c in conns if c["closed_at"] is None]
        if not live:
            break
        readable, _, _ = select.select([c["sock"] for c in live], [], [],
                                       max(0.0, min(0.2, next_tick - time.monotonic())))
        for s in readable:
            c = next(c for c in live if c["sock"] is s)
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:  # EOF or reset: the server closed it (any answer is ignored)
                c["closed_at"] = time.monotonic() - start
    closed = sorted(c["closed_at"] for c in conns if c["closed_at"] is not None)
    result = {
        "connections": n,
        "closed_by_server": len(closed),
        "still_open_after_s": round(duration, 1) if len(closed) < n else None,
        "first_close_s": round(closed[0], 1) if closed else None,
        "last_close_s": round(closed[-1], 1) if closed else None,
        "bytes_sent_max": max(c["sent"] for c in conns),
    }
    print(json.dumps(result), flush=True)
    for c in conns:
        c["sock"].close()


if __name__ == "__main__":
    main()
