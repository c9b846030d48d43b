"""The instruction table probes/isa/sm90a.def as Python objects, and the PTX
text of one instruction, shared by the executor and timing generators.

catalogue() expands the table exactly as probes/catalogue.c does (same
entries, same order); the C catalogue is the reference and
tests/test_catalogue.c checks that the built kernels match it.
"""
import os
import re
from collections import namedtuple

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sm90a.def")

# Container bits of each format (formats/formats.c storage_bits).
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "e4m3": 8, "e5m2": 8,
        "s8": 8, "u8": 8, "s32": 32}
FP8 = ("e4m3", "e5m2")
INT = ("s8", "u8", "s32")

Instr = namedtuple("Instr", "name api m n k d a b c sass sm rs sparse")


def _rows(text):
    """(macro, [args]) for every table row, comments and # lines left out."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    for macro, args in re.findall(r"\b(TC_ISA_\w+)\(([^)]*)\)", text):
        yield macro, [a.strip().strip('"') for a in args.split(",")]


def _instr(api, m, n, k, d, a, b, c, sass, sm, rs):
    if api.startswith("wgmma"):
        name = "%s.m%dn%dk%d.%s.%s.%s%s" % (api, m, n, k, d, a, b, ".rs" if rs else "")
    else:
        name = "%s.m%dn%dk%d.%s.%s.%s.%s" % (api, m, n, k, d, a, b, c)
    return Instr(name, api, m, n, k, d, a, b, c, sass, sm, rs, api.endswith(".sp"))


def catalogue(path=TABLE):
    """Every instruction, in the catalogue's order: the TC_ISA_MMA rows, then
    each wgmma form x each N x each type."""
    out, wg_n, types, forms = [], [], [], []
    with open(path) as f:
        for macro, v in _rows(f.read()):
            if macro == "TC_ISA_MMA":
                api, m, n, k, d, a, b, c, sass, sm = v
                out.append(_instr(api, int(m), int(n), int(k), d, a, b, c, sass, int(sm), False))
            elif macro == "TC_ISA_WG_N":
                wg_n.append(int(v[0]))
            elif macro == "TC_ISA_WG_TYPE":
                types.append((v[0], v[1], v[2], int(v[3]), v[4], int(v[5])))
            elif macro == "TC_ISA_WG_FORM":
                forms.append((v[0], int(v[1]), v[2] == "true"))
            else:
                raise SystemExit("%s: unknown row %s" % (path, macro))
    for api, kmul, rs in forms:
        for n in wg_n:
            for d, a, b, k, sass, sm in types:
                out.append(_instr(api, 64, n, k * kmul, d, a, b, d, sass, sm, rs))
    return out


def wg_ns(instrs):
    """The wgmma N values, in table order."""
    return list(dict.fromkeys(i.n for i in instrs if i.api.startswith("wgmma")))


def ident(name):
    return name.replace(".", "_")


def regs(bits, elems):
    """32-bit registers (64-bit ones for f64) holding elems values of bits each."""
    return elems if bits == 64 else (elems * bits + 31) // 32


def operand_list(start, n):
    return "{" + ",".join("%%%d" % (start + i) for i in range(n)) + "}"


def mma_regs(i):
    """Registers per thread of A, B and C/D of a warp-level mma (A holds K/2
    columns when sparse)."""
    ka = i.k // 2 if i.sparse else i.k
    return (regs(BITS[i.a], i.m * ka // 32), regs(BITS[i.b], i.k * i.n // 32),
            regs(BITS[i.c], i.m * i.n // 32))


def wg_regs(i):
    """Registers per thread of D and (for .rs) A of a wgmma (a warpgroup, 128 threads)."""
    return regs(BITS[i.d], 64 * i.n // 128), regs(BITS[i.a], 64 * i.k // 128)


# mma.sp: the metadata built by probes/sparse.c is always ordered (idx0 <
# idx1), for which the ISA gives .sp and .sp::ordered_metadata the same
# meaning; ptxas (CUDA 13) asks for the ordered form, so that is the one
# emitted. Sparsity selector 0, always (probes/sparse.h; the only one
# wgmma.sp m64nNk64 8-bit allows).
SP_SELECTOR = 0


def mma_ptx(i, c_start):
    """The PTX of a warp-level mma: D from %0, A and B after it, C from
    %c_start (D's own registers when c_start is 0), the sparse metadata next."""
    na, nb, nc = mma_regs(i)
    opcode = "mma.sp::ordered_metadata" if i.sparse else "mma"
    text = "%s.sync.aligned.m%dn%dk%d.row.col.%s.%s.%s.%s %s, %s, %s, %s" % (
        opcode, i.m, i.n, i.k, i.d, i.a, i.b, i.c, operand_list(0, nc), operand_list(nc, na),
        operand_list(nc + na, nb), operand_list(c_start, nc))
    if i.sparse:
        text += ", %%%d, %d" % (max(nc + na + nb, c_start + nc), SP_SELECTOR)
    return text + ";"


def wgmma_ptx(i):
    """The PTX of a wgmma with scale-d predicate p: D from %0, then A's
    descriptor (or registers for .rs), B's descriptor, the sparse metadata;
    scale-a/b 1 and, for f16/bf16, no transpose."""
    nd, na = wg_regs(i)
    tnsp = i.a in ("f16", "bf16")
    opcode = "wgmma.mma_async.sp.sync.aligned" if i.sparse else "wgmma.mma_async.sync.aligned"
    if i.rs:
        ops = "%s, %%%d" % (operand_list(nd, na), nd + na)
        tail = "p, 1, 1, 0" if tnsp else "p, 1, 1"
    elif i.sparse:
        ops = "%%%d, %%%d, %%%d, %d" % (nd, nd + 1, nd + 2, SP_SELECTOR)
        tail = "p, 1, 1, 0, 0" if tnsp else "p, 1, 1"
    else:
        ops = "%%%d, %%%d" % (nd, nd + 1)
        tail = "p, 1, 1, 0, 0" if tnsp else "p, 1, 1"
    return "%s.m%dn%dk%d.%s.%s.%s %s, %s, %s;" % (opcode, i.m, i.n, i.k, i.d, i.a, i.b,
                                                 operand_list(0, nd), ops, tail)
