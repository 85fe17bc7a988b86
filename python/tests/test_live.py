"""OnlinePool and Client against a running ratingd on a real Kafka broker: fed the same
results in the same order, OnlinePool's leaderboards and suggestions equal ratingd's HTTP
answers (expected values: ratingd's own answers, the service the package mirrors). Run by
the test command (tests/run_all.sh) with a broker it starts: RATINGD_LIVE=1, KAFKA_DIR
(the broker's folder, its `bootstrap` file), RATINGD and RATINGCTL (the binaries). Skipped
in the package's other runs."""
import json
import os
import socket
import subprocess
import time

import pytest

import ratingd

pytestmark = pytest.mark.skipif(os.environ.get("RATINGD_LIVE") != "1",
                                reason="needs RATINGD_LIVE=1 and a broker (tests/run_all.sh)")

POOL = "py-live"
RESULTS = 400


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def live(ratingctl, tmp_path_factory):
    """(Client of a ratingd that has applied the file's results, the file's standings)."""
    with open(os.path.join(os.environ["KAFKA_DIR"], "bootstrap")) as f:
        brokers = f.read().strip()
    work = tmp_path_factory.mktemp("live")
    tag = "%x%x" % (int(time.time()), os.getpid())
    topics = {t: "py.%s.%s" % (tag, t) for t in ("results", "deltas", "leaderboards", "dlq")}
    path = str(work / "results.jsonl")
    subprocess.run([ratingctl, "generate", "--model", "plackett-luce", "--out", path, "--seed",
                    "4", "--pool", POOL, "--param", "agents=12", "--param",
                    "tasks=%d" % RESULTS], check=True)
    http_port = _free_port()
    log = open(work / "ratingd.log", "w")
    proc = subprocess.Popen(
        [os.environ["RATINGD"], "--brokers=" + brokers, "--group=py-" + tag,
         "--instance-id=py-" + tag, "--results-topic=" + topics["results"],
         "--deltas-topic=" + topics["deltas"], "--leaderboards-topic=" + topics["leaderboards"],
         "--dlq-topic=" + topics["dlq"], "--topic-partitions=1", "--topic-replication=1",
         "--snapshot-dir=" + str(work / "snapshots"),
         "--http-address=127.0.0.1:%d" % http_port,
         "--metrics-address=127.0.0.1:%d" % _free_port()],
        stdout=log, stderr=subprocess.STDOUT)
    client = ratingd.Client("http://127.0.0.1:%d" % http_port, timeout=5)
    try:
        deadline = time.time() + 90
        while True:
            assert proc.poll() is None, open(work / "ratingd.log").read()[-2000:]
            try:
                client.pools()
                break
            except (ValueError, OSError):
                assert time.time() < deadline, "ratingd never answered"
                time.sleep(0.2)
        subprocess.run([ratingctl, "produce", "--brokers=" + brokers,
                        "--topic=" + topics["results"], "--input=" + path], check=True)
        deadline = time.time() + 60
        while not any(p["pool"] == POOL and p["results"] == RESULTS for p in client.pools()):
            assert time.time() < deadline, client.pools()
            time.sleep(0.2)
        with open(path) as f:
            results = [json.loads(line) for line in f]
        yield client, results
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _pool_of(results, models=("elo", "sco", "ml")):
    pool = ratingd.OnlinePool(pool=POOL, models=models)
    for r in results:
        standings = [s["agent"] for s in sorted(r["standings"], key=lambda s: s["rank"])]
        assert pool.add(standings, game_id=r["gameId"])
    return pool


def test_online_pool_leaderboards_equal_ratingd(live):
    client, results = live
    pool = _pool_of(results)
    for model in ("elo", "sco"):
        online = client.leaderboard(POOL, model).to_dict()
        mine = pool.leaderboard(model).to_dict()
        assert online["sequence"] == RESULTS and online["committed_at"].endswith("Z")
        for field in ("method", "agents", "results", "ranking"):
            assert online[field] == mine[field], (model, field)
        assert all("ci_low" in e for e in online["ranking"])
    # ml: the last scheduled solve's, on the results it had seen.
    online = client.leaderboard(POOL, "ml").to_dict()
    seen = _pool_of(results[:online["results"]]).leaderboard("ml").to_dict()
    for field in ("agents", "results", "ranking"):
        assert online[field] == seen[field], ("ml", field)
    assert online["extra"]["lottery"] == seen["extra"]["lottery"]


def test_suggestions_and_the_event_stream_equal_ratingd(live):
    client, results = live
    pool = _pool_of(results)
    for strategy in ("uniform", "ucb"):
        online = client.suggest(POOL, strategy, n=6, seed=3)
        mine = pool.suggest(strategy, n=6, seed=3)
        assert online["suggestions"] == mine["suggestions"], strategy
    first = next(client.events(POOL, "elo"))
    assert first.to_dict()["ranking"] == pool.leaderboard("elo").to_dict()["ranking"]
    assert first.to_dict()["sequence"] == RESULTS
