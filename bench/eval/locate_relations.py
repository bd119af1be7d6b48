#!/usr/bin/env python3
"""How often `locate` puts a relation's handler module in its top three edit picks.

usage: locate_relations.py BINARY TREES_DIR [--template TEXT ...] [--misses] [--cache] [-j N]

For every charm tree under TREES_DIR (one directory per repository, e.g. `git archive HEAD`
of fetched charms), every relation of every charm outside tests whose handlers live in
first-party modules other than src/charm.py (not charm libraries, not vendored copies, not a
catch-all observed for every relation in a loop) is
asked about with each template ("{name}" is the endpoint's name), and counted as found when one
of those modules is among the first three edit picks. The default templates ask with and
without the word "relation", and without any word of a relation's life.

Every call runs with --no-cache unless --cache is given: then the first call in a tree writes
its cache file and the others read it (about ten times faster on hundreds of trees), and the
cache files are removed at the end. -j N asks about N trees at once.
"""
import argparse
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

TEMPLATES = [
    "the {name} relation does not update its data when a unit joins",
    "the {name} does not update its data when a unit joins",
    "the {name} does not update its data after a restart",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("trees")
    ap.add_argument("--template", action="append")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--cache", action="store_true")
    ap.add_argument("-j", type=int, default=1)
    a = ap.parse_args()
    templates = a.template or TEMPLATES
    cache = [] if a.cache else ["--no-cache"]

    def one(repo):
        """(found per template, relations asked, miss lines) for one tree."""
        try:
            return ask(os.path.join(a.trees, repo), repo)
        finally:
            cf = os.path.join(a.trees, repo, ".cantrip-repomap.json")
            if a.cache and os.path.exists(cf):
                os.remove(cf)

    def ask(root, repo):
        found, asked, misses = [0] * len(templates), 0, []
        p = subprocess.run([a.binary, "interfaces", "--root", root, *cache, "--format", "json"], capture_output=True, text=True)
        if p.returncode:
            return found, asked, misses
        for ch in json.loads(p.stdout)["charms"]:
            if ch["dir"].startswith("tests"):
                continue
            for it in ch["interfaces"]:
                if it["kind"] != "relation":
                    continue
                modules = {h["file"] for h in it.get("handlers", [])
                           if not h.get("catch_all") and "lib/charms/" not in h["file"] and ".vendored" not in h["file"]
                           and not h["file"].endswith("src/charm.py") and "tests" not in h["file"]}
                if not modules:
                    continue
                asked += 1
                for k, t in enumerate(templates):
                    text = t.format(name=it["name"])
                    q = subprocess.run([a.binary, "locate", "--root", root, *cache, "--format", "json", text],
                                       capture_output=True, text=True)
                    top = [e["path"] for e in json.loads(q.stdout).get("edit", [])][:3]
                    if modules & set(top):
                        found[k] += 1
                    else:
                        misses.append(f"miss {repo} {it['name']!r} template {k}: want one of {sorted(modules)}, top {top}")
        return found, asked, misses

    found, asked = [0] * len(templates), 0
    with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        for f, n, ms in ex.map(one, sorted(os.listdir(a.trees))):
            found = [x + y for x, y in zip(found, f)]
            asked += n
            if a.misses:
                for m in ms:
                    print(m)
    for k, t in enumerate(templates):
        print(f"{found[k]:3d} / {asked}  {t}")


if __name__ == "__main__":
    main()
