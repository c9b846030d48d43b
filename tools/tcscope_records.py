#!/usr/bin/env python3
"""Read tcscope run records (schema tcscope-record/1, reports/SCHEMA.md).

Standard library only. A record is JSON Lines: a header, the objects, and a
trailer {"kind":"end","objects":N}; a .jsonl.gz is read decompressed, and a
packed record (.packed.xz, reports/SCHEMA.md "Packed records") with its
outputs unpacked. Inputs a packed record does not store (drawn again by
tcscope from the seed) are left null here, the object's "packed" member
saying which generator draws them: `tcscope pack FILE --text` prints them.
load() refuses what tcscope's own reader refuses at the record level: a
first line that is not a tcscope-record/1 header (1.x minor versions are
read), a file without the end trailer (truncated), a partial trailer (the
run stopped), a trailer count that is not the number of objects, an object
without a kind, or anything after the trailer. It does not repeat the
per-field checks of reports/record_check.c (tcscope compare does those).

Example (from the repository root; `python3 -m doctest tools/tcscope_records.py`
with PYTHONPATH=tools runs it):

    >>> import tcscope_records as tr
    >>> header, objects, trailer = tr.load("reports/baselines/h100-hunt-final.packed.xz")
    >>> header["gpu"], len(objects) == trailer["objects"]
    ('NVIDIA H100 80GB HBM3', True)
    >>> sum(o["mismatches"] for o in objects)
    0

From the shell, one summary line per record:

    python3 tools/tcscope_records.py reports/baselines/h100-audit.jsonl.gz
    reports/baselines/h100-audit.jsonl.gz: tcscope-record/1 audit, 256 objects (audit 256), gpu:0 NVIDIA H100 80GB HBM3, 2026-11-22T09:47:50Z
"""
import collections
import gzip
import json
import lzma
import os
import sys

SCHEMA_MAJOR = "tcscope-record/1"


class RecordError(ValueError):
    """A file that is not a complete tcscope-record/1."""


PACKED_MAGIC = b"tcscope-packed/1\n"


