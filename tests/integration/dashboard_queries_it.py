#!/usr/bin/env python3
"""Every query of the Grafana dashboard answers from a real Prometheus scraping a real
ratingd.

    dashboard_queries_it.py --ratingd BIN --ratingctl BIN --prometheus-sh run.sh --root REPO

The broker is the CTest fixture `kafka`. Starts ratingd (the Ratingd class of it_harness.py)
and Debian's Prometheus (deploy/prometheus/run.sh) with deploy/prometheus/rules loaded,
streams a generated sample, then evaluates every panel target of
deploy/grafana/dashboards/ratingd.json, Grafana variables substituted as in
grafana_dashboard_test.py ($__rate_interval -> 30s, $__interval -> 5s, $instance/$pool -> .*),
as an instant query: each must succeed, and every target of a panel marked
`ratingdEssential` must return a non-empty vector; the template variables (label_values)
must list at least one value. Python standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grafana_dashboard_test as dash  # noqa: E402
import it_harness as it  # noqa: E402


def query(url, expr):
    """(ok, result list or error text) of an instant query."""
    status, body = it.http(url + "/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
    try:
        doc = json.loads(body)
    except ValueError:
        return False, "HTTP %d %s" % (status, body[:300])
    if status != 200 or doc.get("status") != "success":
        return False, "HTTP %d %s" % (status, doc.get("error", body[:300]))
    return True, doc["data"]["result"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--prometheus-sh", required=True)
    parser.add_argument("--root", required=True)
    it.ARGS = parser.parse_args()
    root = it.ARGS.root
    _, dashboard = dash.load_dashboard(root)
    targets = dash.queries(dashboard)
    it.check(len(targets) > 0, "no queries in the dashboard")

    # Snapshots every 2 s and an ML solve every 20 results so that the snapshot and ML
    # panels have data within the test.
    d = it.Ratingd("dashq", extra=["--snapshot-interval=2s", "--ml-solve-every=20",
                                         "--ml-solve-min-interval=0"])
    env = dict(os.environ, PROM_DIR=os.path.join(d.dir, "prometheus"),
               PROM_TARGET="127.0.0.1:%d" % d.metrics_port, PROM_JOB="ratingd",
               PROM_RULES=os.path.join(root, "deploy/prometheus/rules/ratingd.rules.yml"))
    run = it.ARGS.prometheus_sh
    try:
        path = os.path.join(d.dir, "results.jsonl")
        counts = it.generate_jsonl(path, 400, pools=2, agents=8, seed=11)
        d.start()
        subprocess.run(["bash", run, "start", "wait"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        url = subprocess.run(["bash", run, "url"], env=env, check=True, capture_output=True,
                             text=True).stdout.strip()
        # Stream in two halves a few seconds apart, so that rates see more than one scrape.
        with open(path) as f:
            lines = f.readlines()
        half = os.path.join(d.dir, "half.jsonl")
        for part in (lines[:200], lines[200:]):
            with open(half, "w") as f:
                f.writelines(part)
            it.produce(half, d.topics["results"])
            time.sleep(3)
        d.wait_for_results(counts)

        # Every query must succeed at once; essential panels get up to 60 s to show data
        # (scrapes and rule evaluations every second, rate windows need two samples).
        deadline = time.time() + 60
        while True:
            empty = []
            for panel, target, expr in targets:
                ok, result = query(url, expr)
                it.check(ok, "panel %r %s: query failed: %s\n  %s" % (
                    panel["title"], target["refId"], result, expr))
                if panel["ratingdEssential"] and not result:
                    empty.append("panel %r %s: %s" % (panel["title"], target["refId"], expr))
            if not empty:
                break
            if time.time() > deadline:
                it.fail("essential panels without data after 60 s:\n  " + "\n  ".join(empty))
            time.sleep(2)
        # Template variables: label_values(selector, label) must list at least one value.
        for name, (_, selector, label) in dash.variable_queries(dashboard).items():
            status, body = it.http(url + "/api/v1/series?" +
                                   urllib.parse.urlencode({"match[]": selector}))
            it.check(status == 200, "variable %s: series %s: HTTP %d %s" % (
                name, selector, status, body[:300]))
            values = {s.get(label) for s in json.loads(body)["data"]} - {None}
            it.check(values, "variable %s: no value of %s in %s" % (name, label, selector))
        essential = sum(1 for p in dashboard["panels"] if p["ratingdEssential"])
        print("ok: %d dashboard queries succeed against Prometheus scraping ratingd; the %d "
              "essential panels return data" % (len(targets), essential))
    finally:
        subprocess.run(["bash", run, "stop"], env=env)
        d.stop()


if __name__ == "__main__":
    main()
