#!/usr/bin/python3
"""An HTTP proxy in front of the real S3 server of the tests, that fails on cue the way a loaded or
dying store does, so that dlgen's counting of retries and errors is tested against real answers:

  fault_proxy.py UPSTREAM DIR [--slow-down-every N] [--die-after M]

Listens on 127.0.0.1 (a free port), writes DIR/port once it listens and DIR/pid, and forwards
every request unchanged (Host and the SigV4 headers included, so the server checks the signature
the client made) to UPSTREAM (http://127.0.0.1:PORT). Only GETs of objects (no query string, not
dlgen's manifest) are "object reads"; of those:
  --slow-down-every N   every Nth is answered 503 SlowDown by the proxy itself (as S3 does when
                        asked too fast) and not forwarded; the try that follows for the same
                        object and range is always forwarded, so each read is refused at most
                        once. DIR/slow_downs holds the count of 503s sent.
  --die-after M         after M object reads the proxy drops the connection of the next one and
                        exits at once: requests in flight are reset, later ones refused (a store
                        that died mid-run).
Python's standard library only; ends with SIGTERM.
"""
import http.client
import http.server
import os
import sys
import threading
import urllib.parse

SLOW_DOWN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
             b'<Message>Please reduce your request rate.</Message></Error>')
HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"}


class State:
    def __init__(self, d, every, die_after):
        self.dir, self.every, self.die_after = d, every, die_after
        self.lock = threading.Lock()
        self.reads = 0
        self.slow_downs = 0
        self.refused = set()  # (path, range) answered 503: its next try is forwarded


def make_handler(upstream, state):
    up = urllib.parse.urlsplit(upstream)
    local = threading.local()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet
            pass

        def is_object_read(self):
            return (self.command == "GET" and "?" not in self.path
                    and not self.path.endswith(".dlgen-manifest.json"))

        def decide(self):
            """'forward', 'slow_down' or 'die' for this request."""
            if not self.is_object_read():
                return "forward"
            key = (self.path, self.headers.get("Range", ""))
            with state.lock:
                if state.die_after is not None and state.reads >= state.die_after:
                    return "die"
                state.reads += 1
                if key in state.refused:
                    state.refused.discard(key)
                    return "forward"
                if state.every and state.reads % state.every == 0:
                    state.refused.add(key)
                    state.slow_downs += 1
                    with open(os.path.join(state.dir, "slow_downs.tmp"), "w") as f:
                        f.write("%d\n" % state.slow_downs)
                    os.replace(os.path.join(state.dir, "slow_downs.tmp"),
                               os.path.join(state.dir, "slow_downs"))
                    return "slow_down"
            return "forward"

        def handle_any(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else None
            action = self.decide()
            if action == "die":
                self.connection.close()
                os._exit(0)
            if action == "slow_down":
                self.send_response(503, "Slow Down")
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(SLOW_DOWN)))
                self.end_headers()
                self.wfile.write(SLOW_DOWN)
                return
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = http.client.HTTPConnection(up.hostname, up.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            try:
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
            except (OSError, http.client.HTTPException):
                local.conn = None
                self.connection.close()
                return
            self.send_response(resp.status, resp.reason)
            for k, v in resp.getheaders():
                if k.lower() not in HOP and k.lower() != "content-length":
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any

    return Handler


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    upstream, d = argv[0], argv[1]
    every, die_after = 0, None
    rest = argv[2:]
    while rest:
        if rest[0] == "--slow-down-every":
            every = int(rest[1])
        elif rest[0] == "--die-after":
            die_after = int(rest[1])
        else:
            sys.stderr.write(__doc__)
            return 2
        rest = rest[2:]
    os.makedirs(d, exist_ok=True)
    state = State(d, every, die_after)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(upstream, state))
    server.daemon_threads = True
    with open(os.path.join(d, "pid"), "w") as f:
        f.write("%d\n" % os.getpid())
    with open(os.path.join(d, "port.tmp"), "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
