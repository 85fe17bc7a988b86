#!/usr/bin/env python3
"""The live leaderboard page (docs/CONTRACTS.md §3.4) in a real browser: Debian's Chromium
driven by Playwright for Python, against a live ratingd on the real broker.

    page_it.py --ratingd BIN --ratingctl BIN --out DIR

Run by page_it.sh with the Python of the virtual environment it creates (Playwright from
PyPI; the browser is Debian's, through its executable path: nothing is downloaded). Checks
that the page loads without a console error, lists the pool's agents in the order the JSON
API gives, changes after new results, shows `reconnecting` while ratingd is down and
recovers after a restart, renders an agent named like markup as text, opens pools whose
names need URL encoding, and shows a pool of 10,000 agents within 200 ms of its data. Saves screenshots to DIR. Expected values come from the JSON API
of the same ratingd and from the input's construction.
"""

import argparse
import json
import os
import sys
import time
import urllib.parse

from playwright.sync_api import sync_playwright

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import it_harness as it  # noqa: E402
from it_harness import check  # noqa: E402

MARKUP = "<img src=x onerror=alert(1)>"
# Pool names a game server may send: a slash, a percent sign, quotes, a control character.
ODD_POOLS = ["team/blitz", "100% \"quoted\" 'pool'", "tab\there\x07bell"]


def results(pool, n, agents, seed, first_id):
    """n two-to-four-player results of `pool` as JSON lines; agent i is stronger with i."""
    import random
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        players = rng.sample(agents, rng.randint(2, min(4, len(agents))))
        players.sort(key=lambda a: -(agents.index(a) + rng.gauss(0, len(agents) / 3)))
        lines.append(json.dumps({"pool": pool, "game_id": "g%d" % (first_id + i), "standings": [
            {"agent": a, "rank": r + 1} for r, a in enumerate(players)]}) + "\n")
    return lines


def produce(d, lines):
    path = os.path.join(d.dir, "batch-%f.jsonl" % time.time())
    with open(path, "w") as f:
        f.writelines(lines)
    it.produce(path, d.topics["results"])


def table_agents(page):
    return page.eval_on_selector_all("#board tbody td.agent",
                                     "cells => cells.map(c => c.firstChild.textContent)")


