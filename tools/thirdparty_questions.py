#!/usr/bin/env python3
"""thirdparty_questions: inputs that separate tcscope's value of a field from
a third-party model's (tools/thirdparty_params.py), to ask the H200.

For every disagreement of build/thirdparty-params.jsonl (a field of a
group of instructions where MMA-Sim or a Khattak-Mikaitis model states
another value than h200.profile) it writes a variant profile, h200.profile
with only that field changed, and searches inputs on which the reference
model (build/opt/tools/model_eval) gives different bits under the two
values: the regions of tools/mmasim_check.py (zero terms, tiny results,
subnormals, alignment, NaNs, ...) and, for align_floor, one aimed at the
floor (gen_floor), --n draws each, on the group's first instruction; the first --keep separating inputs (one region after another)
are then asked on every instruction of the group where they still separate.
A value the model cannot take, or a field no draw separates, is said so
(for align_floor with the reason no input can, floor_reach). Where MMA-Sim
states the value, its own answer to each question is computed too: it must
be the third value's, or the translation into tcscope's field is wrong.

Writes tools/data/thirdparty-questions.txt.gz: model_eval's input lines (one
question each), every question after a comment "# q VARIANT TCSCOPE_D THIRD_D"
(the two values' answers) and every variant after "# variant N {json}";
and the table of variants to tools/data/thirdparty-questions.md.
Run in the venv of tools/MMASIM.md (the generators import torch):

  /tmp/mmasim-venv/bin/python -W ignore tools/thirdparty_questions.py [--n 400] [--keep 3] [--seed 28]
"""
import argparse
import gzip
import io
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import types
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmasim_check as mc  # noqa: E402
from thirdparty_params import NotModelled, ask, load_profile, mmasim_op  # noqa: E402

H200 = "oracle/profiles/h200.profile"


def write_profile(path, sections):
    with open(path, "w") as f:
        f.write("# variant of %s: one field changed (tools/thirdparty_questions.py)\n" % H200)
        for name, fields in sections.items():
            f.write("\n[instr %s]\n" % name)
            for k, v in fields.items():
                f.write("%s = %s\n" % (k, v))


