#!/usr/bin/env python3
"""How often `locate` names a template the change edited.

usage: locate_templates.py BINARY CASES.jsonl:TREES [CASES.jsonl:TREES ...] [--mirror MIRROR]

For every case (fasteval.py's case files and exported trees, TREES/<case index>/) whose commit
modified, deleted or renamed a template (under a templates/ folder, or with a Jinja extension), runs `locate TEXT --format json` on the tree before
the change and counts the cases where one of its `templates` picks is a modified template
(HIT), and those where it names templates but none the change modified (FALSE). The case sets'
gold holds only Python and charm YAML, so fasteval cannot score this; it reads the commits'
file lists from the fetched repositories (MIRROR, default /work/.mirror).
"""
import argparse
import json
import os
import subprocess

from mirror import git_dir


def is_template(p):
    """templates.IsTemplate, roughly: under a templates/ folder, or a Jinja extension anywhere."""
    ext = os.path.splitext(p)[1].lower()
    if ext in (".py", ".pyc", ".png", ".jpg", ".gif", ".svg", ".gz", ".zip"):
        return False
    return "/templates/" in "/" + p or ext in (".j2", ".jinja", ".jinja2", ".tmpl", ".template")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("specs", nargs="+", metavar="CASES.jsonl:TREES")
    ap.add_argument("--mirror", default="/work/.mirror")
    a = ap.parse_args()
    binary, mirror = a.binary, a.mirror
    total = hit = named = 0
    for spec in a.specs:
        cases, trees = spec.rsplit(":", 1)
        for i, line in enumerate(open(cases)):
            c = json.loads(line)
            if not os.path.isdir(f"{trees}/{i}"):
                continue
            gd = git_dir(mirror, c["repo"])
            status = subprocess.run(["git", "--git-dir", gd, "show", "--name-status", "--format=", c["commit"]],
                                    capture_output=True, text=True).stdout.splitlines()
            # modified, deleted or renamed (the path before the change): what the tree before it holds
            edited = [l.split("\t")[1] for l in status if l[:1] in "MDR" and "\t" in l and is_template(l.split("\t")[1])]
            if not edited:
                continue
            out = subprocess.run([binary, "locate", "--no-cache", "--format", "json", "--root", f"{trees}/{i}", "--", c["text"]],
                                 capture_output=True, text=True).stdout
            picks = [t["path"] for t in json.loads(out).get("templates", [])]
            ok = any(p in edited for p in picks)
            total, hit, named = total + 1, hit + ok, named + bool(picks)
            mark = "HIT" if ok else "FALSE" if picks else ""
            print(f"{os.path.basename(cases)} {i} {c['repo']} | {c['text'].splitlines()[0][:60]} | {picks[:2]} {mark}")
    print(f"cases editing a template: {total}; a modified one named: {hit}; only others named: {named - hit}")


if __name__ == "__main__":
    main()
