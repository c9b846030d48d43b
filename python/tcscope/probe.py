"""A framework's own matmul probed: tcscope writes the inputs, the user's
function computes D = A @ B with any library, tcscope infers the
accumulation structure and predicts every output (cases/probe.h)."""
from __future__ import annotations

import ctypes
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, List, NamedTuple, Optional, Union

import numpy as np

from ._lib import Error, call, has, lib, text
from .formats import decode

__all__ = ["ProbeResult", "probe", "probe_export", "probe_infer", "to_numpy"]

PathLike = Union[str, "os.PathLike[str]"]


def _need_probe() -> None:
    if not (has("tc_probe_export_dir") and has("tc_probe_infer_dir")):
        raise Error("this libtcscope has no probe functions (tc_probe_export_dir, tc_probe_infer_dir): "
                    "it was built before the probe existed; rebuild it from a tree that has cases/probe.h")


def probe_export(dir: PathLike, fmt: str, m: int, n: int, k: int, *, seed: int = 1, force: bool = False) -> Path:
    """Writes the probe's inputs for an m x n x k GEMM in format `fmt` into
    folder `dir` (.npy files and a manifest), as `tcscope probe export` does;
    an earlier export there is an error unless `force` (then it goes whole,
    its D's too)."""
    _need_probe()
    for name, v in (("m", m), ("n", n), ("k", k)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= int(v) < 2**31:
            raise ValueError(f"{name} = {v!r}: a positive int")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed = {seed!r}: an int in 0..2^64-1")
    path = Path(dir)
    call("tc_probe_export_dir", text(os.fspath(path), "dir"), int(m), int(n), int(k), text(fmt, "format"),
         ctypes.c_ulonglong(int(seed)), int(bool(force)))
    return path


def probe_infer(dir: PathLike, *, profile: str = "h100", record: Union[PathLike, None] = None) -> "tuple[bool, str]":
    """Infers the structure from folder `dir` (the export plus the user's
    PRODUCT_D.npy files) with `profile`'s instruction model, as `tcscope
    probe infer` does; writes the tcscope-record/1 gemm record to `record`
    when given. Returns (explained, summary): whether a structure predicts
    the verify outputs bit for bit, and the inference's one-line summary
    (when not explained: what it could not explain). A malformed or
    mismatched D.npy raises Error with the C message."""
    _need_probe()
    ppath = ctypes.create_string_buffer(4096)   # the inference takes the profile's file
    call("tcscope_profile_path", text(profile, "profile"), ppath, len(ppath))
    summary = ctypes.create_string_buffer(4096)
    err = ctypes.create_string_buffer(1024)
    rec = text(os.fspath(record), "record") if record is not None else None
    rc = lib().tc_probe_infer_dir(text(os.fspath(dir), "dir"), ppath.value, rec, summary, len(summary), err,
                                  len(err))
    if rc not in (0, 1):
        raise Error(err.value.decode(errors="replace") or "tc_probe_infer_dir failed")
    return rc == 0, summary.value.decode(errors="replace")


class ProbeResult(NamedTuple):
    """What probe() found: the folder (inputs, D's, record), whether the
    structure is explained, the summary line, and the record's objects."""

    dir: Path
    explained: bool
    summary: str
    record: List[dict]


def _manifest(dir: Path) -> dict:
    """The export's manifest.json (cases/probe.h): formats, products and their files."""
    try:
        man = json.loads((dir / "manifest.json").read_text())
        for p in man["products"]:
            p["name"], p["a"], p["b"], p["d"]   # the keys probe() reads
        return man
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Error(f"{dir}/manifest.json: not a probe export's manifest ({e})") from None


def probe(fn: Callable[[np.ndarray, np.ndarray], Any], fmt: str, m: int, n: int, k: int, *, profile: str = "h100",
          seed: int = 1, dir: Optional[PathLike] = None, record: Optional[PathLike] = None,
          values: bool = False) -> ProbeResult:
    """Infers how fn's matmul sums, bit for bit: exports the probe's inputs
    for an m x n x k GEMM in format `fmt` ("f16", "bf16", "f32", "e4m3",
    "e5m2"), calls fn(A, B) once per product of the export's
    manifest (A m x k, B k x n, numpy) and
    saves what it returns as PRODUCT_D.npy (FP32), then infers the
    structure with `profile`'s instruction model and predicts the verify
    outputs. fn may return a numpy, torch, jax or cupy array (to_numpy).

    A and B are handed over as exported: f16 and f32 as such, bf16 and FP8
    as their bit patterns (uint16, uint8: numpy has no such dtype; view them
    in the framework, e.g. torch.from_numpy(a).view(torch.float8_e4m3fn)).
    values=True hands every format over as float32 values instead (exact;
    the framework converts them back without rounding). dir: the folder
    (default a new temporary one, kept: it is the evidence); record: the
    tcscope-record/1 file (default dir/record.jsonl)."""
    _need_probe()
    if not callable(fn):
        raise TypeError(f"fn must be callable, not {type(fn).__name__}")
    folder = Path(dir) if dir is not None else Path(tempfile.mkdtemp(prefix="tcscope-probe-"))
    folder.mkdir(parents=True, exist_ok=True)
    probe_export(folder, fmt, m, n, k, seed=seed)
    man = _manifest(folder)
    for p in man["products"]:
        a, b = np.load(folder / p["a"]), np.load(folder / p["b"])
        if values:   # bits (bf16, FP8) decoded; float16/32 widened: all exact
            a = decode(a, man["a_format"]).astype(np.float32) if a.dtype.kind == "u" else a.astype(np.float32)
            b = decode(b, man["b_format"]).astype(np.float32) if b.dtype.kind == "u" else b.astype(np.float32)
        d = to_numpy(fn(a, b))
        if d.shape != (m, n):
            raise ValueError(f"fn returned shape {d.shape} for the {p['name']} product; D = A @ B is ({m}, {n})")
        if d.dtype.kind != "f":
            raise TypeError(f"fn returned dtype {d.dtype} for the {p['name']} product: D must be floating point")
        np.save(folder / p["d"], np.ascontiguousarray(d, dtype="<f4"))   # widening to FP32 is exact
    rec = Path(record) if record is not None else folder / "record.jsonl"
    explained, summary = probe_infer(folder, profile=profile, record=rec)
    objects = [json.loads(line) for line in rec.read_text().splitlines() if line.strip()] if rec.exists() else []
    return ProbeResult(folder, explained, summary, objects)


def to_numpy(x: Any) -> np.ndarray:
    """A numpy array of a numpy, torch, jax or cupy array, without importing
    any of them: torch tensors through .detach().cpu() (bfloat16 and FP8
    widened to float32 first: numpy has no such dtype; the widening is
    exact), cupy arrays through .get(), anything else through np.asarray
    (jax arrays; numpy's own)."""
    if isinstance(x, np.ndarray):
        return x
    mod = type(x).__module__ or ""
    if mod.startswith("torch") and hasattr(x, "detach"):
        t = x.detach().cpu()
        if "bfloat16" in str(t.dtype) or "float8" in str(t.dtype):
            t = t.float()
        return t.numpy()
    if mod.startswith("cupy") and hasattr(x, "get"):
        return x.get()
    a = np.asarray(x)
    if a.dtype.kind == "V" or a.dtype.name in ("bfloat16",) or a.dtype.name.startswith("float8"):
        a = a.astype(np.float32)   # ml_dtypes (jax) types: widened exactly
    return a
