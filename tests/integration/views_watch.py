"""A watcher of ratingd's pool list, for integration tests: polls `/v1/pools` on its own
thread and records every pool whose committed result count went back between two answers
(a view never shows a state older than one it showed before, docs/ARCHITECTURE.md §3).
Python standard library only."""

import json
import threading
import urllib.error
import urllib.request


class PoolsWatcher:
    def __init__(self, http_port, every=0.02):
        self._url = "http://127.0.0.1:%d/v1/pools" % http_port
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.answers = 0
        self.backwards = []  # (pool, count before, count after)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        last = {}
        while not self._stop.wait(self._every):
            try:
                with urllib.request.urlopen(self._url, timeout=5) as r:
                    pools = json.loads(r.read())["pools"]
            except (urllib.error.URLError, OSError, ValueError):
                continue  # not up yet, or restoring: nothing to compare
            self.answers += 1
            for p in pools:
                count = int(p["results"])
                if count < last.get(p["pool"], 0):
                    self.backwards.append((p["pool"], last[p["pool"]], count))
                last[p["pool"]] = count
