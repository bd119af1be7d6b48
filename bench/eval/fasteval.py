#!/usr/bin/env python3
"""A fast loop over ranking cases: export each case's tree once, then score a binary in seconds.

usage: fasteval.py export CASES.jsonl DIR --mirror MIRROR   (once per case file)
       fasteval.py run    CASES.jsonl DIR BINARY [--out ROWS.jsonl] [--explain] [--locate]
       fasteval.py diff   ROWS_A.jsonl ROWS_B.jsonl           (cases whose first hit or recall moved)

The official runner (../shared/eval/run_dev_eval.py) exports every case's tree from git for
every run, one case at a time. This keeps the trees in DIR/<case index>/ and runs the binary on
two cases at a time, with --no-cache, so a weight change is scored on the 69 dev cases and 84
held-out cases (make_heldout.py) in about 20 seconds. The metrics are the runner's: recall of
the edited files among those shown in a 1500-token map, hit@5, reciprocal rank of the first
edited file, and the same over the "off-hub" cases that leave src/charm.py alone. Confirm a
result with the official runner before recording it.

`run --explain` also keeps every file's signals in ROWS.jsonl ("files"): enough to re-score the
cases offline under other weights, by re-applying rank.files' formula to the signals (PageRank,
class factors, hub lead, the BM25 factor ln(f)/2 = s/max).

`run --locate` scores `locate TEXT` instead: the ranking is its edit picks (at most 5) then its
read picks, and recall is the share of edited files among the edit picks. Files under a tests/
folder are left out of the picks: the case sets leave them out of the edited files, so such a
pick (`locate` names tests when the task is about them) could only count as a miss.
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from mirror import git_dir


def load(cases):
    return [json.loads(line) for line in open(cases)]


def export(a):
    for i, c in enumerate(load(a.cases)):
        dest = os.path.join(a.dir, str(i))
        if os.path.isdir(dest):
            continue
        gd = git_dir(a.mirror, c["repo"])
        try:
            tar = subprocess.run(["git", "--git-dir", gd, "archive", c["parent"]], capture_output=True, check=True).stdout
        except subprocess.CalledProcessError:
            print(f"skip {i} {c['repo']} {c['parent'][:10]}: not in the fetched history", file=sys.stderr)
            continue
        os.makedirs(dest)
        subprocess.run(["tar", "-x", "-C", dest], input=tar, check=True)


def is_test(p):
    """A file under a tests/ folder, which make_heldout.py (like the dev cases) leaves out of the gold."""
    return p.startswith("tests/") or "/tests/" in p


def run(a):
    cases = load(a.cases)

    def one(i):
        c, root = cases[i], os.path.join(a.dir, str(i))
        if not os.path.isdir(root):
            return None
        gold = [g for g in c["gold"] if os.path.exists(os.path.join(root, g))]
        if not gold:
            return None
        if a.locate:
            cmd = [a.binary, "locate", "--root", root, "--format", "json", "--no-cache", "--", c["text"]]
        else:
            cmd = [a.binary, "map", "--root", root, "--full", "--tokens", "1500", "--mention", c["text"], "--format", "json", "--no-cache"]
        p = subprocess.run(cmd + (["--explain"] if a.explain else []), capture_output=True, text=True)
        off = not any(g.endswith("src/charm.py") for g in gold)
        if p.returncode:
            return {"i": i, "repo": c["repo"], "gold": gold, "off": off, "error": p.stderr[-300:], "rec": 0, "h5": 0, "rr": 0, "first": None}
        if a.locate:  # the edit picks, then the read picks; recall is "an edited file among the edit picks"
            doc = json.loads(p.stdout)
            files = [{"path": e["path"], "shown": True} for e in doc["edit"]] + [{"path": e["path"]} for e in doc["read"]]
            files = [f for f in files if not is_test(f["path"])]
        else:
            files = json.loads(p.stdout)["files"]
        ranking = [f["path"] for f in files]
        shown = {f["path"] for f in files if f.get("shown")}
        ranks = [ranking.index(g) + 1 for g in gold if g in ranking]
        row = {"i": i, "repo": c["repo"], "gold": gold, "off": off, "text": c["text"][:100],
               "rec": sum(g in shown for g in gold) / len(gold), "h5": int(bool(ranks) and min(ranks) <= 5),
               "rr": 1 / min(ranks) if ranks else 0, "first": min(ranks) if ranks else None, "top5": ranking[:5]}
        if a.explain:
            row["files"] = [{"path": f["path"], "score": f["score"], "shown": f.get("shown", False),
                             "sig": {s["name"]: s["value"] for s in f.get("signals", [])}} for f in files]
        return row

    with ThreadPoolExecutor(2) as ex:
        rows = [r for r in ex.map(one, range(len(cases))) if r]
    for label, sub in (("all", rows), ("off-hub", [r for r in rows if r["off"]])):
        n = max(len(sub), 1)
        print(f"{label}: cases={len(sub)} recall={sum(r['rec'] for r in sub) / n:.3f} hit@5={sum(r['h5'] for r in sub) / n:.3f} "
              f"MRR={sum(r['rr'] for r in sub) / n:.3f} errors={sum('error' in r for r in sub)}")
    if a.out:
        with open(a.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


def diff(a):
    old = {r["i"]: r for r in map(json.loads, open(a.a))}
    for r in map(json.loads, open(a.b)):
        o = old.get(r["i"])
        if o and (o["first"] != r["first"] or abs(o["rec"] - r["rec"]) > 1e-9):
            print(f"{r['i']} {r['repo']} {'off-hub' if r['off'] else 'hub'}: rank {o['first']} -> {r['first']}, "
                  f"recall {o['rec']:.2f} -> {r['rec']:.2f}; top {r['top5'][:3]}; {r.get('text', '')[:60]!r}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export")
    e.add_argument("cases")
    e.add_argument("dir")
    e.add_argument("--mirror", required=True)
    r = sub.add_parser("run")
    r.add_argument("cases")
    r.add_argument("dir")
    r.add_argument("binary")
    r.add_argument("--out")
    r.add_argument("--explain", action="store_true")
    r.add_argument("--locate", action="store_true", help="score `locate`'s picks (edit, then read) instead of the map")
    d = sub.add_parser("diff")
    d.add_argument("a")
    d.add_argument("b")
    a = ap.parse_args()
    if a.cmd == "run" and a.locate and a.explain:
        ap.error("--explain keeps the map's signals; locate's picks have none (use one or the other)")
    {"export": export, "run": run, "diff": diff}[a.cmd](a)


if __name__ == "__main__":
    main()
