"""The per-architecture ISA tables probes/isa/arch/smXX.def as Python objects,
and the PTX text of one form.

A table lists the tensor-core forms its architecture adds; TC_ISA_ARCH names
the architecture it inherits from and the forms it does not carry over
(wgmma exists on sm_90a only). Rows:

  TC_ISA_ARCH(sm, target, parent, dropped)      once, first; dropped: the
      parent's forms it lacks, as name patterns (fnmatch) joined by "|"
  TC_ISA_SASS(pattern, sass)
      on this architecture (and those inheriting from it) the forms whose
      name matches pattern (fnmatch) compile to sass instead of their row's:
      cuobjdump's word for what ptxas does there ("-": no tensor-core
      opcode at all, the form is emulated)
  TC_ISA_FORM(api, m, n, k, d, a, b, c, mod, sass, isa_sm)
      api   mma, mma.sp, wmma, wgmma, wgmma.sp, tcgen05.mma, tcgen05.mma.sp
      d..c  PTX types; a field "x|y" stands for each of them (the rows are
            the product of the fields' choices)
      mod   the qualifiers that are part of the form: xor.popc, and.popc,
            rs (wgmma A from registers), kind::..., block_scale.scale_vec::NX.T,
            the A/B layouts of mma.m8n8k4 other than row.col (row.row,
            col.col, col.row)
      sass  the SASS opcode stem the form compiles to, or the opcode with its
            first modifiers (HMMA.884) (read from cuobjdump;
            tools/arch-sass-check.py checks every built kernel)
      isa_sm  the first architecture the PTX ISA gives the form, when it is
            one tcscope does not build (72: Xavier)

tools/isa-ptxas-check.py assembles every form for its architecture and for
each one that inherits it, and checks that the architecture below refuses it
(so "sm_89 adds e4m3 mma" is what ptxas says, not what a table claims).
"""
import fnmatch
import itertools
import os
import re
from collections import namedtuple

ARCH_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "arch")
ARCHS = ("sm70", "sm75", "sm80", "sm86", "sm89", "sm90a", "sm100a", "sm120a")
# The architectures CUDA 13 does not build: their table is checked, and their
# kernels built, by a CUDA 12.x ptxas (the Makefile's PTXAS12, doc/gpus.md).
TOOLKIT12 = ("sm70",)
# The A/B layouts a form may name (mma.m8n8k4); without one it is row.col.
LAYOUTS = ("row.row", "col.col", "col.row", "row.col")

# Container bits of an element in a register (tcgen05/kind forms aside).
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "e4m3": 8, "e5m2": 8,
        "e3m2": 8, "e2m3": 8, "e2m1": 8, "s8": 8, "u8": 8, "s32": 32, "s4": 4, "u4": 4, "b1": 1}

Arch = namedtuple("Arch", "key sm target parent dropped sass")
Form = namedtuple("Form", "name api m n k d a b c mod sass isa_sm first")


