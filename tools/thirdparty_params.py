#!/usr/bin/env python3
"""thirdparty_params: tcscope's H100 and H200 profiles against the
parameters two third-party models publish, field by field (issue #28, item 4).

- MMA-Sim (PyPI `mmasim`, tools/MMASIM.md): for each catalogue instruction it
  models for "Hopper", the parameters of the object the package builds
  (`MMA("Hopper", ..)` / `WGMMA(..)`: its arithmetic's F, rho, L_max,
  e_zero) and, for what the package states in code rather than in a
  parameter, its answer to one input each (the sign of a zero result, the
  TF32 operand cut, a NaN whose payload is in the cut bits, the NaN bits).
- The Khattak-Mikaitis models H100TC.m and H200TC.m (MATLAB-tensor-core,
  read by tools/km_params.py from a checkout given with --km): their
  def_params for the instruction's input and output formats.

Each is translated into tcscope's field vocabulary (oracle/model_fields.h)
and compared with the instruction's fields in oracle/profiles/h100.profile
and h200.profile. Instructions of one type whose fields are equal in both
profiles form one row group (wgmma: every N, SS and RS). Verdicts:
"agree", "disagree" (settled on the H200: tools/thirdparty_questions.py),
"not stated" (the model has no such parameter), "not modelled" (no such
instruction or formats). Writes build/thirdparty-params.jsonl (one line per
group, field and model: what tools/thirdparty_questions.py reads) and
tools/data/thirdparty-table.md (the counts, the fields some model states
otherwise, where each value was read, the fields all agree on), and prints it. Run from the repository root,
in the venv of tools/MMASIM.md (it imports mmasim and torch):

  /tmp/mmasim-venv/bin/python -W ignore tools/thirdparty_params.py --km MATLAB-tensor-core/models
"""
import argparse
import json
import os
import re
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import km_params  # noqa: E402
from profile_text import load_profile  # noqa: E402  (thirdparty_questions.py imports it from here too)
import mmasim_check as mc  # noqa: E402  (imports torch and mmasim)
from mmasim.arithmetic import fdpa, fma  # noqa: E402

FIELDS = ["block", "step_split", "c_mode", "align_ref", "align_exp", "align_bits", "align_round", "acc",
          "align_floor", "a_convert", "b_convert", "a_ftz", "b_ftz", "c_ftz", "out_ftz", "zero_sign",
          "dropped_nan", "nan"]
SOURCES = ["mmasim", "km_h100", "km_h200"]
NAMES = {"mmasim": "MMA-Sim Hopper", "km_h100": "KM H100TC", "km_h200": "KM H200TC"}
RHO = {"RZ-FP32": "f32:rz", "RNE-FP16": "f16:rne", "RZ-E8M13": "e8m13:rz"}


def catalogue(tcscope):
    """[(name, a, b, c, d, k)] of the dense floating-point instructions."""
    rows = []
    for line in mc.run([tcscope, "list", "--backend", "model:h200"]).splitlines()[1:]:
        p = line.split()
        if not p or ".sp." in p[0]:
            continue
        rows.append((p[0], p[2], p[3], p[4], p[5], int(re.search(r"k(\d+)", p[0]).group(1))))
    return rows


def type_key(name):
    return re.sub(r"\.rs$", "", re.sub(r"^(wgmma\.m64)n\d+", r"\1nN", name))


class NotModelled(Exception):
    pass


def mmasim_op(name):
    p = name.split(".")
    rest = ".".join(p[1:6] if p[0] == "mma" else p[1:5])
    if p[0] == "mma" and rest in mc.isa_mma.mma_shape_and_type[mc.ARCH]:
        return mc.MMA(mc.ARCH, rest)
    if p[0] == "wgmma" and rest in mc.isa_wgmma.wgmma_shape_and_type[mc.ARCH]:
        return mc.WGMMA(mc.ARCH, rest)
    raise NotModelled("MMA-Sim has no %s %s for %s" % (p[0], rest, mc.ARCH))


def ask(op, fa, fb, fc, a, b, c):
    """MMA-Sim's D bits for one input (container bits)."""
    A, B, C = mc.to_tensor(fa, [a]), mc.to_tensor(fb, [b]), mc.to_tensor(fc, [c])
    return mc.from_tensor(fc, op.dpa(A, B, C))[0]


def quiet_nan(f):
    return f.nans()[0] if not f.ieee else f.enc(0, (1 << f.e) - 1, 1 << (f.m - 1))


