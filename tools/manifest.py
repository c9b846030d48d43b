#!/usr/bin/env python3
"""reports/baselines/MANIFEST: every file under reports/baselines/, one line
each, what made it and what reads it (reports/SCHEMA.md "The manifest").

  tools/manifest.py write [--dir DIR] [--manifest FILE]     (make manifest)
      Rewrites the manifest from the files: size and sha256 always; date,
      commit, machine and command from the file's own header or provenance
      where it has one (a tcscope-record/1 header, a JSON document's
      machine/provenance/command, a bench line's machine); read by: the
      tracked files that name it (git grep, test data and fuzz corpora left
      out). A column a file cannot give is kept from the old manifest's line
      of that path (the human columns), else taken from git (the commit that
      added the file, "(committed)"), else "-". The note column is always
      the old manifest's.
  tools/manifest.py check [--dir DIR] [--manifest FILE]     (make data-check, tests/test_manifest.c)
      Exit 1, naming each, when a file under DIR is missing from the
      manifest, a line names a file that is absent, or a size or sha256
      differs; 0 otherwise. Files the manifest says nothing reads are
      listed (not an error).

Lines: tab-separated columns (COLUMNS below); "-" for none; '#' lines are
comments. Standard library only.
"""
import gzip
import hashlib
import json
import lzma
import os
import subprocess
import sys

COLUMNS = ["path", "bytes", "sha256", "date", "commit", "machine", "command", "read_by", "note"]
HEAD = """\
# Every file under reports/baselines/, one line each (reports/SCHEMA.md "The manifest"). `make manifest`
# rewrites it: bytes and sha256 from the files, date/commit/machine/command from each record's own header
# where it has one, read_by from the tracked files that name it; the other columns are kept. `make data-check`
# and tests/test_manifest.c fail when a file is missing here, a line names an absent file, or a hash differs.
# Columns, tab-separated ("-": none): """
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_READERS = ("tests/data/", "tests/fuzz/")


def clean(v):
    v = " ".join(str(v).split()) if v is not None else ""
    return v if v else "-"


def files_under(d, manifest):
    out = []
    for top, dirs, names in os.walk(d):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(top, n)
            if os.path.abspath(p) != os.path.abspath(manifest):
                out.append(os.path.relpath(p, d).replace(os.sep, "/"))
    return sorted(out)


def read_manifest(path):
    lines = {}
    if not os.path.exists(path):
        return lines
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != len(COLUMNS):
                raise SystemExit("%s:%d: %d columns, not %d" % (path, n, len(cols), len(COLUMNS)))
            row = dict(zip(COLUMNS, cols))
            if row["path"] in lines:
                raise SystemExit("%s:%d: %s listed twice" % (path, n, row["path"]))
            lines[row["path"]] = row
    return lines


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def first_json(path):
    """The file's header object: a JSON document's top level, or the first
    line of JSON Lines (gzip-compressed, .jsonl.xz, or not); None when neither."""
    try:
        magic = open(path, "rb").read(6)
        xz = magic == b"\xfd7zXZ\x00" and path.endswith(".jsonl.xz")   # not the packed records (*.packed.xz)
        opener = gzip.open if magic[:2] == b"\x1f\x8b" else lzma.open if xz else open
        with opener(path, "rb") as f:
            head = f.read(1 << 16)
            if path.endswith((".json", ".json.gz")):   # a document, or a record named .json
                head += f.read()
                try:
                    return json.loads(head)
                except ValueError:
                    pass
            return json.loads(head.split(b"\n", 1)[0])
    except (OSError, ValueError, EOFError, lzma.LZMAError):
        return None


def derived(path):
    """date, commit, machine, command from the file's own header."""
    h = first_json(path)
    if not isinstance(h, dict):
        return {}
    m = h.get("machine") if isinstance(h.get("machine"), dict) else {}
    prov = h.get("provenance") if isinstance(h.get("provenance"), dict) else {}
    gpu = h.get("gpu") or m.get("gpu") or h.get("device")
    facts = [x for x in (h.get("driver") or m.get("driver"), h.get("cuda") and "CUDA " + str(h.get("cuda")))
             if x and isinstance(x, str)]
    machine = None
    if gpu and isinstance(gpu, str):
        machine = gpu + (" (" + ", ".join(facts) + ")" if facts else "")
    elif isinstance(h.get("machine"), str):
        machine = h["machine"]
    elif h.get("host_cpu"):
        machine = h["host_cpu"]
    commit = h.get("tcscope_version")
    if not commit and prov.get("committed_in"):
        commit = "%s (committed)" % prov["committed_in"]
    date = h.get("date") or prov.get("committed_on")
    return {k: v for k, v in (("date", date), ("commit", commit), ("machine", machine),
                              ("command", h.get("command"))) if v and isinstance(v, str)}


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""


