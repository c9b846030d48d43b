#!/usr/bin/env python3
"""Bare corpus, chain or dots lines -> a tcscope-record/1 file (reports/SCHEMA.md
"Raw GPU records"), and the proof that nothing else changed.

  tools/lines-to-record.py RECORD IN.jsonl.gz OUT.jsonl.gz
      RECORD: corpus | chains | dots. Writes a header (the run facts of the
      lines: backend, device, driver, cuda, sm, all the same on every line,
      else refused; the seeds in order of first use; the file's provenance:
      the date of the git commit that last wrote IN, else its mtime, the
      name and the sha256 of its lines), every line with "kind" put first
      where it has none ("tiles"; chain and dots lines already begin with
      theirs) and every other byte kept, then the trailer; gzip -9, no name
      or time in the gzip header.
  tools/lines-to-record.py --check RECORD OLD.jsonl.gz NEW.jsonl.gz
      NEW is OLD as a record: a header of RECORD, a trailer counting the
      objects, and each object with its "kind" taken off equal byte for byte
      to OLD's line of the same number. Prints one line of counts and
      sha256s; exit 1 on any difference.

Standard library only. Each file is held in memory (the largest, 17 MB).
"""
import gzip
import hashlib
import json
import os
import subprocess
import sys

from tcscope_records import RecordError, raw_lines
import time

# what each record's objects begin with (the writers, reports/record_*.c)
KIND = {"corpus": b'"kind":"tiles",', "chains": b'"kind":"chain",', "dots": b'"kind":"dots",'}
BARE_HAS_KIND = {"corpus": False, "chains": True, "dots": True}
SCHEMA = "tcscope-record/1"


def provenance_date(path):
    """The date the file was committed (git), else its mtime, UTC ISO 8601."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ",
                              "--", path], capture_output=True, text=True, check=True,
                             env=dict(os.environ, TZ="UTC")).stdout.strip()
        if out:
            return out, "git"
    except (OSError, subprocess.CalledProcessError):
        pass
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(path))), "mtime"


def header_of(record, path, data, lines):
    facts = None
    seeds = []
    for n, line in enumerate(lines, 1):
        o = json.loads(line)
        if record == "dots":
            f = {"backend": "", "gpu": o["gpu"], "driver": "", "cuda": "", "sm": None}
        else:
            f = {"backend": o["backend"], "gpu": o["device"], "driver": o["driver"], "cuda": o["cuda"],
                 "sm": o["sm"] or None}
            s = "0x%x" % o["seed"]
            if s not in seeds:
                seeds.append(s)
        if facts is None:
            facts = f
        elif f != facts:
            sys.exit("%s: line %d says %s, line 1 %s: one record has one run's facts" % (path, n, f, facts))
    date, how = provenance_date(path)
    h = {"schema": SCHEMA, "record": record, "tcscope_version": "unknown (written as bare lines)",
         "date": date, "host": "", "seeds": seeds, "backend": facts["backend"], "gpu": facts["gpu"],
         "driver": facts["driver"], "cuda": facts["cuda"], "compiler": "", "sm": facts["sm"], "sm_count": None,
         "clock_mhz": None,
         "converted": {"from": os.path.basename(path), "by": "tools/lines-to-record.py", "date_from": how,
                       "lines_sha256": hashlib.sha256(data).hexdigest()}}
    return json.dumps(h, separators=(",", ":"), ensure_ascii=False).encode()


def convert(record, src, dst):
    data, lines = raw_lines(src)
    if not lines or lines[0].startswith(b'{"schema":'):
        sys.exit("%s: empty, or a record already" % src)
    out = [header_of(record, src, data, lines)]
    for n, line in enumerate(lines, 1):
        has = line.startswith(b"{" + KIND[record])
        if has != BARE_HAS_KIND[record] or not line.startswith(b"{"):
            sys.exit("%s: line %d does not begin as a bare %s line" % (src, n, record))
        out.append(line if has else b"{" + KIND[record] + line[1:])
    out.append(b'{"kind":"end","objects":%d}' % len(lines))
    blob = gzip.compress(b"\n".join(out) + b"\n", compresslevel=9, mtime=0)
    with open(dst + ".tmp", "wb") as f:
        f.write(blob)
    os.replace(dst + ".tmp", dst)


def check(record, old, new):
    odata, olines = raw_lines(old)
    ndata, nlines = raw_lines(new)
    h = json.loads(nlines[0])
    bad = []
    if h.get("schema") != SCHEMA or h.get("record") != record:
        bad.append("header is not a %s record %s" % (SCHEMA, record))
    if nlines[-1] != b'{"kind":"end","objects":%d}' % (len(nlines) - 2):
        bad.append("trailer is not end with %d objects" % (len(nlines) - 2))
    objs = nlines[1:-1]
    if len(objs) != len(olines):
        bad.append("%d objects for %d lines" % (len(objs), len(olines)))
    added = 0
    for n, (o, line) in enumerate(zip(objs, olines), 1):
        if not o.startswith(b"{" + KIND[record]):
            bad.append("object %d does not begin with its kind" % n)
            continue
        stripped = o if BARE_HAS_KIND[record] else b"{" + o[1 + len(KIND[record]):]
        added += len(o) - len(stripped)
        if stripped != line:
            bad.append("object %d with its kind taken off differs from line %d" % (n, n))
    rebuilt = b"".join((o if BARE_HAS_KIND[record] else b"{" + o[1 + len(KIND[record]):]) + b"\n" for o in objs)
    same = hashlib.sha256(rebuilt).hexdigest() == hashlib.sha256(odata).hexdigest()
    print("%s: %s record, %d objects = %d old lines, bytes added to the lines %d; old lines sha256 %s, "
          "new objects without kind sha256 %s: %s; gz %d -> %d bytes (%+.2f%%)" %
          (os.path.basename(new), record, len(objs), len(olines), added, hashlib.sha256(odata).hexdigest(),
           hashlib.sha256(rebuilt).hexdigest(), "identical" if same and not bad else "DIFFERENT",
           os.path.getsize(old), os.path.getsize(new), 100.0 * (os.path.getsize(new) / os.path.getsize(old) - 1)))
    for b in bad[:20]:
        print("  " + b)
    return 0 if same and not bad else 1


def main(argv):
    if len(argv) == 5 and argv[1] == "--check" and argv[2] in KIND:
        return check(argv[2], argv[3], argv[4])
    if len(argv) == 4 and argv[1] in KIND:
        convert(argv[1], argv[2], argv[3])
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except RecordError as e:
        sys.exit(str(e))