def _rows(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for macro, args in re.findall(r"\b(TC_ISA_\w+)\(([^)]*)\)", text):
        yield macro, [x.strip().strip('"') for x in args.split(",")]


def form_name(api, m, n, k, d, a, b, c, mod):
    """mma.m16n8k16.f32.f16.f16.f32 as the catalogue names it, with the
    form's qualifiers after it (mma.m8n8k128.s32.b1.b1.s32.xor.popc,
    wgmma.m64n8k16.f32.f16.f16.rs, tcgen05.mma.m128n8k16.f32.f16.f16)."""
    if api.startswith("wgmma") or api.startswith("tcgen05"):
        name = "%s.m%dn%dk%d.%s.%s.%s" % (api, m, n, k, d, a, b)
    else:
        name = "%s.m%dn%dk%d.%s.%s.%s.%s" % (api, m, n, k, d, a, b, c)
    return name + ("." + mod if mod else "")


def load(key):
    """(Arch, [Form]) of one table: the forms it adds, in table order."""
    path = os.path.join(ARCH_DIR, key + ".def")
    arch, forms, rules = None, [], []
    with open(path) as f:
        for macro, v in _rows(f.read()):
            if macro == "TC_ISA_ARCH":
                arch = Arch(key, int(v[0]), v[1], v[2] or None, tuple(x for x in v[3].split("|") if x), rules)
            elif macro == "TC_ISA_SASS":
                rules.append((v[0], v[1]))
            elif macro == "TC_ISA_FORM":
                api, m, n, k, d, a, b, c, mod, sass, isa_sm = v
                m, n, k = int(m), int(n), int(k)
                for ap, dd, aa, bb, cc, md in itertools.product(*(x.split("|") for x in (api, d, a, b, c, mod))):
                    if cc == "=d":     # C has D's type
                        cc = dd
                    forms.append(Form(form_name(ap, m, n, k, dd, aa, bb, cc, md), ap, m, n, k, dd, aa, bb, cc,
                                      md, sass, int(isa_sm) if isa_sm else 0, key))
            else:
                raise SystemExit("%s: unknown row %s" % (path, macro))
    if arch is None:
        raise SystemExit("%s: no TC_ISA_ARCH row" % path)
    return arch, forms


def tables():
    """{key: (Arch, [Form it adds])} of the eight tables."""
    return {k: load(k) for k in ARCHS}


def forms_on(key, t=None):
    """Every form architecture key has: its parent's (less the apis it
    drops), then its own."""
    t = t or tables()
    arch, own = t[key]
    inherited = []
    if arch.parent:
        inherited = [f for f in forms_on(arch.parent, t) if not dropped(arch, f)]
    return [_sass_here(arch, f) for f in inherited + own]


def _sass_here(arch, f):
    """f with the SASS stem arch's TC_ISA_SASS rules give it (the last match)."""
    for pattern, stem in arch.sass:
        if fnmatch.fnmatchcase(f.name, pattern):
            f = f._replace(sass=stem)
    return f


def dropped(arch, f):
    """True if arch lacks its parent's form f."""
    return any(fnmatch.fnmatchcase(f.name, p) for p in arch.dropped)


def regs(bits, elems):
    return elems if bits == 64 else max(1, (elems * bits + 31) // 32)


# wmma fragments hold more registers than m*k/32 elements for some shapes
# (the PTX ISA's fragment tables): A, B, C/D registers per (shape, A type).
WMMA_REGS = {
    ("m16n16k16", "f16"): (8, 8), ("m32n8k16", "f16"): (8, 8), ("m8n32k16", "f16"): (8, 8),
    ("m16n16k16", "s8"): (2, 2), ("m32n8k16", "s8"): (4, 1), ("m8n32k16", "s8"): (1, 4),
    ("m16n16k16", "bf16"): (4, 4), ("m32n8k16", "bf16"): (8, 2), ("m8n32k16", "bf16"): (2, 8),
    ("m16n16k8", "tf32"): (4, 4), ("m8n8k4", "f64"): (1, 1), ("m8n8k32", "s4"): (1, 1),
    ("m8n8k128", "b1"): (1, 1),
}
WMMA_ALIAS = {"u8": "s8", "u4": "s4"}


def operand_regs(f):
    """32-bit registers per thread (64-bit ones for f64) of A, B, C and D of
    a warp-level form; for wgmma A's (rs only: else a descriptor), 0, 0, D's."""
    if f.api == "wmma":
        shape = "m%dn%dk%d" % (f.m, f.n, f.k)
        na, nb = WMMA_REGS[(shape, WMMA_ALIAS.get(f.a, f.a))]
        acc = lambda t: 8 if t in ("f32", "s32") and f.m * f.n >= 256 else (4 if t == "f16" else 2)
        return na, nb, acc(f.c), acc(f.d)
    if f.api.startswith("wgmma"):
        return (regs(BITS[f.a], 64 * f.k // 128) if f.mod == "rs" else 0), 0, 0, regs(BITS[f.d], 64 * f.n // 128)
    abits = 4 if "mxf4" in f.mod else BITS[f.a]
    bbits = 4 if "mxf4" in f.mod else BITS[f.b]
    ka = f.k // 2 if f.api.endswith(".sp") else f.k
    if (f.m, f.n, f.k) == (8, 8, 4) and f.a == "f16":   # Volta's quad-pair shape: 4 of A, 4 of B, 8 of C
        return 2, 2, (4 if f.c == "f16" else 8), (4 if f.d == "f16" else 8)
    return (regs(abits, f.m * ka // 32), regs(bbits, f.k * f.n // 32), regs(BITS[f.c], f.m * f.n // 32),
            regs(BITS[f.d], f.m * f.n // 32))


def _list(prefix, start, n):
    return "{" + ",".join("%s%d" % (prefix, start + i) for i in range(n)) + "}"


def ptx(f, r="%r", rd="%rd", p="p"):
    """The PTX statement of form f with operand registers named r0, r1, ...
    (r: 32-bit, rd: 64-bit; every register numbered from 0 in the order
    D, A, B, C, then the extra operands); p the predicate for wgmma/tcgen05."""
    na, nb, nc, nd = operand_regs(f)
    wide = f.d == "f64"
    R = rd if wide else r
    if f.api == "wmma":
        shape = "m%dn%dk%d" % (f.m, f.n, f.k)
        types = {"f16": "%s.%s" % (f.d, f.c), "bf16": "f32.bf16.bf16.f32", "tf32": "f32.tf32.tf32.f32",
                 "f64": "f64.f64.f64.f64"}.get(f.a, "s32.%s.%s.s32" % (f.a, f.b))
        if f.a in ("f16",):
            types = "%s.%s" % (f.d, f.c)
        mod = "." + f.mod if f.mod else ""
        return "wmma.mma.sync.aligned.row.col.%s.%s%s %s, %s, %s, %s;" % (
            shape, types, mod, _list(R, 0, nd), _list(R, nd, na), _list(R, nd + na, nb), _list(R, nd + na + nb, nc))
    if f.api.startswith("wgmma"):
        sp = f.api.endswith(".sp")
        op = "wgmma.mma_async%s.sync.aligned.m%dn%dk%d.%s.%s.%s" % (".sp" if sp else "", f.m, f.n, f.k, f.d, f.a, f.b)
        if f.mod and f.mod != "rs":
            op += "." + f.mod
        a = _list(r, nd, na) if f.mod == "rs" else "%s0" % rd
        ops = "%s, %s, %s1" % (_list(r, 0, nd), a, rd)
        if sp:
            ops += ", %s%d, 0" % (r, nd + na)
        floating = f.a not in ("s8", "u8", "b1")
        tail = ", %s" % p
        if floating:
            tail += ", 1, 1"
            if f.a in ("f16", "bf16"):
                tail += ", 0" if f.mod == "rs" else ", 0, 0"
        return "%s %s%s;" % (op, ops, tail)
    if f.api.startswith("tcgen05"):
        sp = f.api.endswith(".sp")
        kind, _, scale = f.mod.partition(".")
        op = "tcgen05.mma%s.cta_group::1.%s%s" % (".sp" if sp else "", kind, "." + scale if scale else "")
        ops = "[%s0], %s0, %s1" % (r, rd, rd)
        if sp:
            ops += ", [%s1]" % r
        ops += ", %s2" % r
        if scale:
            ops += ", [%s3], [%s4]" % (r, r)
        return "%s %s, %s;" % (op, ops, p)
    sp = f.api.endswith(".sp")
    op = "mma.sp::ordered_metadata" if sp else "mma"
    kind, scaled = "", ""
    if f.mod.startswith("kind::"):
        kind, _, scaled = f.mod.partition(".")
        kind = "." + kind
    layout = f.mod if f.mod in LAYOUTS else "row.col"
    text = "%s.sync.aligned.m%dn%dk%d.%s%s%s.%s.%s.%s.%s" % (
        op, f.m, f.n, f.k, layout, kind, "." + scaled.rsplit(".", 1)[0] if scaled else "", f.d, f.a, f.b, f.c)
    if scaled:
        text += "." + scaled.rsplit(".", 1)[1]
    elif f.mod and not kind and f.mod not in LAYOUTS:
        text += "." + f.mod
    AB = rd if f.a == "f64" else r
    ops = "%s, %s, %s, %s" % (_list(R, 0, nd), _list(AB, nd, na), _list(AB, nd + na, nb), _list(R, nd + na + nb, nc))
    nxt = nd + na + nb + nc if not wide else 0
    if sp:
        ops += ", %s%d, 0" % (r, nxt)
        nxt += 1
    if scaled:
        ops += ", %s%d, {0, 0}, %s%d, {0, 0}" % (r, nxt, r, nxt + 1)
    return "%s %s;" % (text, ops)
