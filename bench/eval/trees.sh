#!/bin/bash
# trees.sh [OUT]: export the newest tree of every repository fetched into $MIRROR (default
# /work/.mirror) as OUT/<owner>+<name> (default /tmp/trees) with `git archive HEAD`: the corpus
# chkall.sh and mapall.sh run over. Trees already exported are kept. Some snapshots lack their
# largest blobs, which stops `git archive`: those trees are written file by file without them.
set -euo pipefail
out=${1:-/tmp/trees} MIRROR=${MIRROR:-/work/.mirror}
mkdir -p "$out"
for m in "$MIRROR"/*/repo; do
  name=$(basename "$(dirname "$m")")
  [[ -d "$out/$name" ]] && continue
  git=$m; [[ -d "$m/.git" ]] && git=$m/.git
  mkdir -p "$out/$name.part"
  if ! git --git-dir="$git" archive HEAD 2>/dev/null | tar -x -C "$out/$name.part" 2>/dev/null; then
    rm -rf "$out/$name.part"; mkdir -p "$out/$name.part"
    python3 - "$git" "$out/$name.part" <<'PY'
import os, subprocess, sys
gd, dest = sys.argv[1:]
ls = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True).stdout
missing = 0
for ent in ls.split(b"\0"):
    if not ent:
        continue
    meta, path = ent.split(b"\t", 1)
    mode, kind, oid = meta.split()
    if kind != b"blob":
        continue
    r = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", oid], capture_output=True)
    if r.returncode:
        missing += 1
        continue
    p = os.path.join(dest, os.fsdecode(path))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if mode == b"120000":
        os.symlink(os.fsdecode(r.stdout), p)
        continue
    with open(p, "wb") as f:
        f.write(r.stdout)
    if mode == b"100755":
        os.chmod(p, 0o755)
print(f"{os.path.basename(dest)[:-5]}: {missing} missing blobs left out", file=sys.stderr)
PY
  fi
  mv "$out/$name.part" "$out/$name"
done
ls "$out" | wc -l
