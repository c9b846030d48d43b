#!/usr/bin/env python3
"""mmasim_check: model:h100 against MMA-Sim, an independent bit-accurate
simulator of NVIDIA tensor-core MMAs (PyPI `mmasim` by its authors, whose
metadata names Peichen Xie; needs PyTorch). Issue #12, item 4. Not a runtime or CI dependency: run it
from a throw-away venv (tools/MMASIM.md).

For every dense H100 catalogue instruction MMA-Sim models for "Hopper"
(mma f16/bf16/tf32/f64, wgmma tf32/f16/bf16/e4m3/e5m2, every N, SS and RS),
plus the emulated FP8 mma.m16n8k32 composed from MMA-Sim's Hopper f16 HMMA
(see composed_fp8), it draws inputs aimed at one region each (REGIONS),
computes one output element d = sum a[k]*b[k] + c with MMA-Sim (dpa: a row
of A, a column of B, C's element: our convention) and with
build/opt/tools/model_eval, and writes the disagreements (JSON lines, a few
per type and region) and a summary table.

  /tmp/mmasim-venv/bin/python tools/mmasim_check.py [--n N] [--seed S]
      [--out tools/data/mmasim-disagreements.jsonl] [--summary tools/data/mmasim-summary.md]
      [--profile PATH] [--only SUBSTRING] [--keep K]
"""
import argparse
import json
import math
import random
import struct
import subprocess
import sys
from collections import defaultdict

import torch
from mmasim.nv_ptx import MMA, WGMMA
from mmasim.nv_ptx import isa_mma, isa_wgmma
from mmasim.arithmetic import fdpa

ARCH = "Hopper"


class Fmt:
    """A floating-point format as container bits (tf32: 19 bits in the top of 32)."""

    def __init__(self, name, e, m, bits, shift=0, ieee=True):
        self.name, self.e, self.m, self.bits, self.shift, self.ieee = name, e, m, bits, shift, ieee
        self.bias = (1 << (e - 1)) - 1
        self.emin = 1 - self.bias
        self.emax = ((1 << e) - 2 if ieee else (1 << e) - 1) - self.bias
        self.sub = self.emin - m  # exponent of the smallest subnormal

    def enc(self, s, E, frac):
        return ((s << (self.e + self.m)) | (E << self.m) | frac) << self.shift

    def max_frac(self, E):
        # e4m3 (no Inf): exponent field all ones holds normals up to frac 6; 7 is NaN
        return (1 << self.m) - (2 if not self.ieee and E == (1 << self.e) - 1 else 1)

    def val(self, bits):
        x = bits >> self.shift
        s, E, f = x >> (self.e + self.m), (x >> self.m) & ((1 << self.e) - 1), x & ((1 << self.m) - 1)
        if (self.ieee and E == (1 << self.e) - 1) or (not self.ieee and E == (1 << self.e) - 1 and f == (1 << self.m) - 1):
            return math.nan if f or not self.ieee else (-math.inf if s else math.inf)
        v = math.ldexp(f if E == 0 else f + (1 << self.m), max(E, 1) - self.bias - self.m)
        return -v if s else v

    def with_exp(self, rng, e, s=None):
        """Random value whose leading bit has exponent e (normal or subnormal), or None."""
        s = rng.getrandbits(1) if s is None else s
        if self.emin <= e <= self.emax:
            E = e + self.bias
            return self.enc(s, E, rng.randint(0, self.max_frac(E)))
        if self.sub <= e < self.emin:
            lead = e - self.sub
            return self.enc(s, 0, (1 << lead) | rng.getrandbits(lead) if lead else 1)
        return None

    def exact(self, x):
        """Bits of the double x, which must be representable (else None)."""
        if math.isnan(x) or math.isinf(x):
            return None
        s = 1 if math.copysign(1.0, x) < 0 else 0
        a = abs(x)
        if a == 0:
            return self.enc(s, 0, 0)
        e = math.frexp(a)[1] - 1
        if e > self.emax:
            return None
        if e >= self.emin:
            f = math.ldexp(a, self.m - e) - (1 << self.m)
            E = e + self.bias
        else:
            f, E = math.ldexp(a, -self.sub), 0
        if f != int(f) or f > self.max_frac(E) + (0 if E else 1):
            return None
        return self.enc(s, E, int(f))

    def cls(self, bits):
        v = self.val(bits)
        return "nan" if v != v else "inf" if math.isinf(v) else "zero" if v == 0 else "subnormal" if abs(v) < math.ldexp(1, self.emin) else "normal"

    def zero(self, s):
        return self.enc(s, 0, 0)

    def inf(self, s):  # e4m3 has none: its largest finite
        return self.enc(s, (1 << self.e) - 1, 0) if self.ieee else self.enc(s, (1 << self.e) - 1, 6)

    def nans(self):
        top = (1 << self.e) - 1
        if not self.ieee:
            return [self.enc(0, top, 7), self.enc(1, top, 7)]
        q = 1 << (self.m - 1)
        return [self.enc(s, top, f) for s in (0, 1) for f in sorted({q, 1, q | 1, (1 << self.m) - 1})]


