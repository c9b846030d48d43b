#!/usr/bin/env python3
"""Ask the H100 the questions on which MMA-Sim and model:h100 disagreed.

tools/mmasim_check.py left tools/data/mmasim-disagreements.jsonl: inputs on
which MMA-Sim (an independent simulator) and model:h100 gave different
answers, each for one instruction and the others ("also") that disagree the
same way. Neither simulator is the judge: the hardware is. Stdlib only.

  python3 tools/mmasim_settle.py questions > Q          # one line per (input, instruction)
  build/opt/tools/model_eval --backend gpu < Q > ANSWERS # on the GPU machine
  python3 tools/mmasim_settle.py record ANSWERS --device "NVIDIA H100 80GB HBM3, driver ..."

`record` pairs the answers with the questions and writes
reports/baselines/h100-mmasim-settled.jsonl.gz: the input, the hardware's D (gpu_d),
MMA-Sim's, the model's when the disagreement was found (model_d_then) and
model:h100's now (model_d, from build/opt/tools/model_eval), then prints who
agreed with the hardware. tests/test_mmasim_settled.c replays gpu_d through
model:h100 in CI.
"""
import argparse
import collections
import gzip
import json
import subprocess
import sys

DIS = "tools/data/mmasim-disagreements.jsonl"
OUT = "reports/baselines/h100-mmasim-settled.jsonl.gz"


def questions():
    """(row, instruction, line) for every disagreement and every instruction it names."""
    with open(DIS) as f:
        for line in f:
            row = json.loads(line)
            for ins in [row["instr"]] + row["also"]:
                yield row, ins, "%s %s %s %s" % (ins, ",".join(row["a"]), ",".join(row["b"]), row["c"])


def record(answers_path, device):
    qs = list(questions())
    with open(answers_path) as f:
        gpu = [l.strip() for l in f if l.strip()]
    if len(gpu) != len(qs):
        sys.exit("mmasim_settle: %d answers for %d questions" % (len(gpu), len(qs)))
    model = subprocess.run(["build/opt/tools/model_eval"], input="\n".join(q[2] for q in qs) + "\n",
                           capture_output=True, text=True, check=True).stdout.split()
    tally = collections.Counter()
    with gzip.open(OUT, "wt") as out:
        for (row, ins, _), g, m in zip(qs, gpu, model):
            w = len(row["mmasim_d"])
            g, m = g.zfill(w), m.zfill(w)
            who = ("both" if g == row["mmasim_d"] == m else
                   "mmasim" if g == row["mmasim_d"] else "model" if g == m else "neither")
            tally[(row["region"], row["differ"], who)] += 1
            out.write(json.dumps({"instr": ins, "region": row["region"], "differ": row["differ"],
                                  "a": row["a"], "b": row["b"], "c": row["c"], "gpu_d": g,
                                  "mmasim_d": row["mmasim_d"], "model_d_then": row["model_d"],
                                  "model_d": m, "device": device}) + "\n")
    print("| region | differ | agrees with the GPU | inputs |\n|---|---|---|---|")
    for (region, differ, who), n in sorted(tally.items()):
        print("| %s | %s | %s | %d |" % (region, differ, who, n))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("questions")
    r = sub.add_parser("record")
    r.add_argument("answers")
    r.add_argument("--device", required=True)
    a = ap.parse_args()
    if a.cmd == "questions":
        for _, _, line in questions():
            print(line)
    else:
        record(a.answers, a.device)


if __name__ == "__main__":
    main()
