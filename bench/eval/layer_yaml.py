#!/usr/bin/env python3
"""Where the map ranks the layer.yaml a change edited, in the held-out sets.

usage: layer_yaml.py BINARY [HELD_DIR] [TREES_DIR] [--mirror MIRROR]

make_heldout.py keeps only Python files and the four charm YAML files as a case's edited
files, so a reactive charm's layer.yaml (where a new relation's interface layer is included)
is never scored. This finds the cases (HELD_DIR/held*.jsonl, default /tmp/h, with their trees
exported by allsets.sh under TREES_DIR, default /tmp/ev) whose commit edited a layer.yaml and
prints its rank in `map --all --mention TEXT` (None: not listed), then how many are listed,
in the top 5 and in the top 10.
"""
import argparse
import glob
import json
import os
import subprocess

from mirror import git_dir


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("held", nargs="?", default="/tmp/h")
    ap.add_argument("trees", nargs="?", default="/tmp/ev")
    ap.add_argument("--mirror", default="/work/.mirror")
    a = ap.parse_args()
    binary, held, trees, mirror = a.binary, a.held, a.trees, a.mirror
    ranks = []
    for f in sorted(glob.glob(f"{held}/held*.jsonl")):
        s = os.path.basename(f)[:-len(".jsonl")]
        for i, line in enumerate(open(f)):
            c = json.loads(line)
            gd = git_dir(mirror, c["repo"])
            files = subprocess.run(["git", "--git-dir", gd, "show", "--name-only", "--format=", c["commit"]],
                                   capture_output=True, text=True).stdout.split()
            edited = [x for x in files if x.endswith("layer.yaml")]
            if not edited or not os.path.isdir(f"{trees}/{s}/{i}"):
                continue
            out = subprocess.run([binary, "map", "--root", f"{trees}/{s}/{i}", "--no-cache", "--all", "--format", "json",
                                  "--mention", c["text"]], capture_output=True, text=True).stdout
            try:
                paths = [x["path"] for x in json.loads(out)["files"]]
            except (ValueError, KeyError):
                paths = []
            found = [paths.index(x) + 1 for x in edited if x in paths]
            r = min(found) if found else None
            ranks.append(r)
            print(s, i, c["repo"], repr(c["text"].splitlines()[0][:50]), "rank", r)
    listed = [r for r in ranks if r]
    print(f"cases {len(ranks)} listed {len(listed)} top5 {sum(r <= 5 for r in listed)} top10 {sum(r <= 10 for r in listed)}")


if __name__ == "__main__":
    main()
