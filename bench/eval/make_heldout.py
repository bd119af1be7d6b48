#!/usr/bin/env python3
"""Draw held-out ranking cases from the git history of fetched charm repositories.

usage: make_heldout.py --mirror DIR [--per-repo 12] [--seed 7] REPO... > cases.jsonl
       make_heldout.py --mirror DIR --verify CASES.jsonl

The dev cases (../shared/eval/dev-cases.jsonl) come from six repositories; weights tuned on
them can fit those six. This draws cases of the same shape from other repositories, so a
change can be checked on charms it was not tuned on. Each case is a first-parent commit of the
default branch; its gold is chosen by the rule that reproduces the dev cases' gold (check it
with --verify ../shared/eval/dev-cases.jsonl):
  - candidate files are .py files outside tests/, docs/ and .github/, and the charm YAML
    (charmcraft, metadata, config, actions) at the repository root;
  - files the commit adds go to "added", the rest (modified or deleted) to "gold";
  - when the commit also edits files outside lib/, a library it adds, modifies or renames is
    left out (a library refresh riding along with a change); a library it deletes is gold;
  - commits with 1 to 4 gold files are kept.
Commits are sampled at random with a fixed seed, so the same mirrors give the same cases.
Score them with the dev runner:

  python3 ../shared/eval/run_dev_eval.py cases.jsonl cm --mirror DIR

REPO is owner/name as fetched (DIR/<owner>+<name>/repo is its git directory). Nothing here is
committed to this repository: the cases hold other projects' commit messages.
"""
import argparse
import json
import os
import random
import subprocess
import sys

from mirror import git_dir

CHARM_YAML = {"charmcraft.yaml", "metadata.yaml", "config.yaml", "actions.yaml"}


def git(gd, *args):
    return subprocess.run(["git", "--git-dir", gd, *args], capture_output=True, text=True, check=True).stdout


def charm_file(path):
    if path.startswith(("tests/", ".github/", "docs/")) or "/tests/" in path:
        return False
    return path.endswith(".py") or path in CHARM_YAML


def is_lib(path):
    return "/lib/" in "/" + path


def gold_of(gd, parent, commit):
    """The (gold, added) files of a commit, by the rule in the module docstring."""
    rows = []
    for row in git(gd, "diff", "--name-status", parent, commit).splitlines():
        status, *paths = row.split("\t")
        if paths and charm_file(paths[0]):
            rows.append((status[0], paths[0]))
    outside_lib = any(not is_lib(p) for _, p in rows)
    gold, added = [], []
    for status, p in rows:
        if outside_lib and is_lib(p) and status in "AMR":
            continue
        (added if status == "A" else gold).append(p)
    return gold, added


def cases_of(gd, repo):
    out = []
    for line in git(gd, "log", "--first-parent", "--format=%H %P", "HEAD").splitlines():
        commit, *parents = line.split()
        if not parents:
            continue
        try:
            gold, added = gold_of(gd, parents[0], commit)
        except subprocess.CalledProcessError:
            break  # the parent is past a shallow snapshot's history: older commits cannot be read
        if 1 <= len(gold) <= 4:
            text = git(gd, "log", "-1", "--format=%B", commit).strip()[:1200]
            out.append({"repo": repo, "commit": commit, "parent": parents[0], "text": text, "gold": gold, "added": added})
    return out


def verify(path, mirror):
    """Recompute the gold of existing cases; report how many the rule reproduces."""
    same = n = 0
    for line in open(path):
        c = json.loads(line)
        try:
            gold, added = gold_of(f"{mirror}/{c['repo'].replace('/', '+')}/repo", c["parent"], c["commit"])
        except subprocess.CalledProcessError:
            continue
        n += 1
        if sorted(gold) == sorted(c["gold"]) and sorted(added) == sorted(c["added"]):
            same += 1
        else:
            print(f"differs: {c['repo']} {c['commit'][:10]}: rule {gold} {added}, case {c['gold']} {c['added']}", file=sys.stderr)
    print(f"{same} of {n} cases reproduced")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repos", nargs="*")
    ap.add_argument("--verify", metavar="CASES", help="check the gold rule against existing cases instead")
    ap.add_argument("--mirror", required=True)
    ap.add_argument("--per-repo", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if a.verify:
        verify(a.verify, a.mirror)
        return
    rnd = random.Random(a.seed)
    for repo in a.repos:
        gd = git_dir(a.mirror, repo)
        if os.path.isdir(f"{gd}/.git"):
            gd += "/.git"  # a snapshot with a work tree
        try:
            cands = cases_of(gd, repo)
        except subprocess.CalledProcessError:
            print(f"{repo}: history not readable, skipped", file=sys.stderr)
            continue
        for k in sorted(rnd.sample(range(len(cands)), min(a.per_repo, len(cands)))):
            print(json.dumps(cands[k]))
        print(f"{repo}: {len(cands)} candidate commits", file=sys.stderr)


if __name__ == "__main__":
    main()
