#!/usr/bin/env python3
"""How often the map shows the functions a real change edited.

usage: symbols.py CASES.jsonl DIR BINARY [MIRROR]

DIR holds the case trees exported by fasteval.py (DIR/<case index>/). For each case, the
functions and methods of the edited .py files (gold) whose lines the commit changed are read
from `git diff -U0 parent commit` and the parent's source (Python's ast, names as the map
writes them: "Class.method"); the binary maps the tree as the dev runner does (--full, 1500
tokens, the task text as mention). Printed, for all cases and for those editing fewer than BULK
functions: the share of cases where at least one edited function is shown, the mean share of
edited functions shown, and the share shown among those in files the map shows with symbols
(not a file it names only under "more files:"). The file-level runner says whether the right files are there; this
says whether the right lines of them are.
"""
import ast, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

from mirror import git_dir


def changed_symbols(gd, parent, commit, path, src):
    d=subprocess.run(['git','--git-dir',gd,'diff','-U0',parent,commit,'--',path],capture_output=True,text=True).stdout
    lines=set()
    for m in re.finditer(r'^@@ -(\d+)(?:,(\d+))? ',d,re.M):
        a=int(m.group(1)); n=int(m.group(2)) if m.group(2) is not None else 1
        if n==0: lines.add(a)  # insertion after line a
        lines.update(range(a,a+n))
    try: tree=ast.parse(src)
    except Exception: return set()
    out=set()
    def visit(node,qual):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch,(ast.FunctionDef,ast.AsyncFunctionDef)):
                name=qual+ch.name
                if any(ch.lineno<=l<=ch.end_lineno for l in lines): out.add(name)
            elif isinstance(ch,ast.ClassDef):
                visit(ch,qual+ch.name+'.')
    visit(tree,'')
    return out
def main(cases_path, dirroot, binary, mirror='/work/.mirror'):
    cases=[json.loads(l) for l in open(cases_path)]
    def one(i):
        c=cases[i]; root=os.path.join(dirroot,str(i))
        if not os.path.isdir(root): return None
        gd = git_dir(mirror, c["repo"])
        want={}
        for g in c['gold']:
            p=os.path.join(root,g)
            if g.endswith('.py') and os.path.exists(p):
                s=changed_symbols(gd,c['parent'],c['commit'],g,open(p,errors='replace').read())
                if s: want[g]=s
        if not want: return None
        out=subprocess.run([binary,'map','--root',root,'--full','--tokens','1500','--mention',c['text'],'--format','json','--no-cache'],capture_output=True,text=True).stdout
        d=json.loads(out)
        shown={(f['path'],s['name']) for f in d['files'] for s in f['symbols'] if s['shown']}
        # files shown with symbols (a file named only under "more files:" shows none)
        blockfiles={f['path'] for f in d['files'] if any(s['shown'] for s in f['symbols'])}
        tot=sum(len(v) for v in want.values())
        got=sum(1 for g,v in want.items() for s in v if (g,s) in shown)
        totf=sum(len(v) for g,v in want.items() if g in blockfiles)
        return dict(i=i, hit=int(got>0), rec=got/tot, totf=totf, gotf=got, bulk=tot>=BULK)
    with ThreadPoolExecutor(2) as ex:
        rows=[r for r in ex.map(one, range(len(cases))) if r]
    def line(label, rows):
        n=len(rows)
        if n == 0:
            return
        hit=sum(r['hit'] for r in rows)/n
        rec=sum(r['rec'] for r in rows)/n
        tf=sum(r['totf'] for r in rows); gf=sum(r['gotf'] for r in rows)
        print(f"{label}: cases={n} any-changed-symbol-shown={hit:.3f} symbol-recall={rec:.3f} in-files-with-symbols-shown={gf}/{tf}={gf/max(tf,1):.3f}")
    line("all", rows)
    line(f"under {BULK} edited functions", [r for r in rows if not r['bulk']])


# BULK edited functions or more make a bulk change (a library refresh, a sync), reported apart:
# it names no function, and its many edits would outweigh the rest in the pooled share.
BULK = 10
if __name__ == '__main__':
    main(*sys.argv[1:])