FMTS = {f.name: f for f in [
    Fmt("f16", 5, 10, 16), Fmt("bf16", 8, 7, 16), Fmt("tf32", 8, 10, 32, shift=13), Fmt("f32", 8, 23, 32),
    Fmt("f64", 11, 52, 64), Fmt("e4m3", 4, 3, 8, ieee=False), Fmt("e5m2", 5, 2, 8)]}
TORCH = {"f16": (torch.float16, torch.int16), "bf16": (torch.bfloat16, torch.int16),
         "tf32": (torch.float32, torch.int32), "f32": (torch.float32, torch.int32),
         "f64": (torch.float64, torch.int64), "e4m3": (torch.float8_e4m3fn, torch.uint8),
         "e5m2": (torch.float8_e5m2, torch.uint8)}


def to_tensor(fmt, rows):
    dt, it = TORCH[fmt.name]
    w = fmt.bits
    signed = it != torch.uint8
    fix = (lambda v: v - (1 << w) if signed and v >> (w - 1) else v)
    return torch.tensor([[fix(v) for v in r] if isinstance(r, list) else fix(r) for r in rows], dtype=it).view(dt)


def from_tensor(fmt, t):
    _, it = TORCH[fmt.name]
    mask = (1 << fmt.bits) - 1
    return [v & mask for v in t.contiguous().view(it).tolist()]


# ---------------------------------------------------------------- instructions