def answers(model_eval, profile, lines):
    """model_eval's answers, or None with its message when it refuses the profile."""
    r = subprocess.run([model_eval, "--profile", profile], input="".join(lines), capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip()
    out = [int(x, 16) for x in r.stdout.split()]
    if len(out) != len(lines):
        mc.die("model_eval: %d answers for %d lines" % (len(out), len(lines)))
    return out, ""


def line(name, fa, fb, fc, a, b, c):
    return "%s %s %s %s\n" % (name, ",".join(mc.hx(fa, v) for v in a), ",".join(mc.hx(fb, v) for v in b),
                              mc.hx(fc, c))


def pow2(f, e):
    """The bits of 2^e in format f, or None."""
    return f.exact(math.ldexp(1.0, e)) if f.sub <= e <= f.emax else None


def gen_floor(kd, rng, fl):
    """Aimed at an alignment floor 2^fl: one term whose exponent keeps the
    grid finer than 2^fl (F bits below it), often a power of two (a rounding
    tie at the bottom of the output), and one just below 2^fl of either sign;
    the other products and C zero (a zero term, as MMA-Sim's e_zero needs)."""
    def term(e, exact):
        lo, hi = max(kd.a.sub, e - kd.b.emax), min(kd.a.emax, e - kd.b.sub)
        if lo > hi:
            return None
        ea = rng.randint(lo, hi)
        if exact:
            x, y = pow2(kd.a, ea), pow2(kd.b, e - ea)
            return (x, y) if x is not None and y is not None else None
        return kd.a.with_exp(rng, ea), kd.b.with_exp(rng, e - ea)
    lo, hi = fl + kd.align - 6, fl + kd.align - 1
    tie = kd.c.sub - 1  # half the output's smallest step: a tie when the sum is exactly there
    e = tie if lo <= tie <= hi and rng.random() < 0.5 else rng.randint(lo, hi)
    big = term(e, e == tie or rng.random() < 0.5)
    small = term(rng.randint(fl - 4, fl - 1), rng.random() < 0.5)
    if small and rng.random() < 0.5:
        small = (mc.neg(kd.a, small[0]), small[1])
    pos = rng.sample(range(kd.k), 2)
    a, b = mc.fill(kd, rng, lambda i: big if i == pos[0] else small if i == pos[1] else None)
    return a, b, kd.c.zero(0)


def floor_reach(kd, fl):
    """Why no input can meet an alignment floor 2^fl, or "" when one may: the
    floor cuts only bits below 2^fl, and only when every term's exponent lies
    below fl + F (nominal exponents: a subnormal counts at its format's emin)."""
    low_bit = min(kd.a.sub + kd.b.sub, kd.c.sub)
    low_exp = min(kd.a.emin + kd.b.emin, kd.c.emin)
    if low_bit >= fl:
        return "no product or C has a bit below 2^%d" % fl
    if low_exp >= fl + kd.align:
        return "no term's exponent lies below 2^%d (floor + %d bits)" % (fl + kd.align, kd.align)
    return ""


def variants(rows):
    """One per (instruction group, field, third-party value): the sources that state it."""
    out = OrderedDict()
    for r in rows:
        if not r["verdict"].startswith("disagree"):
            continue
        key = (tuple(r["instrs"]), r["field"], str(r["value"]))
        v = out.setdefault(key, OrderedDict([("type", r["type"]), ("instrs", r["instrs"]), ("field", r["field"]),
                                             ("h200", r["h200"]), ("value", str(r["value"])), ("sources", [])]))
        v["sources"].append(r["source"])
    return list(out.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--params", default="build/thirdparty-params.jsonl")
    ap.add_argument("--out", default="tools/data/thirdparty-questions.txt.gz")
    ap.add_argument("--table", default="tools/data/thirdparty-questions.md")
    ap.add_argument("--n", type=int, default=400, help="draws per region")
    ap.add_argument("--keep", type=int, default=3, help="separating inputs kept per variant")
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--model-eval", default="build/opt/tools/model_eval")
    ap.add_argument("--tcscope", default="build/tcscope")
    args = ap.parse_args()
    if args.n < 1 or args.keep < 1:
        mc.die("--n and --keep must be >= 1")
    with open(args.params) as f:
        rows = [json.loads(l) for l in f]
    fmts = {}
    for l in mc.run([args.tcscope, "list", "--backend", "model:h200"]).splitlines()[1:]:
        p = l.split()
        if p:
            fmts[p[0]] = (mc.FMTS[p[2]], mc.FMTS[p[3]], mc.FMTS[p[4]])
    h200 = load_profile(H200)
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="tcs-thirdparty-")
    out, nq = [], 0
    table = ["| instructions | field | h200 | third party | stated by | separating inputs | questions |",
             "|---|---|---|---|---|---|---|"]
    for vi, v in enumerate(variants(rows)):
        prof = os.path.join(tmp, "v%d.profile" % vi)
        write_profile(prof, OrderedDict((n, dict(h200[n], **{v["field"]: v["value"]})) for n in v["instrs"]))
        rep = v["instrs"][0]
        fa, fb, fc = fmts[rep]
        k = int(rows[[r["instrs"][0] for r in rows].index(rep)]["k"])
        ab = h200[rep].get("align_bits", "25")
        kd = types.SimpleNamespace(a=fa, b=fb, c=fc, k=k, align=int(ab) if ab.isdigit() else 25)
        regions = list(mc.REGIONS)
        floor = None
        if v["field"] == "align_floor":
            floor = min(int(x) for x in (v["h200"], v["value"]) if x != "none")
            regions.append(("align_floor", lambda kd_, rng_: gen_floor(kd_, rng_, floor)))
        draws = [(region, gen(kd, rng)) for region, gen in regions for _ in range(args.n)]
        lines = [line(rep, fa, fb, fc, *x) for _, x in draws]
        ours, _ = answers(args.model_eval, H200, lines)
        theirs, err = answers(args.model_eval, prof, lines)
        if theirs is None:
            v["status"] = "tcscope's model cannot take this value: " + err.split(": ", 1)[-1]
            v["found"] = 0
        else:
            sep = OrderedDict()
            for (region, x), o, t in zip(draws, ours, theirs):
                if o != t:
                    sep.setdefault(region, []).append(x)
            v["found"] = sum(len(s) for s in sep.values())
            picked = []
            while len(picked) < args.keep and any(sep.values()):
                for region in list(sep):
                    if sep[region] and len(picked) < args.keep:
                        picked.append((region, sep[region].pop(0)))
            v["status"] = ("separated: %d of %d draws" % (v["found"], len(draws)) if picked else
                           "no input separates them in %d draws" % len(draws))
            why = floor_reach(kd, floor) if floor is not None else ""
            if why and picked:
                mc.die("%s %s: separated although %s" % (rep, v["field"], why))
            if why:
                v["status"] += " (none can: %s)" % why
            v["regions"] = sorted({r for r, _ in picked})
            qs = [(name, x) for _, x in picked for name in v["instrs"]]
            qlines = [line(name, *fmts[name], *x) for name, x in qs]
            o2, _ = answers(args.model_eval, H200, qlines)
            t2, _ = answers(args.model_eval, prof, qlines)
            body, sim = [], [0, 0]  # MMA-Sim's own answer: equal to the third value's, asked
            for (name, x), ql, o, t in zip(qs, qlines, o2, t2):
                if o != t:
                    body.append("# q %d %x %x\n%s" % (vi, o, t, ql))
                    if "mmasim" in v["sources"]:
                        try:
                            d = ask(mmasim_op(name), *fmts[name], *x)
                        except NotModelled:
                            continue
                        sim[0] += d == t
                        sim[1] += 1
            if sim[1]:
                v["mmasim_check"] = "MMA-Sim itself gives the third value's answer on %d of %d" % tuple(sim)
                v["status"] += "; " + v["mmasim_check"]
            v["questions"] = len(body)
            nq += len(body)
            out.append("# variant %d %s\n" % (vi, json.dumps(v)))
            out.extend(body)
        if theirs is None:
            out.append("# variant %d %s\n" % (vi, json.dumps(v)))
        n = len(v["instrs"])
        table.append("| %s%s | %s | %s | %s | %s | %s | %d |" % (
            v["type"], " (%d)" % n if n > 1 else "", v["field"], v["h200"], v["value"], ", ".join(v["sources"]),
            v["status"], v.get("questions", 0)))
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    with gzip.GzipFile(args.out, "wb", mtime=0) as z, io.TextIOWrapper(z) as f:
        f.write("# Questions for the H200 (tools/thirdparty_questions.py --n %d --keep %d --seed %d): "
                "gzip -dc this file | model_eval --backend gpu\n" % (args.n, args.keep, args.seed))
        f.writelines(out)
    with open(args.table, "w") as f:
        f.write("# Inputs separating h200.profile from the third-party values\n\nGenerated by "
                "`tools/thirdparty_questions.py --n %d --keep %d --seed %d` from the disagreements of "
                "`tools/thirdparty_params.py` (tools/data/thirdparty-table.md); %d questions for the H200 in "
                "`%s`.\n\n" % (args.n, args.keep, args.seed, nq, args.out))
        f.write("\n".join(table) + "\n")
    print("\n".join(table))
    print("\n%d questions written to %s, the table to %s" % (nq, args.out, args.table))


if __name__ == "__main__":
    main()