def mmasim_fields(name, a, b, c, k):
    """{field: (value, where it was read)} of MMA-Sim for one instruction."""
    op = mmasim_op(name)
    t = op.arithmetic_op
    fa, fb, fc = mc.FMTS[a], mc.FMTS[b], mc.FMTS[c]
    one_a, one_b = fa.exact(1.0), fb.exact(1.0)
    zeros_a, zeros_b = [fa.zero(0)] * k, [fb.zero(0)] * k
    f = {}
    cls = type(t).__name__
    if isinstance(t, fdpa.MMA_T_FDPA):
        f["block"] = (min(t.L_max, k), "%s L_max=%d" % (cls, t.L_max))
        f["step_split"] = ("contiguous", "%s.dpa: K in slices of L_max" % cls)
        f["c_mode"] = ("first", "t_fdpa: C in each slice's fused sum")
        f["align_ref"] = ("all", "t_fdpa: C's exponent in e_max")
        f["align_exp"] = ("nominal", "frexp_and_normalize: e_a+e_b, subnormals at e_min")
        f["align_bits"] = (t.F, "F=%d" % t.F)
        f["align_round"] = ("trunc", "truncated_fused_sum: torch.trunc")
        if t.rho not in RHO:
            raise NotModelled("rho %s unknown" % t.rho)
        f["acc"] = (RHO[t.rho], "rho=%s" % t.rho)
        f["align_floor"] = (t.e_zero - t.F, "e_zero=%d - F: a zero term's exponent (only with one)" % t.e_zero)
    elif isinstance(t, fma.MMA_FMA):
        f["block"] = (1, "%s: the host's fma per term" % cls)
        f["step_split"] = ("contiguous", "%s: K order" % cls)
        f["c_mode"] = ("first", "%s: C the first addend" % cls)
        f["align_bits"] = ("exact", "%s: fma" % cls)
        f["acc"] = ("f64:rne", "%s: fma in f64" % cls)
    else:
        raise NotModelled("arithmetic %s unknown" % cls)
    # What the package does in code, from its answers to one input each.
    nz = fa.zero(1)
    d = ask(op, fa, fb, fc, [nz] * k, [one_b] * k, fc.zero(1))
    f["zero_sign"] = ("positive" if d == fc.zero(0) else "ieee" if d == fc.zero(1) else "?",
                      "answer to sum of -0 products and C = -0: %s" % mc.hx(fc, d))
    if fa.shift:  # tf32: a register whose low bits are just below the format's last bit
        x = 0x3F801FFF
        d = ask(op, fa, fb, fc, [x] + zeros_a[1:], [one_b] + zeros_b[1:], fc.zero(0))
        v = {0x3F800000: "tf32:rz", 0x3F802000: "tf32:rne", 0x3F801FFF: "none"}.get(d, "?")
        f["a_convert"] = (v, "answer to a=3f801fff b=1: %s" % mc.hx(fc, d))
        d = ask(op, fa, fb, fc, [one_a] + zeros_a[1:], [x] + zeros_b[1:], fc.zero(0))
        v = {0x3F800000: "tf32:rz", 0x3F802000: "tf32:rne", 0x3F801FFF: "none"}.get(d, "?")
        f["b_convert"] = (v, "answer to a=1 b=3f801fff: %s" % mc.hx(fc, d))
        d = ask(op, fa, fb, fc, [0x7F800001] + zeros_a[1:], [one_b] + zeros_b[1:], fc.zero(0))
        f["dropped_nan"] = ("inf" if fc.cls(d) == "inf" else "nan" if fc.cls(d) == "nan" else "?",
                            "answer to a=7f800001 b=1: %s" % mc.hx(fc, d))
    elif isinstance(t, fdpa.MMA_T_FDPA):
        f["a_convert"] = f["b_convert"] = ("none", "%s: operands as given" % cls)
    if isinstance(t, fdpa.MMA_T_FDPA):
        d = ask(op, fa, fb, fc, [quiet_nan(fa)] + zeros_a[1:], [one_b] + zeros_b[1:], fc.zero(0))
        f["nan"] = ("0x%X" % d, "answer to a=NaN b=1: %s" % mc.hx(fc, d))
    return f


def same(field, ours, theirs, k):
    if ours is None:
        return False
    if field == "block":
        return min(int(ours), k) == int(theirs)
    return str(ours).lower() == str(theirs).lower()


def compare(cat, h100, h200, km_dir):
    groups = OrderedDict()
    for name, a, b, c, d, k in cat:
        if name not in h200 or name not in h100:
            continue
        key = (type_key(name), tuple(sorted(h100[name].items())), tuple(sorted(h200[name].items())))
        groups.setdefault(key, []).append((name, a, b, c, d, k))
    rows = []
    for (tk, _, _), members in groups.items():
        name, a, b, c, d, k = members[0]
        stated = {}
        try:
            stated["mmasim"] = mmasim_fields(name, a, b, c, k)
        except NotModelled as e:
            stated["mmasim"] = str(e)
        for src, gpu in (("km_h100", "H100"), ("km_h200", "H200")):
            try:
                if a != b:
                    raise km_params.KMError("%sTC takes one input format for A and B" % gpu)
                stated[src] = km_params.km_fields(km_dir, gpu, a, d, k)
            except km_params.KMError as e:
                stated[src] = str(e)
        for field in FIELDS:
            ours1, ours2 = h100[name].get(field), h200[name].get(field)
            for src in SOURCES:
                s = stated[src]
                if isinstance(s, str):
                    verdict, val, why = "not modelled", None, s
                elif field not in s:
                    verdict, val, why = "not stated", None, ""
                else:
                    val, why = s[field]
                    verdict = "agree" if same(field, ours2, val, k) else "disagree"
                    if same(field, ours1, val, k) != same(field, ours2, val, k):
                        verdict += " (h100: %s)" % ("agree" if same(field, ours1, val, k) else "disagree")
                rows.append(OrderedDict([
                    ("type", tk), ("instrs", [m[0] for m in members]), ("k", k), ("field", field),
                    ("h100", ours1), ("h200", ours2), ("source", src), ("value", val), ("why", why),
                    ("verdict", verdict)]))
    return rows


