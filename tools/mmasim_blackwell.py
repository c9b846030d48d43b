#!/usr/bin/env python3
"""mmasim_blackwell: Blackwell's parameters and answers as MMA-Sim publishes
them (issue #30, item 3), for the forms Hopper lacks.

MMA-Sim (PyPI `mmasim`, tools/MMASIM.md; never a runtime or CI dependency)
models sm_100a's tcgen05.mma ("Blackwell") and sm_120a's mma ("RTX
Blackwell"), with the block-scaled MX and NVFP4 forms. For each form both
MMA-Sim and tcscope's ISA tables (probes/isa/arch/sm100a.def, sm120a.def)
have (and sm_120a's warp-level mma of the catalogue, f64 aside), this tool

  1. reads the parameters of the object the package builds (its arithmetic's
     class, F, rho, L_max, e_zero, G) and, for what the package does in code
     rather than in a parameter, its answer to one input each (the sign of a
     zero result, the NaN bits, a subnormal operand, the TF32 cut), and
     translates them into tcscope's fields (oracle/model_fields.h): the
     profile sections, each field's source named, with the fields MMA-Sim
     states nothing about listed as not decidable;
  2. asks MMA-Sim for random inputs of every form (and zero, cancelling,
     tiny and special ones) and records inputs and answers as compact test
     data, replayed through the profiles by tests/test_mmasim_blackwell.c.

Writes oracle/profiles/rtx5090.profile (whole), the MMA-Sim part of
oracle/profiles/b200.profile (everything after MARK; the part before it is
the audit's fit of the Khattak-Mikaitis rows and is kept), and
tools/data/mmasim-blackwell.txt.gz. Run from the repository root:

  python3 -m venv /tmp/mmasim-venv && /tmp/mmasim-venv/bin/pip install mmasim==2.1.1
  /tmp/mmasim-venv/bin/python -W ignore tools/mmasim_blackwell.py        # about a minute
"""
import argparse
import gzip
import importlib.metadata
import os
import random
import subprocess

import torch
from mmasim.arithmetic import fdpa
from mmasim.nv_ptx import MMA, MMABlockScale, TCGen05MMA, TCGen05MMABlockScale, isa_mma

MARK = "# ---- from here on: written by tools/mmasim_blackwell.py (MMA-Sim's published Blackwell arithmetic) ----"
RHO = {"RZ-FP32": "f32:rz", "RNE-FP16": "f16:rne"}
F8F6F4 = ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"]

# Formats: (exponent bits, fraction bits, bias, container bits, torch view, IEEE specials?)
FMT = {
    "e4m3": (4, 3, 7, 8, torch.float8_e4m3fn), "e5m2": (5, 2, 15, 8, torch.float8_e5m2),
    "e3m2": (3, 2, 3, 6, None), "e2m3": (2, 3, 1, 6, None), "e2m1": (2, 1, 1, 4, None),
    "f16": (5, 10, 15, 16, torch.float16), "bf16": (8, 7, 127, 16, torch.bfloat16),
    "tf32": (8, 10, 127, 32, torch.float32), "f32": (8, 23, 127, 32, torch.float32),
    "ue8m0": (8, 0, 127, 8, torch.float8_e8m0fnu), "ue4m3": (4, 3, 7, 8, torch.float8_e4m3fn),
}
INT = {8: torch.uint8, 16: torch.int16, 32: torch.int32}


class Form:
    """One form: tcscope's name, MMA-Sim's object, formats, K, scales."""

    def __init__(self, gpu, name, op, a, b, c, d, k, sfmt=None, block=0, kind=""):
        self.gpu, self.name, self.op, self.a, self.b, self.c, self.d, self.k = gpu, name, op, a, b, c, d, k
        self.sfmt, self.block, self.kind = sfmt, block, kind