class Kind:
    """One instruction type: our instruction names (variants) and how MMA-Sim computes it."""

    def __init__(self, key, names, a, b, c, k, op, align, composed=None):
        self.key, self.names, self.k, self.align, self.composed = key, names, k, align, composed is not None
        self.sim = composed or op.dpa
        self.a, self.b, self.c = FMTS[a], FMTS[b], FMTS[c]
        # sensitivity controls: MMA-Sim's arithmetic with one kept bit fewer
        # (F-1), and in two steps of K/2; the random region must tell them
        # from model:h100, or agreeing on it proves nothing
        t = getattr(op, "arithmetic_op", None)
        if isinstance(t, fdpa.MMA_T_FDPA):
            self.ctl = [fdpa.MMA_T_FDPA(t.F - 1, t.rho, t.L_max, t.e_zero, a, b).dpa,
                        fdpa.MMA_T_FDPA(t.F, t.rho, k // 2, t.e_zero, a, b).dpa]
        elif composed:
            self.ctl = [composed_fp8(c, k, F=24), composed_fp8(c, k, contiguous=True)]
        else:  # the f64 FMA chain: in reverse K order
            self.ctl = [lambda A, B, C: op.dpa(A.flip(-1), B.flip(-1), C)]


def composed_fp8(dname, k, F=25, contiguous=False):
    """The emulated FP8 mma.m16n8k32 (MMA-Sim has no Hopper FP8 mma.sync): the
    operands widened to f16 (exact), two MMA-Sim Hopper HMMA.16816 steps from
    +0, K dealt to them in runs of 2, then C added with one rounding to
    nearest. The structure is the one the SASS shows and the profile infers
    (doc/findings.md), so this checks MMA-Sim's HMMA arithmetic on widened FP8
    operands, not the structure. F and contiguous: the controls."""
    t = MMA(ARCH, "m16n8k16.%s.f16.f16.%s" % (dname, dname)).arithmetic_op
    hm = fdpa.MMA_T_FDPA(F, t.rho, t.L_max, t.e_zero, "f16", "f16")
    s1 = [i for i in range(k) if (i < k // 2 if contiguous else (i // 2) % 2 == 0)]
    s2 = [i for i in range(k) if i not in s1]

    def run(a, b, c):
        a16, b16 = a.to(torch.float16), b.to(torch.float16)
        d = torch.zeros(c.shape, dtype=c.dtype)
        for s in (s1, s2):
            d = hm.dpa(a16[:, s], b16[:, s], d)
        if dname == "f32":
            out = d + c
            bits = out.view(torch.int32)
            bits[out.isnan()] = 0x7FFFFFFF
            return out
        res = []  # f16 + f16 is exact in a double; struct rounds a double to f16 once (RNE)
        for x, y in zip(d.double().tolist(), c.double().tolist()):
            z = x + y
            if math.isnan(z):
                res.append(0x7FFF)
                continue
            try:
                res.append(struct.unpack("<H", struct.pack("<e", z))[0])
            except OverflowError:
                res.append(0xFC00 if z < 0 else 0x7C00)
        return torch.tensor([v - 65536 if v >> 15 else v for v in res], dtype=torch.int16).view(torch.float16)
    return run


def die(msg):
    print("mmasim_check: " + msg, file=sys.stderr)
    sys.exit(2)


def run(cmd, stdin=""):
    try:
        r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    except OSError as e:
        die("%s: %s (build it: make NVCC= build/tcscope build/opt/tools/model_eval)" % (cmd[0], e))
    if r.returncode:
        die("%s failed: %s" % (cmd[0], r.stderr.strip()))
    return r.stdout


def kinds(tcscope):
    names = [l.split()[0] for l in run([tcscope, "list", "--backend", "model:h100"]).splitlines()[1:] if l.strip()]
    mma_ok, wg_ok = set(isa_mma.mma_shape_and_type[ARCH]), set(isa_wgmma.wgmma_shape_and_type[ARCH])
    groups = {}
    for n in names:
        p = n.split(".")
        if p[0] == "mma" and len(p) == 6:
            shape, d, a, b, c = p[1:]
            rest = ".".join(p[1:])
            fp8 = a in ("e4m3", "e5m2")
            if rest in mma_ok:
                op = MMA(ARCH, rest)
                groups[n] = Kind(n, [n], a, b, c, op.k, op, 13 if fp8 else 25)
            elif fp8 and shape == "m16n8k32":
                groups[n] = Kind(n, [n], a, b, c, 32, None, 25, composed=composed_fp8(d, 32))
        elif p[0] == "wgmma" and len(p) in (5, 6) and (len(p) == 5 or p[5] == "rs"):
            shape, d, a, b = p[1:5]
            if ".".join(p[1:5]) not in wg_ok:
                continue
            key = "wgmma.m64nN%s.%s.%s.%s" % (shape[shape.index("k"):], d, a, b)
            if key not in groups:
                # MMA-Sim's wgmma arithmetic does not depend on N (fdpa.MMA_T_FDPA): one object per type
                op = WGMMA(ARCH, ".".join(p[1:5]))
                groups[key] = Kind(key, [], a, b, d, op.k, op, 13 if a in ("e4m3", "e5m2") else 25)
            groups[key].names.append(n)
    return list(groups.values())


# ---------------------------------------------------------------- generators
# Each returns (a[K], b[K], c) as container bits, aimed at one region.

def finite(f, rng, lo=-6, hi=6):
    return f.with_exp(rng, rng.randint(max(lo, f.emin), min(hi, f.emax)))


def zero_term(kd, rng):
    r = rng.random()
    if r < 0.4:
        return kd.a.zero(rng.getrandbits(1)), finite(kd.b, rng)
    if r < 0.8:
        return finite(kd.a, rng), kd.b.zero(rng.getrandbits(1))
    return kd.a.zero(rng.getrandbits(1)), kd.b.zero(rng.getrandbits(1))


def fill(kd, rng, pick):
    """A and B of K terms: pick(i) gives term i as (a, b), or None for a zero product."""
    ts = [pick(i) or zero_term(kd, rng) for i in range(kd.k)]
    return [t[0] for t in ts], [t[1] for t in ts]


def split_exp(kd, rng, pe):
    """(a, b) whose leading exponents add to pe, or None when out of reach."""
    lo, hi = max(kd.a.sub, pe - kd.b.emax), min(kd.a.emax, pe - kd.b.sub)
    if lo > hi:
        return None
    ea = rng.randint(lo, hi)
    return kd.a.with_exp(rng, ea), kd.b.with_exp(rng, pe - ea)


def prod_range(kd):
    return kd.a.sub + kd.b.sub, kd.a.emax + kd.b.emax


def prod_exp(kd, rng, want_lo, want_hi):
    """A product exponent in [want_lo, want_hi] where the inputs reach it, else at the bottom of their reach."""
    lo, hi = prod_range(kd)
    lo2, hi2 = max(lo, want_lo), min(hi, want_hi)
    return rng.randint(lo2, hi2) if lo2 <= hi2 else rng.randint(lo, min(hi, lo + 20))


def gen_random(kd, rng):
    return [finite(kd.a, rng) for _ in range(kd.k)], [finite(kd.b, rng) for _ in range(kd.k)], finite(kd.c, rng, -4, 8)


def gen_zero_result(kd, rng):
    # every product a zero (+-0 in either operand), C +-0; a quarter with every
    # product of one sign and C of one sign (the IEEE -0 + -0 = -0 case)
    terms = [zero_term(kd, rng) for _ in range(kd.k)]
    if rng.random() < 0.5:
        sp = rng.getrandbits(1)
        fix = []
        for a, b in terms:  # make the product's sign sp: flip A's sign bit when needed
            sa = (a >> (kd.a.bits - 1)) & 1
            sb = (b >> (kd.b.bits - 1)) & 1
            fix.append((a ^ (1 << (kd.a.bits - 1)) if sa ^ sb != sp else a, b))
        terms = fix
    return [t[0] for t in terms], [t[1] for t in terms], kd.c.zero(rng.getrandbits(1))


def gen_zero_terms(kd, rng):
    # some products zero, the others nonzero, anywhere from the bottom of the
    # output's range to moderate; C +-0, tiny or moderate
    nz = rng.randint(1, max(1, kd.k // 2))
    pos = set(rng.sample(range(kd.k), nz))
    band = rng.random() < 0.6
    a, b = fill(kd, rng, lambda i: split_exp(kd, rng, prod_exp(kd, rng, kd.c.sub - kd.align - 8, kd.c.emin + 12)
                                                if band else prod_exp(kd, rng, -8, 8)) if i in pos else None)
    r = rng.random()
    c = kd.c.zero(rng.getrandbits(1)) if r < 0.5 else kd.c.with_exp(rng, rng.randint(kd.c.sub, kd.c.emin + 4)) if r < 0.75 else finite(kd.c, rng)
    return a, b, c


# MMA-Sim's exponent for a zero product on Hopper (fdpa e_zero, sim.py): a
# zero term takes part in its alignment at 2^-133 (f32 out) or 2^-21 (f16 out)
ZERO_REF = {"f32": -133, "f16": -21}


def gen_zero_terms_low(kd, rng):
    # at least one zero product, every nonzero product below the exponent
    # MMA-Sim gives a zero (down to F+4 bits below it): do zero terms set the
    # alignment reference? C +-0 (a quarter: subnormal)
    ref = ZERO_REF.get(kd.c.name, kd.c.emin)
    nz = set(rng.sample(range(kd.k), rng.randint(1, kd.k - 1)))
    a, b = fill(kd, rng, lambda i: split_exp(kd, rng, prod_exp(kd, rng, ref - kd.align - 4, ref - 1)) if i in nz else None)
    c = kd.c.with_exp(rng, rng.randint(kd.c.sub, kd.c.emin - 1)) if rng.random() < 0.25 else kd.c.zero(rng.getrandbits(1))
    return a, b, c


def neg(f, x):
    return x ^ (1 << (f.bits - 1))


def gen_cancel(kd, rng):
    # pairs a*b and (-a)*b in shuffled positions, C +-0: exactly zero; or one
    # product of a power-of-two B cancelled by C; a third keep one small
    # residual term 2^(F-2..F+3) below the cancelled ones (truncated or not)
    k, pos = kd.k, list(range(kd.k))
    rng.shuffle(pos)
    a, b = [None] * k, [None] * k
    e = rng.randint(-4, 4)
    c = kd.c.zero(rng.getrandbits(1))
    start = 0
    if rng.random() < 0.4:
        x = kd.a.with_exp(rng, max(kd.a.emin, min(kd.a.emax, e)))
        y = kd.b.with_exp(rng, 0)
        y = kd.b.enc((y >> (kd.b.bits - 1)) & 1, kd.b.bias, 0)  # +-1
        cc = kd.c.exact(-kd.a.val(x) * kd.b.val(y))
        if cc is not None:
            a[pos[0]], b[pos[0]], c, start = x, y, cc, 1
    resid = rng.random() < 0.33
    for j in range(start, k - 1, 2):
        x, y = kd.a.with_exp(rng, max(kd.a.emin, min(kd.a.emax, e + rng.randint(-2, 2)))), finite(kd.b, rng, -2, 2)
        a[pos[j]], b[pos[j]] = x, y
        a[pos[j + 1]], b[pos[j + 1]] = neg(kd.a, x), y
    for i in range(k):
        if a[i] is None:
            t = split_exp(kd, rng, e - kd.align + rng.randint(-2, 3)) if resid else None
            a[i], b[i] = t or zero_term(kd, rng)
            resid = False
    return a, b, c


def gen_tiny(kd, rng):
    # results at the bottom of the output's range: products around its
    # subnormals (where the inputs reach), C subnormal or zero
    zero_prods = rng.random() < 0.3
    a, b = fill(kd, rng, lambda i: split_exp(kd, rng, prod_exp(kd, rng, kd.c.sub - 4, kd.c.emin + 2))
                if not zero_prods and rng.random() < 0.7 else None)
    c = kd.c.with_exp(rng, rng.randint(kd.c.sub, kd.c.emin - 1)) if rng.random() < 0.7 else kd.c.zero(rng.getrandbits(1))
    return a, b, c


def gen_subnormal_ops(kd, rng):
    # A and B subnormal in their own formats (FP8 subnormals on FP8 types).
    # Half the inputs: the largest product has a subnormal operand (its
    # exponent field says emin, its value is lower: which one sets the
    # alignment?) and the other terms sit F-3..F+3 bits below its value.
    # The rest: subnormals mixed with normals and zeros, C zero, tiny or moderate.
    if rng.random() < 0.5:
        fs, fn = (kd.a, kd.b) if rng.random() < 0.5 else (kd.b, kd.a)
        x, y = fs.with_exp(rng, rng.randint(fs.sub, fs.emin - 1)), fn.with_exp(rng, rng.randint(max(fn.emin, 0), fn.emax))
        lead = (x, y) if fs is kd.a else (y, x)
        pe = math.frexp(abs(kd.a.val(lead[0]) * kd.b.val(lead[1])))[1] - 1
        a, b = fill(kd, rng, lambda i: lead if i == 0 else
                    split_exp(kd, rng, pe - kd.align + rng.randint(-3, 3)) if rng.random() < 0.6 else None)
        perm = list(range(kd.k))
        rng.shuffle(perm)
        c = kd.c.with_exp(rng, pe - kd.align + rng.randint(-3, 3)) if rng.random() < 0.5 else None
        return [a[i] for i in perm], [b[i] for i in perm], c if c is not None else kd.c.zero(rng.getrandbits(1))

    def op(f):
        r = rng.random()
        if r < 0.6:
            return f.with_exp(rng, rng.randint(f.sub, f.emin - 1))
        return finite(f, rng, -3, 3) if r < 0.9 else f.zero(rng.getrandbits(1))
    r = rng.random()
    c = kd.c.zero(rng.getrandbits(1)) if r < 0.4 else finite(kd.c, rng, -20, 0) if r < 0.8 else kd.c.with_exp(rng, rng.randint(kd.c.sub, kd.c.emin - 1))
    return [op(kd.a) for _ in range(kd.k)], [op(kd.b) for _ in range(kd.k)], c


def low_nan(f, rng):
    """A NaN whose payload lies only in bits a conversion drops (tf32's low 13), else any NaN."""
    if f.shift:
        return (rng.getrandbits(1) << 31) | (0xFF << 23) | rng.randint(1, (1 << f.shift) - 1)
    return rng.choice(f.nans())


def gen_nan(kd, rng):
    # one or two NaN operands (payloads in dropped bits first), the rest finite or zero
    a = [finite(kd.a, rng) if rng.random() < 0.7 else kd.a.zero(rng.getrandbits(1)) for _ in range(kd.k)]
    b = [finite(kd.b, rng) if rng.random() < 0.7 else kd.b.zero(rng.getrandbits(1)) for _ in range(kd.k)]
    c = finite(kd.c, rng) if rng.random() < 0.7 else kd.c.zero(rng.getrandbits(1))
    for _ in range(rng.randint(1, 2)):
        w, i = rng.random(), rng.randrange(kd.k)
        if w < 0.4:
            a[i] = low_nan(kd.a, rng) if rng.random() < 0.8 else rng.choice(kd.a.nans())
        elif w < 0.8:
            b[i] = low_nan(kd.b, rng) if rng.random() < 0.8 else rng.choice(kd.b.nans())
        else:
            c = rng.choice(kd.c.nans())
    return a, b, c


def gen_inf(kd, rng):
    # Inf (e4m3: its largest finite) in A, B, C with every sign, against
    # zeros (Inf*0), opposite Infs (Inf-Inf) and finite values
    a = [finite(kd.a, rng) if rng.random() < 0.6 else kd.a.zero(rng.getrandbits(1)) for _ in range(kd.k)]
    b = [finite(kd.b, rng) if rng.random() < 0.6 else kd.b.zero(rng.getrandbits(1)) for _ in range(kd.k)]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(kd.k)
        if rng.random() < 0.5:
            a[i] = kd.a.inf(rng.getrandbits(1))
        else:
            b[i] = kd.b.inf(rng.getrandbits(1))
    r = rng.random()
    c = kd.c.inf(rng.getrandbits(1)) if r < 0.4 else kd.c.zero(rng.getrandbits(1)) if r < 0.6 else finite(kd.c, rng)
    return a, b, c


def gen_align(kd, rng):
    # one big term (a product or C) and small terms 2^(F-2..F+2) below it
    # (F = the kept bits: 25, FP8 wgmma 13), the rest zero
    E = rng.randint(-2, 4)
    d = kd.align + rng.randint(-2, 2)
    big_c = rng.random() < 0.3
    a, b = fill(kd, rng, lambda i: split_exp(kd, rng, E) if i == 0 and not big_c else
                split_exp(kd, rng, E - d) if rng.random() < 0.5 else None)
    c = kd.c.with_exp(rng, E + (0 if big_c else 1 if rng.random() < 0.3 else -d)) or kd.c.zero(0)
    return a, b, c


def gen_overflow(kd, rng):
    # products and C near the output's largest finite, signs mixed: overflow,
    # or not, under the truncating accumulator
    top = kd.c.emax
    a, b = fill(kd, rng, lambda i: split_exp(kd, rng, min(prod_range(kd)[1], top - rng.randint(0, 3)))
                if rng.random() < 0.6 else None)
    c = kd.c.with_exp(rng, top - rng.randint(0, 2)) if rng.random() < 0.6 else kd.c.zero(rng.getrandbits(1))
    return a, b, c


CLASSES = ["zero", "subnormal", "normal", "inf", "nan"]
REGIONS = [("random", gen_random), ("zero_result", gen_zero_result), ("zero_terms", gen_zero_terms),
           ("zero_terms_low", gen_zero_terms_low),
           ("cancel_to_zero", gen_cancel), ("tiny_result", gen_tiny), ("subnormal_operands", gen_subnormal_ops),
           ("nan_payload", gen_nan), ("inf_nan_signs", gen_inf), ("alignment", gen_align), ("overflow", gen_overflow)]


# ---------------------------------------------------------------- run

def model_answers(model_eval, profile, lines):
    out = run([model_eval] + (["--profile", profile] if profile else []), "".join(lines)).split()
    if len(out) != len(lines):
        die("model_eval: %d answers for %d lines" % (len(out), len(lines)))
    return [int(x, 16) for x in out]


def what(f, x, y):
    """How two answers differ: the sign of a zero, NaN against Inf, NaN payloads, or the value."""
    cx, cy = f.cls(x), f.cls(y)
    if cx == cy == "zero":
        return "zero_sign"
    if cx == cy == "nan":
        return "nan_bits"
    if {cx, cy} == {"nan", "inf"}:
        return "nan_vs_inf"
    return "value"


def hx(f, v):
    return "%0*x" % ((f.bits + 3) // 4, v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="inputs per type and region (random: 3x)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--out", default="tools/data/mmasim-disagreements.jsonl")
    ap.add_argument("--summary", default="tools/data/mmasim-summary.md")
    ap.add_argument("--profile", default=None, help="model_eval --profile (default: model:h100)")
    ap.add_argument("--only", default="", help="only types whose key contains this")
    ap.add_argument("--keep", type=int, default=4, help="disagreements kept per type and region")
    ap.add_argument("--tcscope", default="build/tcscope")
    ap.add_argument("--model-eval", default="build/opt/tools/model_eval")
    args = ap.parse_args()
    if args.n < 1 or args.keep < 0:
        die("--n must be >= 1 and --keep >= 0")

    rng = random.Random(args.seed)
    todo = []  # (kind, region, inputs, MMA-Sim's answers, the controls' answers on the random inputs)
    for kd in kinds(args.tcscope):
        if args.only not in kd.key:
            continue
        for region, gen in REGIONS:
            n = args.n * (3 if region == "random" else 1)
            inputs = [gen(kd, rng) for _ in range(n)]
            A = to_tensor(kd.a, [x[0] for x in inputs])
            B = to_tensor(kd.b, [x[1] for x in inputs])
            C = to_tensor(kd.c, [x[2] for x in inputs])
            ctl = [from_tensor(kd.c, f(A, B, C)) for f in kd.ctl] if region == "random" else []
            todo.append((kd, region, inputs, from_tensor(kd.c, kd.sim(A, B, C)), ctl))
    lines = []
    for kd, region, inputs, _, _ in todo:
        for a, b, c in inputs:
            body = " %s %s %x\n" % (",".join("%x" % v for v in a), ",".join("%x" % v for v in b), c)
            lines.extend(name + body for name in kd.names)
    ours = iter(model_answers(args.model_eval, args.profile, lines))

    table = defaultdict(lambda: [0, 0, 0])  # (key, region) -> compared, disagreed, split across variants
    control = {}  # key -> [compared, inputs where F-1 disagrees with the model, .. where K/2 steps do]
    reached = defaultdict(lambda: defaultdict(int))  # region -> class of MMA-Sim's D -> inputs
    kept, seen = defaultdict(int), defaultdict(int)
    kinds_seen = defaultdict(int)  # (region, how they differ) -> disagreeing inputs
    with open(args.out, "w") as out:
        for kd, region, inputs, sim, ctl in todo:
            row = table[(kd.key, region)]
            for i, ((a, b, c), d_sim) in enumerate(zip(inputs, sim)):
                d_ours = [next(ours) for _ in kd.names]
                reached[region][kd.c.cls(d_sim)] += 1
                if ctl:
                    v = control.setdefault(kd.key, [0] * (1 + len(ctl)))
                    v[0] += 1
                    for j, cd in enumerate(ctl):
                        v[1 + j] += any(d != cd[i] for d in d_ours)
                bad = [nm for nm, d in zip(kd.names, d_ours) if d != d_sim]
                row[0] += 1
                if not bad:
                    continue
                row[1] += 1
                row[2] += len(bad) != len(kd.names)
                d_model = d_ours[kd.names.index(bad[0])]
                how = what(kd.c, d_sim, d_model)
                kinds_seen[(region, how)] += 1
                sig = (kd.key, region, d_sim, d_model)  # at most 2 of one answer pair, for variety
                if seen[sig] >= 2 or kept[(kd.key, region)] >= args.keep:
                    continue
                seen[sig] += 1
                kept[(kd.key, region)] += 1
                out.write(json.dumps({
                    "instr": bad[0], "also": bad[1:], "region": region, "differ": how, "composed": kd.composed,
                    "a": [hx(kd.a, v) for v in a], "b": [hx(kd.b, v) for v in b], "c": hx(kd.c, c),
                    "mmasim_d": hx(kd.c, d_sim), "model_d": hx(kd.c, d_model),
                    "mmasim_value": repr(kd.c.val(d_sim)), "model_value": repr(kd.c.val(d_model))}) + "\n")

    write_summary(args, todo, table, control, reached, kinds_seen)
    print(open(args.summary).read())
    print("disagreements written to", args.out)


def write_summary(args, todo, table, control, reached, kinds_seen):
    regions = [r for r, _ in REGIONS]
    keys = list(dict.fromkeys(k for k, _ in table))
    with open(args.summary, "w") as s:
        s.write("# model:h100 against MMA-Sim %s (%s)\n\n" % (mmasim_version(), ARCH))
        s.write("Cells: disagreeing inputs / inputs compared (each input compared on every variant of the type; "
                "`*`: variants of one type disagreed differently). Seed %d, --n %d.\n\n" % (args.seed, args.n))
        s.write("Controls, on the random inputs against model:h100: control 1 is MMA-Sim's arithmetic with one kept "
                "bit fewer (F-1; f64: the FMA chain in reverse K order), control 2 the same in two steps of K/2 "
                "(composed FP8: K split contiguously instead of in runs of 2). They must disagree often, or "
                "agreeing on the random inputs proves nothing about the mapping.\n\n")
        s.write("| type | variants | " + " | ".join(regions) + " | control 1 | control 2 |\n|" + "---|" * (len(regions) + 4) + "\n")
        for k in keys:
            kd = next(x for x in todo if x[0].key == k)[0]
            cells = []
            for r in regions:
                c, d, split = table[(k, r)]
                cells.append("%d/%d%s" % (d, c, "*" if split else ""))
            ctl = " | ".join("%d/%d" % (control[k][j], control[k][0]) if j < len(control[k]) else "-" for j in (1, 2))
            s.write("| %s%s | %d | %s | %s |\n" % (k, " (composed)" if kd.composed else "", len(kd.names), " | ".join(cells), ctl))
        tot = [sum(table[(k, r)][0] for k in keys) for r in regions], [sum(table[(k, r)][1] for k in keys) for r in regions]
        s.write("| **all** | | " + " | ".join("%d/%d" % (d, c) for c, d in zip(*tot)) + " | %s |\n" % " | ".join(
            "%d/%d" % (sum(v[j] for v in control.values() if j < len(v)), sum(v[0] for v in control.values() if j < len(v)))
            for j in (1, 2)))
        s.write("\nWhat each region reached (MMA-Sim's D, all types):\n\n| region | " + " | ".join(CLASSES) + " |\n|"
                + "---|" * (len(CLASSES) + 1) + "\n")
        for r in regions:
            s.write("| %s | %s |\n" % (r, " | ".join(str(reached[r][c]) for c in CLASSES)))
        hows = ["zero_sign", "nan_vs_inf", "nan_bits", "value"]
        s.write("\nHow the disagreeing inputs differ (all types):\n\n| region | " + " | ".join(hows) + " |\n|"
                + "---|" * (len(hows) + 1) + "\n")
        for r in regions:
            s.write("| %s | %s |\n" % (r, " | ".join(str(kinds_seen[(r, h)]) for h in hows)))


def mmasim_version():
    try:
        from importlib.metadata import version
        return version("mmasim")
    except Exception:
        return "?"


if __name__ == "__main__":
    main()
