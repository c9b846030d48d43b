"""Library GEMMs predicted bit for bit: an instruction model plus an
accumulation structure (cases/gemm.h of tcscope)."""
from __future__ import annotations

import ctypes
from dataclasses import asdict, dataclass
from typing import List, Mapping, NamedTuple, Optional, Tuple, Union

import numpy as np

from ._lib import call, lib, ptr, text
from .formats import operand_bits
from .mma import instr_info

__all__ = ["GemmPath", "GemmStructure", "gemm_paths", "gemm_path", "gemm_predict"]

COMBINES = ("seq", "pairwise", "reverse", "xor")
INPUT_CONVERSIONS = ("as-uploaded", "tf32-rz", "tf32-rna", "tf32-rne", "full-f32")


class GemmPath(NamedTuple):
    """A GEMM path: the formats A and B are uploaded in and the instruction
    whose model predicts it (None: no tensor core, nothing to predict)."""

    name: str
    a: str
    b: str
    instr: Optional[str]


@dataclass(frozen=True)
class GemmStructure:
    """How a library sums the K products of one output (tcscope's records'
    "structure" object): K cut into `splitk` slices (whole units of
    `slice_unit` positions, 0: equal slices, the rest to the last); in each
    slice, runs of `promote` positions (0: the whole slice) accumulated by
    the tensor core `chunk` positions per instruction step (None: the
    instruction's K), each run added in FP32 to the slice's sum; the slices'
    sums meeting in FP32 in K order ("seq"), as a balanced tree ("pairwise"),
    from the last slice to the first ("reverse"), or as an XOR tree ("xor":
    level l adds slice i + 2**xor_bits[l] to slice i, `splitk` a power of
    two from 4 to 32, xor_bits each of 0 .. log2(splitk) - 1 once: JAX's
    split-K on the H200 meets 32 slices with xor_bits (3, 4, 0, 2, 1))."""

    chunk: Optional[int] = None
    promote: int = 0
    splitk: int = 1
    combine: str = "seq"
    slice_unit: int = 0
    xor_bits: Optional[Tuple[int, ...]] = None

    @classmethod
    def from_record(cls, st: Mapping) -> "GemmStructure":
        """From a record's structure object (its extra keys ignored)."""
        kw = {k: st[k] for k in ("chunk", "promote", "splitk", "combine", "slice_unit") if k in st}
        if "xor_bits" in st:
            kw["xor_bits"] = tuple(st["xor_bits"])
        return cls(**kw)


def gemm_paths() -> List[str]:
    """The GEMM path names (`tcscope gemm --path`)."""
    L = lib()
    return [L.tcscope_gemm_path_name(i).decode() for i in range(L.tcscope_gemm_path_count())]


def gemm_path(path: str) -> GemmPath:
    """Path `path`'s upload formats and instruction; Error when unknown."""
    a, b, ins = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
    call("tcscope_gemm_path_info", text(path, "path"), ctypes.addressof(a), ctypes.addressof(b),
         ctypes.addressof(ins))
    return GemmPath(path, a.value.decode(), b.value.decode(), ins.value.decode() if ins.value else None)


def _int(v, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"structure {what} must be an int, not {type(v).__name__}")
    if not -2**31 <= int(v) < 2**31:
        raise ValueError(f"structure {what} = {v} out of range")
    return int(v)


def gemm_predict(path: str, a, b, structure: Union[GemmStructure, Mapping, None] = None, *, profile: str = "h100",
                 incvt: str = "as-uploaded") -> np.ndarray:
    """D = A @ B (float32, m x n) as GEMM path `path` computes it with
    `profile`'s instruction model and accumulation `structure`, bit for bit:
    the simulated library of `tcscope gemm --backend model:PROFILE --sim`.

    a (m x k) and b (k x n) are bit patterns of the path's upload formats
    (unsigned integers; gemm_path(path).a, .b) or values those formats hold
    exactly (float16/32/64). The tf32 path uploads FP32; `incvt` says how
    its inputs reach the tensor core ("as-uploaded", "tf32-rz", "tf32-rna",
    "tf32-rne", "full-f32"). structure: a GemmStructure, a record's
    structure dict, or None (one accumulator over the whole K, the
    instruction's K per step). Outputs are computed on all cores at once."""
    p = gemm_path(path)
    if p.instr is None:
        raise ValueError(f"path {path} runs no tensor-core instruction: no model predicts it")
    if structure is None:
        structure = GemmStructure()
    elif isinstance(structure, Mapping):
        structure = GemmStructure.from_record(structure)
    elif not isinstance(structure, GemmStructure):
        raise TypeError(f"structure must be a GemmStructure or a dict, not {type(structure).__name__}")
    s = asdict(structure)
    if s["chunk"] is None:
        s["chunk"] = instr_info(p.instr).k
    A = operand_bits(a, p.a, "a")
    B = operand_bits(b, p.b, "b")
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0]:
        raise ValueError(f"a {A.shape} and b {B.shape} are not m x k and k x n")
    m, k = A.shape
    n = B.shape[1]
    if max(m, n, k) >= 2**31:
        raise ValueError(f"shape {m} x {n} x {k} too large")
    if (A.size and A.max() > 0xFFFFFFFF) or (B.size and B.max() > 0xFFFFFFFF):
        raise ValueError(f"a or b holds values beyond 32 bits: not {p.a} / {p.b} bit patterns")
    A32 = np.ascontiguousarray(A, dtype=np.uint32)
    B32 = np.ascontiguousarray(B, dtype=np.uint32)
    D = np.empty((m, n), np.uint32)
    if not isinstance(s["combine"], str):
        raise TypeError("structure combine must be a str: seq, pairwise, reverse or xor")
    combine = s["combine"]
    if (combine == "xor") != (s["xor_bits"] is not None):
        raise ValueError("structure xor_bits goes with combine 'xor', and combine 'xor' needs xor_bits")
    if combine == "xor":
        combine += "".join(" %d" % _int(b, "xor_bits") for b in s["xor_bits"])
    call("tcscope_gemm_predict", text(path, "path"), text(profile, "profile"), m, n, k, ptr(A32), ptr(B32),
         _int(s["chunk"], "chunk"), _int(s["promote"], "promote"), _int(s["splitk"], "splitk"),
         text(combine, "combine"), _int(s["slice_unit"], "slice_unit"), text(incvt, "incvt"), ptr(D))
    return D.view(np.float32)
