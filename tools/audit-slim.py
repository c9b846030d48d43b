#!/usr/bin/env python3
"""An audit record whose bulky fields (`answers`, `evidence`, `features`)
another committed record already holds, kept without them (reports/SCHEMA.md
"Slim audit records"; reports/record_slim.c puts them back when it is read).

  tools/audit-slim.py REFERENCE.jsonl.gz FULL.jsonl.gz OUT.jsonl.gz
      Writes FULL with, for each of those fields an object has, FIELD_sha256:
      the sha256 of the field's value in canonical form (compact JSON, keys
      sorted, as jansson's JSON_COMPACT|JSON_SORT_KEYS writes it). Where
      REFERENCE's object of the same instruction has a value of that hash,
      FULL's is left out (the hash takes its place); otherwise it stays, the
      hash after it. The header gains `slim` {`from` (REFERENCE's file name,
      beside OUT), `fields`, `by`, `full_sha256` (of FULL's lines)}. Every
      other byte is kept. gzip -9, no name or time.
  tools/audit-slim.py --restore REFERENCE.jsonl.gz SLIM.jsonl.gz
      Puts the values back from REFERENCE (their bytes as REFERENCE has
      them), takes the hashes and `slim` off, and checks the result's sha256
      against `slim.full_sha256`: exit 0 when FULL comes back byte for byte,
      1 otherwise.

tests/test_reaudits.c checks every hash against the value it stands for.
Standard library only.
"""
import gzip
import hashlib
import json
import os
import sys

from tcscope_records import RecordError, raw_lines

DEC = json.JSONDecoder()
FIELDS = ("evidence", "features", "answers")


def canonical_sha256(value):
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def field_span(line, field):
    """(start, end) of the top-level `"field":VALUE` in the object line, or None."""
    o = json.loads(line)
    if field not in o:
        return None
    key = ('"%s":' % field).encode()
    text = line.decode()
    at = 0
    while True:   # the top-level key: the one whose value parses to the object's
        at = line.find(b"," + key, at)
        if at < 0:
            return None
        start = len(line[:at].decode()) + 1
        value, end = DEC.raw_decode(text, start + len(key.decode()))
        if value == o[field]:
            return len(text[:start].encode()), len(text[:end].encode())
        at += 1


def reference_values(path):
    """(instr, field) -> (canonical sha256, raw bytes of `"field":VALUE`)."""
    out = {}
    for line in raw_lines(path)[1][1:]:
        o = json.loads(line)
        for field in FIELDS:
            span = field_span(line, field) if "instr" in o else None
            if span:
                out[o["instr"], field] = (canonical_sha256(o[field]), line[span[0]:span[1]])
    return out


def write_gz(path, data):
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
        f.write(data)


def slim(ref_path, full_path, out_path):
    ref = reference_values(ref_path)
    data, lines = raw_lines(full_path)
    header = json.loads(lines[0])
    if header.get("schema") != "tcscope-record/1" or "slim" in header:
        sys.exit("%s: not a full tcscope-record/1 audit record" % full_path)
    note = {"from": os.path.basename(ref_path), "fields": list(FIELDS), "by": "tools/audit-slim.py",
            "full_sha256": hashlib.sha256(data).hexdigest()}
    out = [lines[0][:-1] + b',"slim":' + json.dumps(note, separators=(",", ":")).encode() + b"}"]
    dropped = {f: 0 for f in FIELDS}
    kept = {f: 0 for f in FIELDS}
    for line in lines[1:]:
        o = json.loads(line)
        for field in FIELDS:
            span = field_span(line, field) if "instr" in o else None
            if not span:
                continue
            h = canonical_sha256(o[field])
            tag = ('"%s_sha256":"%s"' % (field, h)).encode()
            if ref.get((o["instr"], field), (None,))[0] == h:
                line = line[:span[0]] + tag + line[span[1]:]
                dropped[field] += 1
            else:
                line = line[:span[1]] + b"," + tag + line[span[1]:]
                kept[field] += 1
        out.append(line)
    write_gz(out_path, b"\n".join(out) + b"\n")
    print("%s: left out (equal to %s's) %s; kept (different) %s" % (
        out_path, os.path.basename(ref_path), dropped, kept))


def restore(ref_path, slim_path):
    ref = reference_values(ref_path)
    _, lines = raw_lines(slim_path)
    header = json.loads(lines[0])
    note = header.get("slim")
    if not isinstance(note, dict):
        sys.exit("%s: not a slim record" % slim_path)
    cut = b',"slim":' + json.dumps(note, separators=(",", ":")).encode()
    out = [lines[0].replace(cut, b"")]
    for line in lines[1:]:
        o = json.loads(line)
        for field in note["fields"]:
            h = o.get(field + "_sha256")
            if h is None:
                continue
            tag = ('"%s_sha256":"%s"' % (field, h)).encode()
            if field in o:
                line = line.replace(b"," + tag, b"", 1)
            elif ref.get((o["instr"], field), (None,))[0] == h:
                line = line.replace(tag, ref[o["instr"], field][1], 1)
            else:
                sys.exit("%s: %s: no %s of sha256 %s in %s" % (slim_path, o["instr"], field, h, ref_path))
        out.append(line)
    got = hashlib.sha256(b"\n".join(out) + b"\n").hexdigest()
    same = got == note["full_sha256"]
    print("%s: %d lines restored, sha256 %s: %s" % (slim_path, len(out), got,
                                                    "the full record, byte for byte" if same else "DIFFERENT"))
    return 0 if same else 1


def main(argv):
    if len(argv) == 4 and argv[1] == "--restore":
        return restore(argv[2], argv[3])
    if len(argv) == 4:
        return slim(argv[1], argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except RecordError as e:
        sys.exit(str(e))
