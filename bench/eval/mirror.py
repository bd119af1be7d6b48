"""The git directory of a fetched repository, for the evaluation scripts beside this one.

`fetch` stores most repositories bare, as MIRROR/<owner>+<name>/repo; a few arrive as a work
tree, with their git directory in repo/.git. git --git-dir takes only the git directory itself.
"""
import os


def git_dir(mirror, repo):
    gd = os.path.join(mirror, repo.replace("/", "+"), "repo")
    inner = os.path.join(gd, ".git")
    return inner if os.path.isdir(inner) else gd