def wait_for(condition, what, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    it.fail("timed out waiting for " + what)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratingd", required=True)
    parser.add_argument("--ratingctl", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    it.ARGS = parser.parse_args()
    os.makedirs(it.ARGS.out, exist_ok=True)
    d = it.Ratingd("page", ["--ml-solve-every=20", "--ml-solve-min-interval=0"])
    try:
        agents = ["agent-%02d" % i for i in range(12)] + [MARKUP]
        lines = results("arena", 300, agents, 1, 0)
        for k, pool in enumerate(ODD_POOLS):
            lines += results(pool, 30, agents[:5], 10 + k, 10000 * (k + 1))
        # 5,000 two-agent results of 10,000 distinct agents: a pool of 10,000 agents.
        lines += [json.dumps({"pool": "huge", "game_id": "h%d" % i, "standings": [
            {"agent": "huge-%05d" % (2 * i), "rank": 1},
            {"agent": "huge-%05d" % (2 * i + 1), "rank": 2}]}) + "\n" for i in range(5000)]
        d.start()
        produce(d, lines)
        expected = {"arena": 300, "huge": 5000, **{p: 30 for p in ODD_POOLS}}
        d.wait_for_results(expected)
        base = "http://127.0.0.1:%d/" % d.http_port
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=it.ARGS.chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # Console errors, each with whether ratingd was down then (its streams drop: the
            # browser logs their failed connections, which is no error of the page).
            errors, dialogs, down = [], [], [False]
            page.on("console", lambda m: errors.append((down[0], m.text))
                    if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append((False, str(e))))
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            failed = []  # (status, url) of every answer >= 400
            page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400
                    else None)

            # The pool's agents, in the JSON API's order.
            page.goto(base + "?pool=arena&model=elo")
            api = d.get("/v1/pools/arena/leaderboard?model=elo")
            want = [e["agent"] for e in api["ranking"]]
            wait_for(lambda: table_agents(page) == want, "the table in the API's order")
            page.wait_for_selector("#status.live")
            check(page.text_content("#status") == "live", "status: " + page.text_content("#status"))

            # Markup in a name is text: no element made of it, no script run.
            check(MARKUP in table_agents(page), "the markup-named agent is not listed as text")
            check(page.locator("#board img").count() == 0, "an <img> was made from a name")

            # New results change it.
            sequence = page.get_attribute("body", "data-sequence")
            produce(d, results("arena", 100, agents, 2, 50000))
            expected["arena"] = 400
            d.wait_for_results(expected)
            wait_for(lambda: page.get_attribute("body", "data-sequence") == "400",
                     "the page to show the 400th result (was %s)" % sequence)
            api = d.get("/v1/pools/arena/leaderboard?model=elo")
            wait_for(lambda: table_agents(page) == [e["agent"] for e in api["ranking"]],
                     "the table after new results")
            page.screenshot(path=os.path.join(it.ARGS.out, "page.png"), full_page=True)

            # Selecting an agent draws its history, the line and its interval band, with the
            # points the API gives.
            top = table_agents(page)[0]
            history = d.get("/v1/pools/arena/agents/%s?model=elo" %
                            urllib.parse.quote(top, safe=""))["history"]
            page.click("#board tbody td.agent >> nth=0")
            wait_for(lambda: page.get_attribute("#history-chart", "data-points") ==
                     str(len(history)), "the history chart of %r (%d points)" %
                     (top, len(history)))
            check(page.locator("#history-chart polyline.line").count() == 1 and
                  page.locator("#history-chart polygon.band").count() == 1,
                  "the chart has no line or no band")
            check(page.text_content("#history-title") == "%s: elo rating history" % top,
                  page.text_content("#history-title"))
            check(len(history) >= 2 and history[-1]["sequence"] <= 400, "history %s" % history[-1:])
            page.screenshot(path=os.path.join(it.ARGS.out, "page-history.png"), full_page=True)

            # The ml tab: lottery and exploitability.
            page.click("#models button[data-model=ml]")
            wait_for(lambda: "model=ml" in page.url and page.locator(
                "#board tbody tr").count() > 0, "the ml table")
            check("exploitability" in page.text_content("#exploitability"), "no exploitability")
            page.screenshot(path=os.path.join(it.ARGS.out, "page-ml.png"), full_page=True)

            # Pools whose names need encoding open from the URL the page builds.
            for pool in ODD_POOLS:
                page.goto(base + "?" + urllib.parse.urlencode({"pool": pool, "model": "sco"},
                                                             quote_via=urllib.parse.quote))
                want = [e["agent"] for e in d.get("/v1/pools/%s/leaderboard?model=sco" %
                                                  urllib.parse.quote(pool, safe=""))["ranking"]]
                wait_for(lambda: table_agents(page) == want, "the table of pool %r" % pool)
                check(page.eval_on_selector("#pool", "s => s.value") == pool,
                      "the picker shows %r" % page.eval_on_selector("#pool", "s => s.value"))

            # Down: reconnecting; up again: live, and the data back.
            page.goto(base + "?pool=arena&model=sco")
            page.wait_for_selector("#status.live")
            down[0] = True
            d.stop()
            page.wait_for_selector("#status.reconnecting", timeout=15000)
            check(page.text_content("#status") == "reconnecting",
                  "status while down: " + page.text_content("#status"))
            d.start()
            page.wait_for_selector("#status.live", timeout=30000)
            want = [e["agent"] for e in d.get("/v1/pools/arena/leaderboard?model=sco")["ranking"]]
            wait_for(lambda: table_agents(page) == want, "the table after the restart")
            time.sleep(1)  # stray reports of the down time
            down[0] = False

            # A pool of 10,000 agents: the first screen within 200 ms of its data arriving
            # (the event's parse and the render, measured by the page), and the filter
            # finds any agent.
            page.goto(base + "?pool=huge&model=elo")
            wait_for(lambda: page.locator("#board tbody tr").count() == 100,
                     "the first page of the huge pool", timeout=60)
            render_ms = float(page.get_attribute("body", "data-render-ms"))
            page.screenshot(path=os.path.join(it.ARGS.out, "page-10k.png"))
            check(render_ms < 200, "first screen of 10,000 agents took %.1f ms" % render_ms)
            page.fill("#filter", "huge-09999")
            wait_for(lambda: table_agents(page) == ["huge-09999"], "the filter in the huge pool")
            check("1 / 1 (1 agents)" in page.text_content("#page"), page.text_content("#page"))
            page.goto(base + "?pool=arena&model=sco")
            wait_for(lambda: table_agents(page) == want, "back to arena")

            # Filter and sort.
            page.fill("#filter", "agent-0")
            wait_for(lambda: table_agents(page) and all(
                "agent-0" in a for a in table_agents(page)), "the filter")
            page.fill("#filter", "")
            page.click("th[data-key=agent]")
            wait_for(lambda: table_agents(page) == sorted(table_agents(page)) and len(
                table_agents(page)) == len(want), "sorting by agent")
            browser.close()
        # While ratingd was down, failed loads (net::ERR_…, or an answer of the restarting
        # instance) are the streams reconnecting: allowed; nothing else.
        errors = [text for was_down, text in errors
                  if not (was_down and text.startswith("Failed to load resource"))]
        check(not errors, "console errors: %s; answers >= 400: %s" % (errors, failed))
        check(not dialogs, "a dialog opened: %s" % dialogs)
        print("ok: the page shows the API's order live, survives a restart, renders names as "
              "text, shows 10,000 agents' first screen in %.1f ms; screenshots in %s" %
              (render_ms, it.ARGS.out))
    finally:
        d.stop()


if __name__ == "__main__":
    main()