def added_by_git(path):
    out = git("log", "--diff-filter=A", "--format=%h %cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ",
              "--", os.path.relpath(path, ROOT)).split()
    return {"commit": out[-2] + " (committed)", "date": out[-1]} if len(out) >= 2 else {}


def readers(name, path, manifest):
    self_rel = os.path.relpath(path, ROOT)
    skip = {self_rel, os.path.relpath(manifest, ROOT)}
    found = git("grep", "-l", "-F", "-e", name).split("\n")
    return sorted(f for f in found if f and f not in skip and not f.startswith(NOT_READERS))


def write(d, manifest):
    old = read_manifest(manifest)
    rows = []
    for rel in files_under(d, manifest):
        p = os.path.join(d, rel)
        prev = old.get(rel, {})
        row = {"path": rel, "bytes": str(os.path.getsize(p)), "sha256": sha256_of(p)}
        facts = derived(p)
        git_facts = None
        for col in ("date", "commit", "machine", "command"):
            v = facts.get(col) or (prev.get(col) if prev.get(col, "-") != "-" else None)
            if not v and col in ("date", "commit"):
                git_facts = git_facts if git_facts is not None else added_by_git(p)
                v = git_facts.get(col)
            row[col] = clean(v)
        found = readers(os.path.basename(rel), p, manifest)
        row["read_by"] = clean(" ".join(found)) if found else clean(prev.get("read_by"))
        row["note"] = clean(prev.get("note"))
        rows.append(row)
    with open(manifest + ".tmp", "w", encoding="utf-8") as f:
        f.write(HEAD + " ".join(COLUMNS) + "\n")
        for row in rows:
            f.write("\t".join(row[c] for c in COLUMNS) + "\n")
    os.replace(manifest + ".tmp", manifest)
    unread = [r["path"] for r in rows if r["read_by"] == "-"]
    print("%s: %d files, %d bytes%s" % (os.path.relpath(manifest), len(rows), sum(int(r["bytes"]) for r in rows),
                                        "; read by nothing: " + " ".join(unread) if unread else ""))
    return 0


def check(d, manifest):
    if not os.path.exists(manifest):
        print("%s: absent (make manifest writes it)" % manifest)
        return 1
    rows = read_manifest(manifest)
    present = files_under(d, manifest)
    bad, unread = [], []
    for rel in present:
        row = rows.get(rel)
        if not row:
            bad.append("%s: not in the manifest (make manifest adds it)" % rel)
            continue
        p = os.path.join(d, rel)
        if row["bytes"] != str(os.path.getsize(p)) or row["sha256"] != sha256_of(p):
            bad.append("%s: size or sha256 differs from the manifest's (%s bytes, %s)"
                       % (rel, row["bytes"], row["sha256"][:16]))
        if row["read_by"] == "-":
            unread.append(rel)
    for rel in sorted(set(rows) - set(present)):
        bad.append("%s: in the manifest but absent" % rel)
    for b in bad:
        print(b)
    if unread:   # told, not failed: whether to keep them is a decision, the hashes are facts
        print("read by no tracked file (remove, or cite them): %s" % " ".join(unread))
    print("%s: %d files, %s" % (os.path.relpath(manifest), len(present),
                                "%d problems" % len(bad) if bad else "every file listed, every hash the same"))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2 or argv[1] not in ("write", "check"):
        sys.stderr.write(__doc__)
        return 2
    d, manifest = os.path.join(ROOT, "reports", "baselines"), None
    args = argv[2:]
    while args:
        if args[0] in ("--dir", "--manifest") and len(args) > 1:
            if args[0] == "--dir":
                d = args[1]
            else:
                manifest = args[1]
            args = args[2:]
        else:
            sys.stderr.write(__doc__)
            return 2
    manifest = manifest or os.path.join(d, "MANIFEST")
    return write(d, manifest) if argv[1] == "write" else check(d, manifest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
