"""Client over HTTP, against a stand-in server on 127.0.0.1 (the standard library's
http.server) that answers as CONTRACTS.md §3.2-3.3 says ratingd answers: the request paths
and queries the client sends, its error on a 404, and the event stream read across a
dropped connection with Last-Event-ID. Bounded: every wait has a timeout."""
import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import ratingd


def board(sequence):
    return {"method": "elo", "agents": 2, "results": sequence, "sequence": sequence,
            "committed_at": "2026-11-28T12:00:00Z", "owner": True,
            "ranking": [{"rank": 1, "agent": "a", "rating": 1516.0},
                        {"rank": 2, "agent": "b", "rating": 1484.0}], "extra": {}}


class Handler(BaseHTTPRequestHandler):
    seen = []  # (path, query, Last-Event-ID) of every request

    def log_message(self, *args):
        pass

    def send_json(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        last = self.headers.get("Last-Event-ID")
        Handler.seen.append((url.path, query, last))
        if url.path == "/v1/pools":
            self.send_json(200, {"pools": [{"pool": "chess", "partition": 0, "agents": 2,
                                            "results": 3, "owner": True, "models": ["elo"]}]})
        elif url.path == "/v1/pools/chess/leaderboard":
            self.send_json(200, board(3))
        elif url.path == "/v1/pools/chess/agents/a%2Fb%20c":
            self.send_json(200, {"pool": "chess", "model": query["model"],
                                 "agent": {"agent": "a/b c", "rank": 1, "rating": 1516.0},
                                 "history": [{"sequence": 1, "rating": 1516.0}],
                                 "sequence": 3, "owner": True})
        elif url.path == "/v1/pools/chess/suggest":
            self.send_json(200, {"pool": "chess", "strategy": query["strategy"],
                                 "suggestions": []})
        elif url.path == "/v1/pools/chess/events":
            # The first connection sends two events and drops; the next, the one after the
            # Last-Event-ID it brings.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            first = 1 if last is None else int(last) + 1
            for sequence in range(first, first + 2):
                data = json.dumps(board(sequence))
                self.wfile.write((": keep-alive\n\nevent: leaderboard\nid: %d\ndata: %s\n\n"
                                  % (sequence, data)).encode())
            self.wfile.flush()
        else:
            self.send_json(404, {"error": "pool '%s' is not held here" % url.path})


@pytest.fixture
def server():
    Handler.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_pools_leaderboards_and_suggestions(server):
    client = ratingd.Client(server + "/", timeout=5)
    assert client.pools()[0]["pool"] == "chess"
    got = client.leaderboard("chess", "elo", limit=2)
    assert got.to_dict()["sequence"] == 3 and got.to_dict()["committed_at"].endswith("Z")
    assert list(got.to_pandas()["agent"]) == ["a", "b"]
    assert client.suggest("chess", "ml", n=4, seed=7)["strategy"] == "ml"
    assert Handler.seen[1] == ("/v1/pools/chess/leaderboard", {"model": "elo", "limit": "2"}, None)
    assert Handler.seen[2][1] == {"strategy": "ml", "n": "4", "seed": "7"}
    with pytest.raises(ValueError, match=r"ratingd answered 404: pool '.*go.*' is not held"):
        client.leaderboard("go")
    # An agent's name is one path segment however it is spelled.
    got = client.agent("chess", "a/b c", model="glicko2")
    assert got["history"] == [{"sequence": 1, "rating": 1516.0}]
    assert Handler.seen[-1][:2] == ("/v1/pools/chess/agents/a%2Fb%20c", {"model": "glicko2"})


def test_events_resume_after_a_drop_with_last_event_id(server):
    client = ratingd.Client(server, timeout=5)
    stream = client.events("chess", "elo", limit=10, retry=0.05)
    sequences = [next(stream).to_dict()["sequence"] for _ in range(5)]
    assert sequences == [1, 2, 3, 4, 5]
    events = [s for s in Handler.seen if s[0] == "/v1/pools/chess/events"]
    assert [s[2] for s in events[:3]] == [None, "2", "4"]
    assert events[0][1] == {"model": "elo", "limit": "10"}
