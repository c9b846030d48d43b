#!/usr/bin/env python3
"""An audit record whose per-case answers another committed record already
holds, kept without them (reports/SCHEMA.md "Slim audit records").

  tools/audit-slim.py REFERENCE.jsonl.gz FULL.jsonl.gz OUT.jsonl.gz
      Writes FULL with, in each object that has `answers`, an
      `answers_sha256`: the sha256 of those answers in canonical form
      (compact JSON, keys sorted, as jansson's JSON_COMPACT|JSON_SORT_KEYS
      writes it). Where REFERENCE's object of the same instruction has answers
      of that hash, FULL's are left out (the hash takes their place);
      otherwise they stay, the hash after them. The header gains
      `slim` {`answers_in` (REFERENCE's name), `by`, `full_sha256` (of FULL's
      lines)}. Every other byte is kept. gzip -9, no name or time.
  tools/audit-slim.py --restore REFERENCE.jsonl.gz SLIM.jsonl.gz
      Puts the answers back from REFERENCE (their bytes as REFERENCE has
      them), takes `answers_sha256` and `slim` off, and checks the result's
      sha256 against `slim.full_sha256`: exit 0 when FULL comes back byte for
      byte, 1 otherwise. Prints the counts.

tests/test_reaudits.c checks the hashes against REFERENCE in CI.
Standard library only.
"""
import gzip
import hashlib
import json
import os
import sys

DEC = json.JSONDecoder()
KEY = b'"answers":'


def lines_of(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n"):
        sys.exit("%s: the last line has no newline" % path)
    return data, data.split(b"\n")[:-1]


def canonical_sha256(value):
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def answers_span(line):
    """(start, end) of `"answers":VALUE` in the object line, or None."""
    at = line.find(b',' + KEY)
    if at < 0:
        return None
    text = line.decode()
    start = len(line[:at].decode()) + 1
    _, end = DEC.raw_decode(text, start + len(KEY))
    return len(text[:start].encode()), len(text[:end].encode())


def reference_answers(path):
    """instr -> (canonical sha256, raw bytes of `"answers":VALUE`)."""
    out = {}
    for line in lines_of(path)[1][1:]:
        o = json.loads(line)
        span = answers_span(line)
        if "instr" in o and "answers" in o and span:
            out[o["instr"]] = (canonical_sha256(o["answers"]), line[span[0]:span[1]])
    return out


def write_gz(path, data):
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
        f.write(data)


def slim(ref_path, full_path, out_path):
    ref = reference_answers(ref_path)
    data, lines = lines_of(full_path)
    header = json.loads(lines[0])
    if header.get("schema") != "tcscope-record/1" or "slim" in header:
        sys.exit("%s: not a full tcscope-record/1 audit record" % full_path)
    note = {"answers_in": os.path.basename(ref_path), "by": "tools/audit-slim.py",
            "full_sha256": hashlib.sha256(data).hexdigest()}
    out = [lines[0][:-1] + b',"slim":' + json.dumps(note, separators=(",", ":")).encode() + b"}"]
    dropped = kept = 0
    for line in lines[1:]:
        o = json.loads(line)
        span = answers_span(line)
        if "answers" not in o or not span:
            out.append(line)
            continue
        h = canonical_sha256(o["answers"])
        tag = b'"answers_sha256":"' + h.encode() + b'"'
        if ref.get(o["instr"], (None,))[0] == h:
            out.append(line[:span[0]] + tag + line[span[1]:])
            dropped += 1
        else:
            out.append(line[:span[1]] + b"," + tag + line[span[1]:])
            kept += 1
    write_gz(out_path, b"\n".join(out) + b"\n")
    print("%s: answers of %d objects left out (equal to %s's), %d kept (different)"
          % (out_path, dropped, os.path.basename(ref_path), kept))


def restore(ref_path, slim_path):
    ref = reference_answers(ref_path)
    _, lines = lines_of(slim_path)
    header = json.loads(lines[0])
    note = header.get("slim")
    if not isinstance(note, dict):
        sys.exit("%s: not a slim record" % slim_path)
    cut = b',"slim":' + json.dumps(note, separators=(",", ":")).encode()
    out = [lines[0].replace(cut, b"")]
    for line in lines[1:]:
        o = json.loads(line)
        h = o.get("answers_sha256")
        if h is None:
            out.append(line)
            continue
        tag = b'"answers_sha256":"' + h.encode() + b'"'
        if "answers" in o:
            out.append(line.replace(b"," + tag, b""))
        elif ref.get(o["instr"], (None,))[0] == h:
            out.append(line.replace(tag, ref[o["instr"]][1]))
        else:
            sys.exit("%s: %s: no answers of sha256 %s in %s" % (slim_path, o["instr"], h, ref_path))
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
    sys.exit(main(sys.argv))
