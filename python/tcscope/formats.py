"""Number formats: conversions into any format, decoding, and the bit
patterns the other functions take (formats/formats.h of tcscope)."""
from __future__ import annotations

import ctypes
from typing import List, NamedTuple, Optional, Tuple, Union

import numpy as np

from ._lib import call, lib, ptr, text

__all__ = ["FormatInfo", "formats", "format_info", "convert", "decode", "INEXACT", "OVERFLOW", "SATURATED"]

#: Flags of a conversion (convert(..., return_flags=True)), as IEEE 754 means them.
INEXACT, OVERFLOW, SATURATED = 1, 2, 4

ROUNDINGS = ("rne", "rna", "rz", "ru", "rd", "ro", "rs")
OVERFLOWS = ("inf", "sat", "nan")


class FormatInfo(NamedTuple):
    """A format's layout: container width, exponent and stored fraction bits,
    low container bits it leaves unused (tf32: 13), and whether it is an integer."""

    name: str
    storage_bits: int
    ebits: int
    mbits: int
    shift: int
    is_int: bool

    @property
    def dtype(self) -> np.dtype:
        """The unsigned numpy type that holds one bit pattern."""
        return bits_dtype(self.storage_bits)


def bits_dtype(storage_bits: int) -> np.dtype:
    for width, t in ((8, np.uint8), (16, np.uint16), (32, np.uint32)):
        if storage_bits <= width:
            return np.dtype(t)
    return np.dtype(np.uint64)


def formats() -> List[str]:
    """The built-in format names (any eXmY is accepted too)."""
    L = lib()
    return [L.tcscope_format_name(i).decode() for i in range(L.tcscope_format_count())]


def format_info(fmt: str) -> FormatInfo:
    """The layout of format `fmt` ("e4m3", "f16", "tf32", "e3m4", ...); Error when unknown."""
    info = (ctypes.c_int * 5)()
    call("tcscope_format_info", text(fmt, "format"), ctypes.addressof(info))
    return FormatInfo(fmt, info[0], info[1], info[2], info[3], bool(info[4]))


# numpy floating types and the formats they are.
_FLOAT_FORMATS = {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def _values_as_bits(x: np.ndarray, what: str) -> Tuple[np.ndarray, str]:
    """Values (floating, or signed integers) as (uint64 bits, their format)."""
    if x.dtype.kind == "i":
        f = x.astype(np.float64)
        if not np.array_equal(f.astype(x.dtype), x):
            raise ValueError(f"{what}: integers beyond 2^53 are not held exactly by f64")
        x = f
    if x.dtype not in _FLOAT_FORMATS:
        raise TypeError(f"{what}: dtype {x.dtype} is neither values (float16/32/64, signed int) nor bit patterns "
                        "(unsigned int)")
    fmt = _FLOAT_FORMATS[x.dtype]
    width = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}[fmt]
    return np.ascontiguousarray(x).view(width).astype(np.uint64), fmt


def _convert_bits(source: str, bits: np.ndarray, fmt: str, rounding: str, overflow: str, ftz: bool, daz: bool,
                  rbits: Optional[np.ndarray], want_flags: bool) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """The C conversion of flat uint64 bits."""
    out = np.empty(bits.size, np.uint64)
    flags = np.empty(bits.size, np.uint8) if want_flags else None
    call("tcscope_convert", text(source, "source format"), ptr(bits), bits.size, int(daz), text(fmt, "format"),
         text(rounding, "rounding"), text(overflow, "overflow"), int(ftz), ptr(rbits), ptr(out), ptr(flags))
    return out, flags