def cell(r):
    if r["verdict"] == "not modelled":
        return "-"
    if r["verdict"] == "not stated":
        return "·"
    return "=" if r["verdict"].startswith("agree") else "**%s**" % r["value"]


def by_field(rows):
    """{(group name, field): {source: row}} in table order."""
    by = OrderedDict()
    for r in rows:
        n = len(r["instrs"])
        by.setdefault(("%s%s" % (r["type"], " (%d)" % n if n > 1 else ""), r["field"]), {})[r["source"]] = r
    return by


def tables(rows, out):
    """The summary, the fields some model states otherwise, and per group the fields all agree on."""
    out.write("| model | instruction x field: agree | disagree | not stated | instructions not modelled |\n"
              "|---|---|---|---|---|\n")
    for src in SOURCES:
        rs = [r for r in rows if r["source"] == src]
        cnt = lambda v: sum(len(r["instrs"]) for r in rs if r["verdict"].startswith(v))
        nm = len({i for r in rs if r["verdict"] == "not modelled" for i in r["instrs"]})
        out.write("| %s | %d | %d | %d | %d |\n" % (NAMES[src], cnt("agree"), cnt("disagree"), cnt("not stated"), nm))
    by = by_field(rows)
    out.write("\nWhere a model states another value (`=`: the same as h200.profile, `·`: not stated, `-`: "
              "instruction not modelled; `(N)`: N instructions of one type, every N, SS and RS):\n\n"
              "| instructions | field | h100 | h200 | %s |\n|---|---|---|---|---|---|---|\n" % " | ".join(NAMES[s] for s in SOURCES))
    for (g, field), s in by.items():
        if any(r["verdict"] != "agree" and r["verdict"].startswith(("agree", "disagree")) for r in s.values()):
            r = s[SOURCES[0]]
            out.write("| %s | %s | %s | %s | %s |\n" % (g, field, r["h100"], r["h200"],
                                                       " | ".join(cell(s[x]) for x in SOURCES)))
    out.write("\nWhere each stated value was read (the first instruction of each kind):\n\n"
              "| field | model | read from |\n|---|---|---|\n")
    for r in unique_why(rows):
        out.write("| %s | %s | %s |\n" % (r["field"], NAMES[r["source"]], r["why"]))
    out.write("\nFields on which every model that states them agrees with both profiles:\n\n"
              "| instructions | agreed fields |\n|---|---|\n")
    groups = OrderedDict()
    for (g, field), s in by.items():
        ok = all(r["verdict"] in ("agree", "not stated", "not modelled") for r in s.values())
        if ok and any(r["verdict"] == "agree" for r in s.values()):
            groups.setdefault(g, []).append(field)
        else:
            groups.setdefault(g, [])
    for g, fs in groups.items():
        out.write("| %s | %s |\n" % (g, ", ".join(fs) or "-"))


def unique_why(rows):
    seen = OrderedDict()
    for r in rows:
        if r["verdict"] not in ("not modelled", "not stated"):
            seen.setdefault((r["source"].replace("km_h200", "km_h100"), r["field"],
                             re.sub(r"-?\d+", "N", r["why"])), r)
    return list(seen.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--km", required=True, help="MATLAB-tensor-core's models/ folder (H100TC.m, tools/GEMM.m)")
    ap.add_argument("--tcscope", default="build/tcscope")
    ap.add_argument("--out", default="build/thirdparty-params.jsonl")
    ap.add_argument("--table", default="tools/data/thirdparty-table.md")
    args = ap.parse_args()
    for f in ("H100TC.m", "H200TC.m", "tools/GEMM.m"):
        if not os.path.isfile(os.path.join(args.km, f)):
            mc.die("--km %s: no %s (want MATLAB-tensor-core's models/ folder)" % (args.km, f))
    h100 = load_profile("oracle/profiles/h100.profile")
    h200 = load_profile("oracle/profiles/h200.profile")
    rows = compare(catalogue(args.tcscope), h100, h200, args.km)
    with open(args.out, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    with open(args.table, "w") as f:
        f.write("# tcscope's H100/H200 profiles against MMA-Sim %s and the Khattak-Mikaitis models\n\n"
                "Generated by `tools/thirdparty_params.py` (block: the step for the instruction's K).\n\n"
                % mc.mmasim_version())
        tables(rows, f)
    with open(args.table) as f:
        print(f.read())
    print("written:", args.out, args.table)


if __name__ == "__main__":
    main()
