"""Client: a running ratingd's HTTP API (docs/CONTRACTS.md §3.2-3.3) from the standard
library: pools, leaderboards, agents' histories, suggestions and the event streams."""
import json
import time
import urllib.error
import urllib.parse
import urllib.request

from ._leaderboard import Leaderboard


class Client:
    """ratingd at `url` (http://host:port of --http-address). Any instance answers any pool.
    HTTP errors raise ValueError with ratingd's error message and status."""

    def __init__(self, url, timeout=10.0):
        if not isinstance(url, str):
            raise TypeError("url: a string, not %s" % type(url).__name__)
        self.url = url.rstrip("/")
        self.timeout = timeout

    def pools(self):
        """The pool list: [{pool, partition, agents, results, owner, models}]."""
        return self._get("/v1/pools")["pools"]

    def leaderboard(self, pool, model="elo", limit=None):
        """The pool's leaderboard of `model` (elo, sco, ml), with its `sequence` and
        `committed_at` in to_dict()."""
        return Leaderboard(self._get(self._board_path(pool, "leaderboard", model, limit)))

    def agent(self, pool, agent, model="elo"):
        """One agent's entry in the pool's leaderboard of `model` and, from the instance
        that owns the pool, its rating history: {agent, history: [{sequence, time, rating,
        ci_low, ci_high}], sequence, committed_at, owner, ...} (docs/CONTRACTS.md §3.2)."""
        return self._get("/v1/pools/%s/agents/%s?%s" % (
            urllib.parse.quote(pool, safe=""), urllib.parse.quote(agent, safe=""),
            urllib.parse.urlencode({"model": model})))

    def suggest(self, pool, strategy="ucb", n=None, exploration=None, seed=None):
        """The next matches to play in `pool`, as ratingd suggests them (a dict)."""
        query = {"strategy": strategy}
        for key, value in (("n", n), ("exploration", exploration), ("seed", seed)):
            if value is not None:
                query[key] = value
        return self._get("/v1/pools/%s/suggest?%s" % (
            urllib.parse.quote(pool, safe=""), urllib.parse.urlencode(query)))

    def events(self, pool, model="elo", limit=None, retry=1.0):
        """The leaderboards of the pool's event stream as they come (an endless iterator):
        the current one at once, then each newer one. A dropped stream is reopened after
        `retry` seconds with Last-Event-ID, so no leaderboard is given twice."""
        path = self._board_path(pool, "events", model, limit)
        last = None
        while True:
            headers = {"Accept": "text/event-stream"}
            if last is not None:
                headers["Last-Event-ID"] = last
            request = urllib.request.Request(self.url + path, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=max(self.timeout, 30.0)) as stream:
                    for event_id, name, data in _events(stream):
                        if name == "leaderboard":
                            last = event_id
                            yield Leaderboard(json.loads(data))
            except urllib.error.HTTPError as e:
                raise _error(e) from None
            except OSError:
                pass  # dropped or timed out: reconnect
            time.sleep(retry)

    def _board_path(self, pool, kind, model, limit):
        query = {"model": model}
        if limit is not None:
            query["limit"] = limit
        return "/v1/pools/%s/%s?%s" % (urllib.parse.quote(pool, safe=""), kind,
                                       urllib.parse.urlencode(query))

    def _get(self, path):
        try:
            with urllib.request.urlopen(self.url + path, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as e:
            raise _error(e) from None


def _error(e):
    try:
        message = json.loads(e.read()).get("error", "")
    except (ValueError, OSError):
        message = ""
    return ValueError("ratingd answered %d: %s" % (e.code, message or e.reason))


def _events(stream):
    """(id, event, data) of each Server-Sent Event of a response, comments skipped."""
    event_id, name, data = None, None, []
    for raw in stream:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield event_id, name, "\n".join(data)
            name, data = None, []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                event_id = value
            elif field == "event":
                name = value
            elif field == "data":
                data.append(value)
