#!/usr/bin/env python3
"""Independent reference implementation of online Elo and SCO (docs/MODELS.md §2, §3).

Written from the model definitions alone, in plain Python floats, to check `ratingctl rate` on
inputs neither has seen. Usage:
  online_models.py generate SEED N_RESULTS OUT.jsonl   random results with ties and weights
  online_models.py check METHOD FILE.jsonl REPORT.json [key=value ...]
The check exits 1 naming the first agent whose rating differs by more than 1e-9 relative.
"""
import json
import math
import random
import sys


def elo(results, k=32.0, initial=1500.0):
    r = {}
    for agents, ranks, w in results:
        for a in agents:
            r.setdefault(a, initial)
        n = len(agents)
        delta = {a: 0.0 for a in agents}
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                ri, rj = r[agents[i]], r[agents[j]]
                expected = 1.0 / (1.0 + 10.0 ** ((rj - ri) / 400.0))
                actual = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                delta[agents[i]] += k / (n - 1) * w * (actual - expected)
        for a in agents:
            r[a] += delta[a]
    return r


def sco(results, alpha=0.1, tau=1.0, min=0.0, max=100.0):  # noqa: A002 (parameter names)
    theta = {}
    for agents, ranks, w in results:
        for a in agents:
            theta.setdefault(a, (min + max) / 2.0)
        grad = {a: 0.0 for a in agents}
        for i in range(len(agents)):
            for j in range(len(agents)):
                if ranks[i] < ranks[j]:  # agents[i] strictly above agents[j]
                    a, b = agents[i], agents[j]
                    s = 1.0 / (1.0 + math.exp(-(theta[b] - theta[a]) / tau))
                    grad[a] += alpha * w * s * (1.0 - s) / tau
                    grad[b] -= alpha * w * s * (1.0 - s) / tau
        for a in agents:
            theta[a] = max if theta[a] + grad[a] > max else min if theta[a] + grad[a] < min else theta[a] + grad[a]
    return theta


def read_jsonl(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                m = json.loads(line)
                s = m["standings"]
                out.append(([x["agent"] for x in s], [x["rank"] for x in s], m.get("weight", 1.0)))
    return out


def generate(seed, count, path):
    rng = random.Random(seed)
    agents = ["agent-%d" % i for i in range(60)]
    skill = {a: rng.gauss(0, 1) for a in agents}
    with open(path, "w") as f:
        for g in range(count):
            k = rng.choice([2, 2, 2, 3, 4, 7])
            players = rng.sample(agents, k)
            perf = {p: skill[p] + rng.gauss(0, 1) for p in players}
            # Round performances so that ties happen.
            rounded = {p: round(perf[p] * 2) for p in players}
            standings = [{"agent": p, "rank": 1 + sum(rounded[q] > rounded[p] for q in players)} for p in players]
            msg = {"pool": "ref", "gameId": "g%d" % g, "standings": standings}
            if rng.random() < 0.3:
                msg["weight"] = rng.choice([0.5, 2.0, 3.25])
            f.write(json.dumps(msg) + "\n")


def check(method, data_path, report_path, params):
    kwargs = {k: float(v) for k, v in (p.split("=", 1) for p in params)}
    expected = {"elo": elo, "sco": sco}[method](read_jsonl(data_path), **kwargs)
    with open(report_path) as f:
        report = json.load(f)
    got = {x["agent"]: x["rating"] for x in report["ranking"]}
    if set(got) != set(expected):
        print("agent sets differ: %s" % sorted(set(got) ^ set(expected)))
        return 1
    for a, want in expected.items():
        if abs(got[a] - want) > 1e-9 * max(1.0, abs(want)):
            print("%s %s: ratingctl %r, reference %r" % (method, a, got[a], want))
            return 1
    print("%s: %d agents agree with the reference to 1e-9" % (method, len(got)))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