def catalogue_sm120():
    """The catalogue's instructions sm_120a runs (build/tcscope list --arch sm_120a)."""
    try:
        text = subprocess.run(["build/tcscope", "list", "--arch", "sm_120a"], capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("build/tcscope list --arch sm_120a: %s (make NVCC= build/tcscope first)" % e)
    return {line.split()[0] for line in text.splitlines()[1:] if line.strip()}


def forms():
    out = []
    cat = catalogue_sm120()   # sm_120a's warp-level mma MMA-Sim models, f64 (the host's fma) aside
    for st in isa_mma.mma_shape_and_type["RTX Blackwell"]:
        p = st.split(".")
        if "kind::" in st or p[2] == "f64" or "mma." + st not in cat:
            continue
        out.append(Form("rtx5090", "mma." + st, MMA("RTX Blackwell", st), p[2], p[3], p[4], p[1],
                        int(p[0].split("k")[1]), kind="sync:%s" % p[2]))
    for d in ("f32", "f16"):   # sm_120a mma kind::f8f6f4: every pair, C of D's type
        for a in F8F6F4:
            for b in F8F6F4:
                out.append(Form("rtx5090", "mma.m16n8k32.%s.%s.%s.%s.kind::f8f6f4" % (d, a, b, d),
                                MMA("RTX Blackwell", "m16n8k32.kind::f8f6f4.%s.%s.%s.%s" % (d, a, b, d)),
                                a, b, d, d, 32, kind="f8f6f4"))
    for a in F8F6F4:
        for b in F8F6F4:
            out.append(Form("rtx5090", "mma.m16n8k32.f32.%s.%s.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0"
                            % (a, b), MMABlockScale("RTX Blackwell",
                                                    "m16n8k32.kind::mxf8f6f4.block32.f32.%s.%s.f32.ue8m0" % (a, b)),
                            a, b, "f32", "f32", 32, "ue8m0", 32, "mxf8f6f4"))
    for kind, vec, blk, s in (("mxf4", "2X", 32, "ue8m0"), ("mxf4nvf4", "2X", 32, "ue8m0"),
                              ("mxf4nvf4", "4X", 16, "ue4m3")):
        out.append(Form("rtx5090", "mma.m16n8k64.f32.e2m1.e2m1.f32.kind::%s.block_scale.scale_vec::%s.%s"
                        % (kind, vec, s), MMABlockScale("RTX Blackwell", "m16n8k64.kind::%s.block%d.f32.e2m1.e2m1.f32.%s"
                                                        % (kind, blk, s)),
                        "e2m1", "e2m1", "f32", "f32", 64, s, blk, kind))
    tc = "tcgen05.mma.m128n8k%d.%s.%s.%s.kind::%s"
    out.append(Form("b200", tc % (8, "f32", "tf32", "tf32", "tf32"),
                    TCGen05MMA("Blackwell", "m128n8k8.kind::tf32.f32.tf32.tf32"), "tf32", "tf32", "f32", "f32", 8,
                    kind="tf32"))
    for d, ab in (("f32", "f16"), ("f32", "bf16"), ("f16", "f16")):
        out.append(Form("b200", tc % (16, d, ab, ab, "f16"),
                        TCGen05MMA("Blackwell", "m128n8k16.kind::f16.%s.%s.%s" % (d, ab, ab)), ab, ab, d, d, 16,
                        kind="f16"))
    for d in ("f32", "f16"):
        for a in F8F6F4:
            for b in F8F6F4:
                out.append(Form("b200", tc % (32, d, a, b, "f8f6f4"),
                                TCGen05MMA("Blackwell", "m128n8k32.kind::f8f6f4.%s.%s.%s" % (d, a, b)),
                                a, b, d, d, 32, kind="f8f6f4"))
    for a in F8F6F4:
        for b in F8F6F4:
            out.append(Form("b200", tc % (32, "f32", a, b, "mxf8f6f4.block_scale"),
                            TCGen05MMABlockScale("Blackwell", "m128n8k32.kind::mxf8f6f4.block32.f32.%s.%s.ue8m0" % (a, b)),
                            a, b, "f32", "f32", 32, "ue8m0", 32, "mxf8f6f4"))
    for kind, vec, blk, s in (("mxf4", "", 32, "ue8m0"), ("mxf4nvf4", ".scale_vec::2X", 32, "ue8m0"),
                              ("mxf4nvf4", ".scale_vec::4X", 16, "ue4m3")):
        out.append(Form("b200", tc % (64, "f32", "e2m1", "e2m1", kind + ".block_scale" + vec),
                        TCGen05MMABlockScale("Blackwell", "m128n8k64.kind::%s.block%d.f32.e2m1.e2m1.%s" % (kind, blk, s)),
                        "e2m1", "e2m1", "f32", "f32", 64, s, blk, kind))
    return out


# ---------------------------------------------------------------- MMA-Sim's side

def tensor(fmt, rows, packed=False, f6f4=False):
    """Bit patterns (tcscope's: the code in the low bits) as the tensor MMA-Sim reads."""
    e, m, bias, w, view = FMT[fmt]
    if view is None:   # FP6/FP4 one per byte (FP6 in bits 5:0, FP4 in 5:2), or FP4 two per byte (high first)
        if packed:
            rows = [[(r[2 * i] << 4) | r[2 * i + 1] for i in range(len(r) // 2)] for r in rows]
        elif fmt == "e2m1":
            rows = [[x << 2 for x in r] for r in rows]
        return torch.tensor(rows, dtype=torch.uint8)
    it = INT[w]
    sg = (lambda v: v - (1 << w) if it != torch.uint8 and v >> (w - 1) else v)
    return torch.tensor([[sg(x) for x in r] if isinstance(r, list) else sg(r) for r in rows], dtype=it).view(view)


def bits(fmt, t):
    w = FMT[fmt][3]
    return [v & ((1 << w) - 1) for v in t.contiguous().view(INT[w]).tolist()]


def ask(f, A, B, C, SA=None, SB=None):
    packed = f.k == 64 and f.a == "e2m1" and f.sfmt is not None
    a, b, c = tensor(f.a, A, packed), tensor(f.b, B, packed), tensor(f.c, C)
    if f.sfmt is None:
        return bits(f.d, f.op.dpa(a, b, c))
    return bits(f.d, f.op.dpa(a, b, c, tensor(f.sfmt, SA), tensor(f.sfmt, SB)))


# ---------------------------------------------------------------- values (tcscope's codes)

def enc(fmt, sign, ecode, frac):
    e, m, _, _, _ = FMT[fmt]
    if fmt == "tf32":
        return (sign << 31) | (ecode << 23) | (frac << 13)
    return (sign << (e + m)) | (ecode << m) | frac


def one(fmt):
    return enc(fmt, 0, FMT[fmt][2], 0)


def maxfin(fmt):
    e, m = FMT[fmt][0], FMT[fmt][1]
    if fmt in ("e3m2", "e2m3", "e2m1"):
        return enc(fmt, 0, (1 << e) - 1, (1 << m) - 1)
    if fmt == "e4m3":
        return enc(fmt, 0, (1 << e) - 1, (1 << m) - 2)
    return enc(fmt, 0, (1 << e) - 2, (1 << m) - 1)


def finite(fmt, rng, lo=-4, hi=4):
    e, m, bias, _, _ = FMT[fmt]
    top = (1 << e) - 1
    ec = max(1, min(top - (0 if fmt in ("e3m2", "e2m3", "e2m1", "e4m3") else 1), bias + rng.randint(lo, hi)))
    fr = rng.getrandbits(m) if m else 0
    if fmt == "e4m3" and ec == top and fr == (1 << m) - 1:
        fr -= 1
    return enc(fmt, rng.getrandbits(1), ec, fr)


def special(fmt, rng):
    """A NaN, an Inf, a subnormal, a zero or any code of fmt."""
    e, m, _, w, _ = FMT[fmt]
    r = rng.randrange(5)
    if r == 0 and fmt in ("e4m3", "e5m2", "f16", "bf16", "tf32", "f32"):
        return enc(fmt, rng.getrandbits(1), (1 << e) - 1, (1 << m) - 1)
    if r == 1 and fmt in ("e5m2", "f16", "bf16", "tf32", "f32"):
        return enc(fmt, rng.getrandbits(1), (1 << e) - 1, 0)
    if r == 2 and m:
        return enc(fmt, rng.getrandbits(1), 0, 1 + rng.getrandbits(m - 1) if m > 1 else 1)
    if r == 3:
        return enc(fmt, rng.getrandbits(1), 0, 0)
    return rng.getrandbits(w) & (0xFFFFE000 if fmt == "tf32" else (1 << w) - 1)


def scale(sfmt, rng, wild):
    if sfmt == "ue8m0":
        return rng.randrange(256) if wild else 127 + rng.randint(-6, 6)
    return rng.randrange(128) if wild else 0x38 + rng.randint(-12, 12)


def inputs(f, rng, region):
    k = f.k
    A = [finite(f.a, rng) for _ in range(k)]
    B = [finite(f.b, rng) for _ in range(k)]
    C = finite(f.c, rng, -6, 6)
    if region == "zero":
        A = [rng.choice([enc(f.a, 0, 0, 0), enc(f.a, 1, 0, 0), A[i]]) for i in range(k)]
        B = [enc(f.b, rng.getrandbits(1), 0, 0) if A[i] >> 1 else B[i] for i in range(k)]
        C = enc(f.c, rng.getrandbits(1), 0, 0)
    elif region == "cancel":
        half = k // 2
        A[half:] = [a ^ (1 << (FMT[f.a][0] + FMT[f.a][1])) if f.a != "tf32" else a ^ (1 << 31) for a in A[:half]]
        B[half:] = B[:half]
        C = enc(f.c, rng.getrandbits(1), 0, 0) if rng.getrandbits(1) else C
    elif region == "specials":
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(k)
            A[i], B[i] = special(f.a, rng), special(f.b, rng)
        if rng.getrandbits(1):
            C = special(f.c, rng)
    elif region == "tiny":
        A = [enc(f.a, rng.getrandbits(1), rng.choice([0, 1]), rng.getrandbits(FMT[f.a][1] or 1) & ((1 << FMT[f.a][1]) - 1))
             for _ in range(k)]
        C = enc(f.c, rng.getrandbits(1), 0, rng.getrandbits(3))
    SA = SB = None
    if f.sfmt:
        n = k // f.block
        wild = region in ("specials", "wide")
        SA = [scale(f.sfmt, rng, wild) for _ in range(n)]
        SB = [scale(f.sfmt, rng, wild) for _ in range(n)]
        if region == "tiny":
            SA = [rng.randrange(0, 8) for _ in range(n)]
        if region == "align" and n > 1:   # block 0 about F bits below the others, which cancel: where grouping tells
            sgn = 1 << (FMT[f.a][0] + FMT[f.a][1])
            for i in range(f.block, k, 2):
                A[i + 1], B[i + 1] = A[i] ^ sgn, B[i]
            C = 0
            if f.sfmt == "ue8m0":
                SA = [127 - rng.randint(26, 38)] + [127 + rng.randint(-2, 2) for _ in range(n - 1)]
                SB = [127] * n
            else:
                SA = [rng.randint(1, 8)] + [rng.randint(0x70, 0x7E) for _ in range(n - 1)]
                SB = [rng.randint(1, 8)] + [rng.randint(0x70, 0x7E) for _ in range(n - 1)]
    return A, B, C, SA, SB


# ---------------------------------------------------------------- MMA-Sim's parameters as tcscope's fields

def fields(f):
    """[(field, value, where it was read)] of one form."""
    t = f.op.arithmetic_op
    cls = type(t).__name__
    if not isinstance(t, (fdpa.MMA_T_FDPA, fdpa.MMA_ST_FDPA, fdpa.MMA_GST_FDPA)):
        raise SystemExit("%s: arithmetic %s not translated" % (f.name, cls))
    if t.rho not in RHO:
        raise SystemExit("%s: rho %s not translated" % (f.name, t.rho))
    k = f.k
    zA = [enc(f.a, 0, 0, 0)] * k
    zB = [enc(f.b, 0, 0, 0)] * k
    s1 = [FMT[f.sfmt][2] << FMT[f.sfmt][1]] * (k // f.block) if f.sfmt else None
    out = []

    def put(field, value, why):
        out.append((field, str(value), why))

    def answer(A, B, C):
        return ask(f, [A], [B], [C], [s1] if s1 else None, [s1] if s1 else None)[0]

    # the operands: a subnormal of A, of B, read as given? (TF32: the cut)
    for w, fmt in (("a", f.a), ("b", f.b)):
        if fmt == "tf32":
            x = 0x3F801FFF
            A, B = ([x] + zA[1:], [one(f.b)] + zB[1:]) if w == "a" else ([one(f.a)] + zA[1:], [x] + zB[1:])
            d = answer(A, B, 0)
            put(w + "_convert", {0x3F800000: "tf32:rz", 0x3F802000: "tf32:rne"}.get(d, "?"),
                "answer to %s=3f801fff: %08x" % (w, d))
        else:
            put(w + "_convert", "none", "%s: operands decoded as given" % cls)
        sub = enc(fmt, 0, 0, 1)
        A, B = ([sub] + zA[1:], [one(f.b)] + zB[1:]) if w == "a" else ([one(f.a)] + zA[1:], [sub] + zB[1:])
        d = answer(A, B, 0)
        put(w + "_ftz", "yes" if d == 0 else "no", "answer to %s = its smallest subnormal: %x" % (w, d))
    cs = enc(f.c, 0, 0, 1)
    d = answer(zA, zB, cs)
    for w in ("c_ftz", "acc_ftz", "out_ftz"):   # a subnormal C that comes out whole passed all three
        put(w, "no" if d == cs else "?", "answer to C = its smallest subnormal, all else 0: %x" % d)
    put("products", "exact", "%s: s_a*s_b in floating point, exact" % cls)
    put("product_flush_below", "none", "%s: no product flush" % cls)
    put("block", min(t.L_max, k), "%s L_max=%d" % (cls, t.L_max))
    put("c_mode", "first", "%s: C in the first fused sum" % cls)
    put("align_ref", "all", "%s: C's exponent in e_max" % cls)
    put("align_exp", "nominal", "frexp_and_normalize: exponent fields, subnormals at e_min")
    put("align_bits", t.F, "F=%d" % t.F)
    put("align_round", "trunc", "truncated_fused_sum: torch.trunc")
    put("acc", RHO[t.rho], "rho=%s" % t.rho)
    put("step_split", "contiguous", "%s.dpa: K in slices of L_max" % cls)
    put("align_floor", t.e_zero - t.F, "e_zero=%d - F: a zero term's exponent" % t.e_zero)
    if isinstance(t, fdpa.MMA_GST_FDPA):
        put("scale_group", t.G, "%s G=%d: products summed per group, aligned at the scales' exponent" % (cls, t.G))
    else:
        put("scale_group", "none", "%s: each scaled product its own term" % cls)
    nz = enc(f.a, 1, 0, 0) if f.a != "tf32" else 0x80000000
    d = answer([nz] * k, [one(f.b)] * k, enc(f.c, 1, 0, 0))
    put("zero_sign", "positive" if d == 0 else "ieee", "answer to -0 products and C = -0: %x" % d)
    nan = enc(f.a, 0, (1 << FMT[f.a][0]) - 1, (1 << FMT[f.a][1]) - 1) if f.a in ("e4m3", "e5m2", "f16", "bf16") \
        else 0x7FC00000 if f.a == "tf32" else None
    if nan is not None:
        d = answer([nan] + zA[1:], [one(f.b)] + zB[1:], 0)
        put("nan", "0x%X" % d, "answer to a=NaN b=1: %x" % d)
    elif f.sfmt:
        d = ask(f, [zA], [zB], [0], [[0xFF if f.sfmt == "ue8m0" else 0x7F] * (k // f.block)], [s1])[0]
        put("nan", "0x%X" % d, "answer to a NaN scale: %x" % d)
    else:
        put("nan", "0x%X" % (0x7FFFFFFF if f.d == "f32" else 0x7FFF), "%s: NaN results set to 0x7FFF.. (no NaN input)" % cls)
    if f.sfmt == "ue8m0":   # only 2^127 scales take an f32 sum past the top (FP8 products and C cannot)
        big = [0xFE] * (k // f.block)
        d = ask(f, [[maxfin(f.a)] + zA[1:]], [[maxfin(f.b)] + zB[1:]], [0], [big], [big])[0]
        put("acc_overflow", "inf" if d & 0x7FFFFFFF == 0x7F800000 else "ieee",
            "answer to a, b the largest finite, scales 2^127: %x (rho %s)" % (d, t.rho))
    if f.a == "tf32":
        d = answer([0x7F800001] + zA[1:], [one(f.b)] + zB[1:], 0)
        put("dropped_nan", "inf" if d & 0x7FFFFFFF == 0x7F800000 else "nan", "answer to a=7f800001: %x" % d)
    return out


# Fields MMA-Sim states nothing about: the profile holds the IEEE value, usable only as that choice.
NOT_DECIDABLE = [("c_round", "rne"), ("carry_bits", "unlimited"), ("out_round", "rne"), ("out_overflow", "inf"),
                 ("acc_overflow", "ieee"), ("nan_propagate", "no"), ("dropped_nan", "nan")]
ORDER = ["a_convert", "b_convert", "a_ftz", "b_ftz", "c_ftz", "products", "product_flush_below", "block", "c_mode",
         "c_round", "align_ref", "align_exp", "align_bits", "align_round", "carry_bits", "acc", "acc_ftz",
         "out_round", "out_overflow", "out_ftz", "nan", "acc_overflow", "step_split", "nan_propagate", "zero_sign",
         "dropped_nan", "align_floor", "scale_group"]


def section(f, fl):
    vals = {k: v for k, v, _ in fl}
    vals.update({k: v for k, v in NOT_DECIDABLE if k not in vals})
    lines = ["", "[instr %s]" % f.name]
    lines += ["%s = %s" % (k, vals[k]) for k in ORDER]
    return lines


def about(gpu, version, fl_by_class):
    dev = {"b200": "NVIDIA B200 (sm_100a), tcgen05.mma", "rtx5090": "NVIDIA GeForce RTX 5090 (sm_120a), mma"}[gpu]
    out = ["", "[about]", "mmasim_device = %s" % dev,
           "mmasim_written_by = tools/mmasim_blackwell.py: third-party, NOT MEASURED by tcscope",
           "mmasim_source = MMA-Sim %s (PyPI mmasim, author Peichen Xie): the objects it builds, read from the "
           "installed package, and its answers to single inputs" % version,
           "mmasim_not_decidable_means = a field MMA-Sim states nothing about (no parameter, no answer that "
           "tells): the profile holds the IEEE value, usable only as that choice"]
    for cls, fl in sorted(fl_by_class.items()):
        stated = {k for k, _, _ in fl}
        out.append(("mmasim_not_decidable %s" % cls)[:63] + " = " +
                   ", ".join(k for k, _ in NOT_DECIDABLE if k not in stated))
        for k, v, why in fl:
            out.append(("mmasim_field %s %s" % (cls, k))[:63] + " = " + ("%s from %s" % (v, why))[:250])
    return out


def write_fields_md(classes, version):
    """tools/data/mmasim-blackwell-fields.md: per arithmetic class, each field's value and where it was read."""
    cols = [(gpu, cls) for gpu in ("b200", "rtx5090") for cls in sorted(classes[gpu])]
    lines = ["# Blackwell fields from MMA-Sim %s: third-party, not measured" % version, "",
             "Written by `tools/mmasim_blackwell.py` (tools/MMASIM.md). One column per GPU profile and MMA-Sim",
             "arithmetic class (with the PTX kind); each cell the field's value, its source in",
             "`oracle/profiles/b200.profile` / `rtx5090.profile` [about]. **not decidable**: MMA-Sim states",
             "nothing that tells (the profile holds the IEEE value, usable only as that choice).", "",
             "| field | " + " | ".join("%s %s" % (g, c.replace("MMA_", "").replace("_FDPA", "")) for g, c in cols) + " |",
             "|---|" + "---|" * len(cols)]
    for field in ORDER:
        cells = []
        for g, c in cols:
            v = {k: val for k, val, _ in classes[g][c]}.get(field)
            cells.append("`%s`" % v if v is not None else "not decidable")
        lines.append("| %s | %s |" % (field, " | ".join(cells)))
    lines += ["", "Where each value was read (the first form of each class):", ""]
    for g, c in cols:
        lines.append("- %s %s: " % (g, c) + "; ".join("%s from %s" % (k, why) for k, _, why in classes[g][c]))
    with open("tools/data/mmasim-blackwell-fields.md", "w") as fo:
        fo.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2, help="random inputs per form and region")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--data", default="tools/data/mmasim-blackwell.txt.gz")
    args = ap.parse_args()
    version = importlib.metadata.version("mmasim")
    rng = random.Random(args.seed)
    fs = forms()
    profiles = {"b200": [], "rtx5090": []}
    classes = {"b200": {}, "rtx5090": {}}
    rows = []
    for f in fs:
        fl = fields(f)
        profiles[f.gpu] += section(f, fl)
        key = "%s %s %s" % (type(f.op.arithmetic_op).__name__, f.kind, f.d)
        classes[f.gpu].setdefault(key, fl)
        for region in ("random", "wide", "zero", "cancel", "tiny", "specials", "align"):
            if region == "align" and (not f.sfmt or f.k // f.block < 2):
                continue
            n = args.rows * (4 if region == "random" and f.a == f.b and f.a in ("e4m3", "e2m1") else 1)
            n = 8 * args.rows if region == "align" else n
            batch = [inputs(f, rng, region) for _ in range(n)]
            A, B, C = [x[0] for x in batch], [x[1] for x in batch], [x[2] for x in batch]
            SA = [x[3] for x in batch] if f.sfmt else None
            SB = [x[4] for x in batch] if f.sfmt else None
            D = ask(f, A, B, C, SA, SB)
            for i in range(n):
                h = (lambda v: ",".join("%x" % x for x in v))
                rows.append("%s %s %s %x %s %s %x" % (f.name, h(A[i]), h(B[i]), C[i], h(SA[i]) if SA else "-",
                                                      h(SB[i]) if SB else "-", D[i]))
    # rtx5090: the whole file; b200: the audit's part kept, ours after MARK
    head = ["# tcscope model profile (oracle/profile.h): THIRD-PARTY, NOT MEASURED.",
            "# Written by tools/mmasim_blackwell.py from MMA-Sim %s; every field's source is in [about]." % version]
    with open("oracle/profiles/rtx5090.profile", "w") as fo:
        fo.write("\n".join(head + about("rtx5090", version, classes["rtx5090"]) + profiles["rtx5090"]) + "\n")
    path = "oracle/profiles/b200.profile"
    kept = open(path).read().split(MARK)[0].rstrip("\n")
    with open(path, "w") as fo:
        fo.write(kept + "\n\n" + MARK + "\n" + "\n".join(about("b200", version, classes["b200"]) + profiles["b200"])
                 + "\n")
    write_fields_md(classes, version)
    for gpu in classes:
        for key, fl in classes[gpu].items():
            bad = [k for k, v, _ in fl if v == "?"]
            if bad:
                raise SystemExit("%s %s: MMA-Sim's answer fits no value of %s" % (gpu, key, ", ".join(bad)))
    with gzip.GzipFile(args.data, "wb", mtime=0) as fo:
        fo.write(("# MMA-Sim %s answers (tools/mmasim_blackwell.py --rows %d --seed %d): NAME A B C SA SB D, "
                  "hex bits (FP6/FP4 codes in the low bits)\n" % (version, args.rows, args.seed)).encode())
        fo.write(("\n".join(rows) + "\n").encode())
    print("%d forms, %d rows -> %s; profiles rtx5090, b200" % (len(fs), len(rows), args.data))


if __name__ == "__main__":
    main()
