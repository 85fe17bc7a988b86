#!/usr/bin/env python3
"""Simulated evaluations from a benchmark table with mean±std scores (the Agent57 table,
tests/data/atari/atari_agent57_table.txt): each result is one episode of a random game
played by 2-4 random agents, each scoring Normal(mean, std) (std 5% of the mean when the
table gives none), ranked by score. Prints GameResult JSONL (docs/CONTRACTS.md §1) on stdout.

    simulate_evaluations.py TABLE --results N [--seed S] [--pool P]
"""
import argparse
import json
import random
import re


def read_table(path):
    agents, games = None, []
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            words = line[1:].split()
            if words and words[0] == "game":
                agents = words[1:]
            continue
        cells = line.split()
        scores = []
        for cell in cells[1:]:
            m = re.match(r"^(-?[\d,.]+)(?:±([\d,.]+))?$", cell)
            if not m:
                scores.append(None)
                continue
            mean = float(m.group(1).replace(",", ""))
            std = float(m.group(2).replace(",", "")) if m.group(2) else abs(mean) * 0.05
            scores.append((mean, std))
        games.append((cells[0], scores))
    return agents, games


def main():
    p = argparse.ArgumentParser()
    p.add_argument("table")
    p.add_argument("--results", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pool", default="atari57")
    a = p.parse_args()
    agents, games = read_table(a.table)
    rng = random.Random(a.seed)
    for i in range(a.results):
        game, scores = rng.choice(games)
        players = [j for j in rng.sample(range(len(agents)), rng.randint(2, 4))
                   if j < len(scores) and scores[j] is not None]
        if len(players) < 2:
            continue
        drawn = {j: rng.gauss(*scores[j]) for j in players}
        players.sort(key=lambda j: -drawn[j])
        print(json.dumps({
            "pool": a.pool, "game_id": "sim-%d-%d" % (a.seed, i), "task": game,
            "standings": [{"agent": agents[j], "rank": r + 1, "score": round(drawn[j], 2)}
                          for r, j in enumerate(players)]}))


if __name__ == "__main__":
    main()
