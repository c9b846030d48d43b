"""Loading libtcscope.so and calling it (ctypes).

The library is looked for, in order:
  1. the file TCSCOPE_LIB names (when set, only there);
  2. tcscope/lib/libtcscope.so inside the installed package (pip install ./python);
  3. build/libtcscope.so of the repository this package lies in (python/tcscope
     used from the source tree, e.g. PYTHONPATH=python after make).
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import List, Optional

import numpy as np

__all__ = ["Error", "lib", "call", "ptr"]


class Error(Exception):
    """An error reported by libtcscope (its message), or a library that cannot be loaded."""


def _candidates() -> List[Path]:
    given = os.environ.get("TCSCOPE_LIB")
    if given:
        return [Path(given)]
    here = Path(__file__).resolve().parent
    return [here / "lib" / "libtcscope.so", here.parent.parent / "build" / "libtcscope.so"]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_I = ctypes.c_int
_Z = ctypes.c_size_t

# name: (restype, argtypes); every function taking (err, errlen) returns 0 or -1.
_PROTOTYPES = {
    "tcscope_api_version": (_I, []),
    "tcscope_version": (_S, []),
    "tcscope_instr_count": (_Z, []),
    "tcscope_instr_name": (_S, [_Z]),
    "tcscope_instr_info": (_I, [_S, _P, _P, _P, _P, _Z]),
    "tcscope_format_count": (_Z, []),
    "tcscope_format_name": (_S, [_Z]),
    "tcscope_format_info": (_I, [_S, _P, _P, _Z]),
    "tcscope_gemm_path_count": (_Z, []),
    "tcscope_gemm_path_name": (_S, [_Z]),
    "tcscope_gemm_path_info": (_I, [_S, _P, _P, _P, _P, _Z]),
    "tcscope_profile_path": (_I, [_S, _P, _Z, _P, _Z]),
    "tcscope_mma": (_I, [_S, _S, _Z, _P, _P, _P, _P, _P, _Z]),
    "tcscope_convert": (_I, [_S, _P, _Z, _I, _S, _S, _S, _I, _P, _P, _P, _P, _Z]),
    "tcscope_decode": (_I, [_S, _P, _Z, _P, _P, _Z]),
    "tcscope_gemm_predict": (_I, [_S, _S, _I, _I, _I, _P, _P, _I, _I, _I, _S, _I, _S, _P, _P, _Z]),
}

# The probe (cases/probe.h); a library built before it has none.
_OPTIONAL = {
    "tc_probe_export_dir": (_I, [_S, _I, _I, _I, _S, ctypes.c_ulonglong, _I, _P, _Z]),
    "tc_probe_infer_dir": (_I, [_S, _S, _S, _P, _Z, _P, _Z]),
}

API_VERSION = 1


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        if not path.is_file():
            tried.append(f"{path} (no such file)")
            continue
        try:
            handle = ctypes.CDLL(str(path))
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (res, args) in _PROTOTYPES.items():
            try:
                fn = getattr(handle, name)
            except AttributeError:
                raise Error(f"{path} has no {name}: a libtcscope older than this package, rebuild it (make)")
            fn.restype, fn.argtypes = res, args
        for name, (res, args) in _OPTIONAL.items():
            fn = getattr(handle, name, None)
            if fn is not None:
                fn.restype, fn.argtypes = res, args
        if handle.tcscope_api_version() != API_VERSION:
            raise Error(f"{path}: C API version {handle.tcscope_api_version()}, this package needs {API_VERSION}")
        return handle
    raise Error("cannot load libtcscope.so (run make in the repository, or set TCSCOPE_LIB); tried: "
                + "; ".join(tried))


_handle: Optional[ctypes.CDLL] = None


def lib() -> ctypes.CDLL:
    """The loaded library (loaded at the first call)."""
    global _handle
    if _handle is None:
        _handle = _load()
    return _handle


def has(name: str) -> bool:
    """Whether the loaded library exports `name` (the optional probe functions)."""
    return getattr(lib(), name, None) is not None


def call(name: str, *args) -> None:
    """Calls lib().name(*args, err, errlen); a -1 raises Error with the C message."""
    err = ctypes.create_string_buffer(1024)
    if getattr(lib(), name)(*args, err, len(err)) != 0:
        raise Error(err.value.decode(errors="replace") or f"{name} failed")


def ptr(a: Optional[np.ndarray]) -> Optional[int]:
    """The data address of a C-contiguous array (None: NULL)."""
    if a is None:
        return None
    assert a.flags.c_contiguous
    return a.ctypes.data


def text(s: str, what: str) -> bytes:
    """A name argument as C text (a str without NUL)."""
    if not isinstance(s, str):
        raise TypeError(f"{what} must be a str, not {type(s).__name__}")
    if "\0" in s:
        raise ValueError(f"{what} contains a NUL character")
    return s.encode()
