#!/usr/bin/env python3
"""How well --focus brings up the other files of a change.

usage: focus.py CASES.jsonl DIR BINARY [--mention] [--baseline]

DIR holds the case trees exported by fasteval.py (DIR/<case index>/). For every case whose
change edited two or more first-party files (source or charm YAML; not tests, not vendored
libraries) present in the tree, each of those files in turn is the focus, as if the agent were
editing it, and the others are what it still has to find: the rank of the first of them among
the files other than the focus (MRR) and whether one is in the first five (hit@5). Without
--mention the task text is not given, so the figure is the focus alone; --baseline runs the
same without --focus (the focused file still left out of the ranking), to see what focus adds.
"""
import argparse
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor


def first_party(p):
    return not (p.startswith("tests/") or "/tests/" in p or "lib/charms/" in p or p.endswith("conftest.py"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("dir")
    ap.add_argument("binary")
    ap.add_argument("--mention", action="store_true")
    ap.add_argument("--baseline", action="store_true")
    a = ap.parse_args()
    cases = [json.loads(l) for l in open(a.cases)]
    jobs = []
    for i, c in enumerate(cases):
        root = os.path.join(a.dir, str(i))
        gold = [g for g in c["gold"] if first_party(g) and os.path.exists(os.path.join(root, g))]
        if len(gold) >= 2:
            jobs += [(i, root, g, [o for o in gold if o != g], c["text"]) for g in gold]

    def one(job):
        i, root, focus, others, text = job
        cmd = [a.binary, "map", "--root", root, "--full", "--tokens", "1500", "--format", "json", "--no-cache"]
        if not a.baseline:
            cmd += ["--focus", focus]
        if a.mention:
            cmd += ["--mention", text]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            return None
        ranking = [f["path"] for f in json.loads(p.stdout)["files"] if f["path"] != focus]
        ranks = [ranking.index(o) + 1 for o in others if o in ranking]
        return min(ranks) if ranks else None

    with ThreadPoolExecutor(2) as ex:
        firsts = list(ex.map(one, jobs))
    n = max(len(firsts), 1)
    print(f"focus cases={len({j[0] for j in jobs})} runs={len(jobs)} "
          f"hit@5={sum(1 for f in firsts if f and f <= 5) / n:.3f} "
          f"MRR={sum(1 / f for f in firsts if f) / n:.3f}")


if __name__ == "__main__":
    main()
