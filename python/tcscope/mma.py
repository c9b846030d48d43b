"""One tensor-core instruction, bit for bit, on batches of tiles."""
from __future__ import annotations

import ctypes
from typing import List, NamedTuple, Optional

import numpy as np

from ._lib import call, lib, ptr, text
from .formats import bits_dtype, format_info, operand_bits

__all__ = ["InstrInfo", "instructions", "instr_info", "mma"]


class InstrInfo(NamedTuple):
    """An instruction's tile shape (D is m x n, K the dense dot length),
    its operands' formats, and whether A is 2:4 sparse."""

    name: str
    m: int
    n: int
    k: int
    a: str
    b: str
    c: str
    d: str
    sparse: bool


def instructions() -> List[str]:
    """Every instruction of the catalogue (the names `tcscope list` prints)."""
    L = lib()
    return [L.tcscope_instr_name(i).decode() for i in range(L.tcscope_instr_count())]


def instr_info(instr: str) -> InstrInfo:
    """Shape and operand formats of instruction `instr`; Error when unknown."""
    shape = (ctypes.c_int * 3)()
    fmts = (ctypes.c_char_p * 4)()
    sparse = ctypes.c_int()
    call("tcscope_instr_info", text(instr, "instr"), ctypes.addressof(shape), ctypes.addressof(fmts),
         ctypes.addressof(sparse))
    a, b, c, d = (f.decode() for f in fmts)
    return InstrInfo(instr, shape[0], shape[1], shape[2], a, b, c, d, bool(sparse.value))


def _tiles(x: np.ndarray, rows: int, cols: int, what: str, instr: str) -> None:
    if x.ndim < 2 or x.shape[-2:] != (rows, cols):
        raise ValueError(f"{what} has shape {x.shape}; {instr} needs (..., {rows}, {cols})")


def mma(instr: str, a, b, c=None, *, profile: str = "h100") -> np.ndarray:
    """D = A @ B + C as instruction `instr` computes it, bit for bit, under
    the model of `profile` ("h100", another name under oracle/profiles/, a
    profile file's path, or "exact": the correctly rounded result).

    a: (..., m, k), b: (..., k, n), c: (..., m, n) or None (zeros); the
    leading (batch) dimensions broadcast. Each operand is either bit patterns
    of the instruction's format for it (unsigned integers) or values
    (float16/32/64 or signed integers) that format holds exactly (else
    ValueError; tcscope.convert rounds). A sparse instruction takes A dense,
    2:4 structured. Returns D's bit patterns, shape (..., m, n), in the
    unsigned dtype of D's container (uint32 for f32: .view(np.float32) gives
    the values; tcscope.decode works for every format). All tiles run in one
    call of the C library, spread over the cores.
    """
    info = instr_info(instr)
    A = operand_bits(a, info.a, "a")
    B = operand_bits(b, info.b, "b")
    _tiles(A, info.m, info.k, "a", instr)
    _tiles(B, info.k, info.n, "b", instr)
    batch = [A.shape[:-2], B.shape[:-2]]
    C: Optional[np.ndarray] = None
    if c is not None:
        C = operand_bits(c, info.c, "c")
        _tiles(C, info.m, info.n, "c", instr)
        batch.append(C.shape[:-2])
    try:
        shape = np.broadcast_shapes(*batch)
    except ValueError:
        raise ValueError(f"batch dimensions {[tuple(s) for s in batch]} do not broadcast") from None
    ntiles = int(np.prod(shape, dtype=np.int64))
    A = np.ascontiguousarray(np.broadcast_to(A, shape + A.shape[-2:]))
    B = np.ascontiguousarray(np.broadcast_to(B, shape + B.shape[-2:]))
    if C is not None:
        C = np.ascontiguousarray(np.broadcast_to(C, shape + C.shape[-2:]))
    D = np.empty(shape + (info.m, info.n), np.uint64)
    call("tcscope_mma", text(instr, "instr"), text(profile, "profile"), ntiles, ptr(A), ptr(B), ptr(C), ptr(D))
    return D.astype(bits_dtype(format_info(info.d).storage_bits))
