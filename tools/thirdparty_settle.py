#!/usr/bin/env python3
"""thirdparty_settle: the H200's answers to tools/data/thirdparty-questions.txt.gz
(tools/thirdparty_questions.py) as a settled record: for every question, which
value of the field the hardware sided with, tcscope's (h200.profile) or the
third-party model's, or neither. Stdlib only.

  bash tools/device/settle.sh                   # on the GPU machine: $OUT/thirdparty-settle.tar.xz
  python3 tools/thirdparty_settle.py record ANSWERS --device "NVIDIA H200, driver ..."

ANSWERS: model_eval's output, one D per question line. Writes
reports/baselines/h200-thirdparty-settled.jsonl.gz (one object per question:
the instruction, field, both values and the models that state the third,
A, B, C, the H200's D and both values' D) and prints the verdict per
disagreement; tests/test_thirdparty_settled.c replays it in CI.
"""
import argparse
import collections
import gzip
import io
import json
import sys

QUESTIONS = "tools/data/thirdparty-questions.txt.gz"
OUT = "reports/baselines/h200-thirdparty-settled.jsonl.gz"


def die(msg):
    print("thirdparty_settle: " + msg, file=sys.stderr)
    sys.exit(2)


def questions(path):
    """[(variant, instr, a, b, c, tcscope_d, third_d)] in file order."""
    variants, qs, pending = {}, [], None
    with gzip.open(path, "rt") as f:
        for n, l in enumerate(f, 1):
            p = l.split()
            if not p:
                continue
            if p[:2] == ["#", "variant"]:
                variants[int(p[2])] = json.loads(l.split(None, 3)[3])
            elif p[:2] == ["#", "q"]:
                pending = (variants[int(p[2])], int(p[3], 16), int(p[4], 16))
            elif p[0].startswith("#"):
                continue
            else:
                if pending is None or len(p) != 4:
                    die("%s:%d: a question without its '# q' line" % (path, n))
                v, o, t = pending
                qs.append((v, p[0], p[1].split(","), p[2].split(","), p[3], o, t))
                pending = None
    return qs


def record(answers_path, device, qpath, out_path):
    qs = questions(qpath)
    with open(answers_path) as f:
        gpu = [l.strip() for l in f if l.strip()]
    if len(gpu) != len(qs):
        die("%d answers for %d questions" % (len(gpu), len(qs)))
    tally = collections.OrderedDict()
    with gzip.GzipFile(out_path, "wb", mtime=0) as z, io.TextIOWrapper(z) as out:
        for (v, ins, a, b, c, o, t), g in zip(qs, gpu):
            try:
                gv = int(g, 16)
            except ValueError:
                die("answer %r is not hex" % g)
            w = len(c)
            side = "tcscope" if gv == o else "third_party" if gv == t else "neither"
            key = (v["type"], v["field"], v["h200"], v["value"], ",".join(v["sources"]))
            tally.setdefault(key, collections.Counter())[side] += 1
            out.write(json.dumps(collections.OrderedDict([
                ("instr", ins), ("field", v["field"]), ("h200", v["h200"]), ("value", v["value"]),
                ("sources", v["sources"]), ("a", a), ("b", b), ("c", c), ("gpu_d", "%0*x" % (w, gv)),
                ("tcscope_d", "%0*x" % (w, o)), ("third_d", "%0*x" % (w, t)), ("agrees", side),
                ("device", device)])) + "\n")
    print("| instructions | field | h200.profile | third party | stated by | the H200 sided with (questions) |\n"
          "|---|---|---|---|---|---|")
    for (tk, field, ours, theirs, src), c in tally.items():
        print("| %s | %s | %s | %s | %s | %s |" % (tk, field, ours, theirs, src,
                                                   ", ".join("%s %d" % kv for kv in sorted(c.items()))))
    print("%d answers recorded in %s" % (len(qs), out_path))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("answers")
    r.add_argument("--device", required=True)
    r.add_argument("--questions", default=QUESTIONS)
    r.add_argument("--out", default=OUT)
    a = ap.parse_args()
    record(a.answers, a.device, a.questions, a.out)


if __name__ == "__main__":
    main()
