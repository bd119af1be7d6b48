#!/usr/bin/env python3
"""Draw held-out ranking cases from the git history of fetched charm repositories.

usage: make_heldout.py --mirror DIR [--per-repo 12] [--seed 7] REPO... > cases.jsonl

The dev cases (../shared/eval/dev-cases.jsonl) come from six repositories; weights tuned on
them can fit those six. This draws cases of the same shape from other repositories, so a
change can be checked on charms it was not tuned on. Each case is a first-parent commit of the
default branch whose edited charm files (.py outside tests, and the charm's YAML: charmcraft,
metadata, config, actions) number 1 to 4; gold is those files as they existed at the parent,
files the commit added go to "added". Commits are sampled evenly at random with a fixed seed,
so the same mirrors give the same cases. Score them with the dev runner:

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

CHARM_YAML = {"charmcraft.yaml", "metadata.yaml", "config.yaml", "actions.yaml"}


def git(gd, *args):
    return subprocess.run(["git", "--git-dir", gd, *args], capture_output=True, text=True, check=True).stdout


def charm_file(path):
    if path.startswith(("tests/", ".github/", "docs/")) or "/tests/" in path:
        return False
    return path.endswith(".py") or os.path.basename(path) in CHARM_YAML


def cases_of(gd, repo):
    out = []
    for line in git(gd, "log", "--first-parent", "--format=%H %P", "HEAD").splitlines():
        commit, *parents = line.split()
        if not parents:
            continue
        gold, added = [], []
        for row in git(gd, "diff", "--name-status", parents[0], commit).splitlines():
            status, *paths = row.split("\t")
            if paths and charm_file(paths[-1]):
                (added if status.startswith("A") else gold).append(paths[-1])
        if 1 <= len(gold) <= 4:
            text = git(gd, "log", "-1", "--format=%B", commit).strip()[:1200]
            out.append({"repo": repo, "commit": commit, "parent": parents[0], "text": text, "gold": gold, "added": added})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--mirror", required=True)
    ap.add_argument("--per-repo", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    for repo in a.repos:
        cands = cases_of(f"{a.mirror}/{repo.replace('/', '+')}/repo", repo)
        for k in sorted(rnd.sample(range(len(cands)), min(a.per_repo, len(cands)))):
            print(json.dumps(cands[k]))
        print(f"{repo}: {len(cands)} candidate commits", file=sys.stderr)


if __name__ == "__main__":
    main()