def _unpack_hex(blob, n, bits, upper):
    """n elements of `bits` bits, packed little-endian in blob, as fixed-width hex."""
    per_group = 1
    while per_group * bits % 8:
        per_group += 1
    gbytes, mask, fmt = per_group * bits // 8, (1 << bits) - 1, "%%0%d%s" % (bits // 4, "X" if upper else "x")
    out = []
    for g in range(0, n, per_group):
        v = int.from_bytes(blob[g // per_group * gbytes:(g // per_group + 1) * gbytes], "little")
        out.extend(fmt % ((v >> (i * bits)) & mask) for i in range(min(per_group, n - g)))
    return "".join(out)


def _packed_lines(path):
    """The lines of a packed record, outputs unpacked (SCHEMA.md "Packed records")."""
    with open(path, "rb") as f:
        raw = lzma.decompress(f.read())
    if not raw.startswith(PACKED_MAGIC):
        raise RecordError("%s: an xz file, but not a packed record" % path)
    at, lineno = len(PACKED_MAGIC), 0
    while at < len(raw):
        lineno += 1
        nl = raw.find(b"\n", at)
        if nl < 0:
            raise RecordError("%s:%d: cut short" % (path, lineno))
        line, at = raw[at:nl], nl + 1
        o = json.loads(line)
        p = o.get("packed") if isinstance(o, dict) else None
        if p is None:
            yield lineno, line.decode("utf-8")
            continue
        for b in p.get("blobs", []):
            n, bits = b["n"], b["bits"]
            size = (n * bits + 7) // 8
            if at + size > len(raw):
                raise RecordError("%s:%d: a blob runs past the end" % (path, lineno))
            where = o if len(b["at"]) == 1 else o[b["at"][0]]
            where[b["at"][-1]] = _unpack_hex(raw[at:at + size], n, bits, b.get("upper", False))
            at += size
        if "inputs" in p:
            o["packed"] = {"inputs": p["inputs"]}
        else:
            del o["packed"]
        yield lineno, json.dumps(o, separators=(",", ":"))


def _lines(path):
    with open(path, "rb") as f:
        packed = f.read(6) == b"\xfd7zXZ\x00"
    if packed:
        yield from _packed_lines(path)
        return
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.strip():
                yield lineno, line


def raw_lines(path):
    """(bytes, lines) of a gzip-compressed JSON Lines file with every byte
    kept (the lines without their newlines), for the tools that rewrite a
    record byte for byte (audit-slim.py, lines-to-record.py); RecordError
    when the last line has no newline."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n"):
        raise RecordError("%s: the last line has no newline" % path)
    return data, data.split(b"\n")[:-1]


def _schema_ok(schema):
    return isinstance(schema, str) and (schema == SCHEMA_MAJOR or schema.startswith(SCHEMA_MAJOR + "."))


def load(path):
    """(header, objects, trailer) of the record at path; RecordError if it is not a whole record."""
    header, objects, trailer = None, [], None
    for lineno, line in _lines(path):
        where = "%s:%d" % (path, lineno)
        try:
            o = json.loads(line)
        except ValueError as e:
            raise RecordError("%s: not JSON: %s" % (where, e))
        if not isinstance(o, dict):
            raise RecordError("%s: not a JSON object" % where)
        if trailer is not None:
            raise RecordError("%s: data after the end trailer" % where)
        if header is None:
            if not _schema_ok(o.get("schema")):
                raise RecordError("%s: not a tcscope-record/1 header (schema %r)" % (where, o.get("schema")))
            header = o
            continue
        kind = o.get("kind")
        if kind == "partial":
            raise RecordError("%s: partial record: the run stopped after %s objects (%s)"
                              % (where, o.get("objects"), o.get("stopped", "no reason given")))
        if kind == "end":
            n = o.get("objects")
            if type(n) is not int or n != len(objects):
                raise RecordError("%s: trailer says %r objects, file has %d (truncated or edited)"
                                  % (where, n, len(objects)))
            trailer = o
            continue
        if not isinstance(kind, str):
            raise RecordError("%s: object without a \"kind\"" % where)
        objects.append(o)
    if header is None:
        raise RecordError("%s: empty file, no record header" % path)
    if trailer is None:
        raise RecordError("%s: truncated: no end trailer" % path)
    if "slim" in header:
        _complete_slim(path, header, objects)
    return header, objects, trailer


def _complete_slim(path, header, objects):
    """A slim audit record's left-out fields (FIELD_sha256 without FIELD) from
    the full record it names, beside it (SCHEMA.md "Slim audit records"; as
    reports/record_slim.c does for tcscope)."""
    slim = header["slim"]
    from_ = slim.get("from") if isinstance(slim, dict) else None
    if not isinstance(from_, str) or not from_ or "/" in from_ or from_.startswith("."):
        raise RecordError("%s: slim record: \"slim\" needs \"from\" (a file name beside it)" % path)
    full = os.path.join(os.path.dirname(path), from_)
    try:
        ref_header, ref_objects, _ = load(full)
    except (OSError, RecordError) as e:
        raise RecordError("%s: slim record: its full record %s: %s" % (path, full, e))
    if "slim" in ref_header:
        raise RecordError("%s: slim record used as another slim record's full record" % full)
    by_instr = {o.get("instr"): o for o in ref_objects}
    for o in objects:
        for field in slim.get("fields", []):
            if field not in o and field + "_sha256" in o:
                if field not in by_instr.get(o.get("instr"), {}):
                    raise RecordError("%s: slim record: %s of %s left out, and %s has none"
                                      % (path, field, o.get("instr"), full))
                o[field] = by_instr[o["instr"]][field]


def summary(path):
    """One line: schema, header kind, object count by kind, backend, device, date."""
    header, objects, _ = load(path)
    kinds = collections.Counter(o["kind"] for o in objects)
    by_kind = ", ".join("%s %d" % kv for kv in sorted(kinds.items()))
    return "%s: %s %s, %d objects (%s), %s %s, %s" % (
        path, header["schema"], header.get("record", header.get("kind")), len(objects), by_kind or "none",
        header.get("backend"), header.get("gpu"), header.get("date"))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: tcscope_records.py RECORD.jsonl[.gz]|RECORD.packed.xz...\n")
        return 2
    status = 0
    for path in argv[1:]:
        try:
            print(summary(path))
        except (OSError, RecordError, UnicodeDecodeError, lzma.LZMAError, ValueError, KeyError, TypeError) as e:
            sys.stderr.write("tcscope_records: %s\n" % e)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
