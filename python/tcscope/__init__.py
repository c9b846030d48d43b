"""tcscope: what each GPU tensor-core instruction computes, bit for bit, on numpy arrays.

    mma(instr, a, b, c, profile="h100")   one instruction on batches of tiles
    convert(x, fmt, rounding=..., ...)    values rounded once into any format
    decode(bits, fmt)                     bit patterns to float64 values
    gemm_predict(path, a, b, structure)   a library GEMM: model + accumulation structure
    probe(fn, fmt, m, n, k)               a framework's matmul: export, run fn, infer

Everything runs in libtcscope.so (C), one call per batch; errors it reports
are raised as tcscope.Error with its message. See python/README.md.
"""
from ._lib import Error
from .formats import INEXACT, OVERFLOW, SATURATED, FormatInfo, convert, decode, format_info, formats
from .gemm import GemmPath, GemmStructure, gemm_path, gemm_paths, gemm_predict
from .mma import InstrInfo, instr_info, instructions, mma
from .probe import ProbeResult, probe, probe_export, probe_infer, to_numpy


def version() -> str:
    """The tcscope version libtcscope was built from (git describe)."""
    from ._lib import lib

    return lib().tcscope_version().decode()


__all__ = [
    "Error", "INEXACT", "OVERFLOW", "SATURATED", "FormatInfo", "convert", "decode", "format_info", "formats",
    "GemmPath", "GemmStructure", "gemm_path", "gemm_paths", "gemm_predict", "InstrInfo", "instr_info",
    "instructions", "mma", "version", "ProbeResult", "probe", "probe_export", "probe_infer", "to_numpy",
]