def convert(x, fmt: str, *, rounding: str = "rne", overflow: str = "inf", ftz: bool = False, daz: bool = False,
            rbits=None, source: Optional[str] = None,
            return_flags: bool = False) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """Rounds every element of x once into format `fmt`; returns the bit patterns.

    x holds values (float16, float32, float64 or signed integers: their exact
    values) or, with `source` naming their format, bit patterns (unsigned
    integers). rounding: "rne" (default), "rna", "rz", "ru", "rd", "ro" (to
    odd) or "rs" (stochastic: `rbits`, one uint32 per element, required);
    overflow: past the largest finite value "inf" (IEEE, default), "sat"
    (largest finite) or "nan"; ftz: a subnormal result becomes zero; daz: a
    subnormal input reads as zero. The result has x's shape and the unsigned
    dtype of fmt's container (uint8 for e4m3, uint16 for f16, uint32 for tf32);
    with return_flags also an uint8 array of INEXACT | OVERFLOW | SATURATED.
    The same arithmetic as `tcscope convert`.
    """
    a = np.asarray(x)
    if source is not None:
        if a.dtype.kind != "u":
            raise TypeError(f"convert: source={source!r} names the format of bit patterns; x must be unsigned "
                            f"integers, not {a.dtype}")
        bits = a.astype(np.uint64).ravel()
    else:
        if a.dtype.kind == "u":
            raise TypeError("convert: x holds unsigned integers: bit patterns need source=FORMAT "
                            "(values: pass floats or signed integers)")
        if a.dtype.kind == "b" or a.dtype.kind not in "fi":
            raise TypeError(f"convert: dtype {a.dtype} is neither values (float16/32/64, signed int) nor bit "
                            "patterns (unsigned int with source=)")
        bits, source = _values_as_bits(a, "convert")
        bits = bits.ravel()
    rb = None
    if rbits is not None:
        r = np.asarray(rbits)
        if r.dtype.kind not in "ui" or (r.size and (r.min() < 0 or r.max() > 0xFFFFFFFF)):
            raise TypeError("convert: rbits must be integers in 0..2^32-1 (one per element)")
        rb = np.ascontiguousarray(np.broadcast_to(r, a.shape), dtype=np.uint32).ravel()
    out_dtype = format_info(fmt).dtype
    out, flags = _convert_bits(source, np.ascontiguousarray(bits), fmt, rounding, overflow, ftz, daz, rb,
                               return_flags)
    out = out.astype(out_dtype).reshape(a.shape)
    if return_flags:
        return out, flags.reshape(a.shape)
    return out


def decode(bits, fmt: str) -> np.ndarray:
    """The values (float64) of bit patterns `bits` (unsigned integers) of format `fmt`.

    Exact for every format of 53 significant bits or fewer (all but f64's
    own, which is exact too) and the integer formats; a NaN gives a NaN
    (its sign and payload are not carried: keep the bits for those)."""
    a = np.asarray(bits)
    if a.dtype.kind != "u":
        raise TypeError(f"decode: bits must be unsigned integers (bit patterns), not {a.dtype}")
    flat = np.ascontiguousarray(a.astype(np.uint64).ravel())
    out = np.empty(flat.size, np.float64)
    call("tcscope_decode", text(fmt, "format"), ptr(flat), flat.size, ptr(out))
    return out.reshape(a.shape)


def operand_bits(x, fmt: str, what: str) -> np.ndarray:
    """An operand of format fmt as uint64 bit patterns: unsigned integers as
    they are (the C side checks they fit), values converted exactly (a value
    fmt cannot hold is a ValueError). A format held in a wider container
    (tf32 in 32 bits) takes float32 values as the container's bits, as the
    hardware reads its register."""
    a = np.asarray(x)
    if a.dtype.kind == "u":
        return a.astype(np.uint64)
    if a.dtype.kind not in "fi" or a.dtype.kind == "b":
        raise TypeError(f"{what}: dtype {a.dtype} is neither values (float16/32/64, signed int) nor bit patterns "
                        "(unsigned int)")
    info = format_info(fmt)
    target = "f32" if info.shift else fmt
    bits, source = _values_as_bits(a, what)
    out, flags = _convert_bits(source, np.ascontiguousarray(bits.ravel()), target, "rne", "inf", False, False, None,
                               True)
    bad = np.flatnonzero(flags & INEXACT)
    if bad.size:
        i = tuple(int(v) for v in np.unravel_index(bad[0], a.shape))
        where = f"[{', '.join(map(str, i))}]" if i else ""
        raise ValueError(f"{what}{where} = {a[i].item()!r} is not exactly a {target} value "
                         f"({bad.size} such; convert() rounds)")
    return out.reshape(a.shape)

