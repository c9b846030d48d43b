"""tcscope.convert and decode against the CLI's encoder (tcscope convert)
and numpy's own conversions: every FP8 and FP16 value, random FP32."""
import math

import numpy as np
import pytest

import tcscope

MODES = ["rne", "rna", "rz", "ru", "rd", "ro"]


def hexes(values: np.ndarray) -> str:
    out = []
    with np.errstate(invalid="ignore"):   # signalling NaNs
        wide = values.astype(np.float64).ravel()
    for v in wide:
        out.append("nan" if math.isnan(v) else float(v).hex())
    return "\n".join(out) + "\n"


def cli_convert(cli, values: np.ndarray, fmt: str, *args: str):
    """Bits and flags of `tcscope convert` for each value."""
    recs = [r for r in cli(["convert", "--to", fmt, "--json", *args, "-"], hexes(values))
            if r.get("kind") == "conversion"]
    assert len(recs) == values.size
    bits = np.array([int(r["bits"], 16) for r in recs], dtype=np.uint64)
    flags = np.array([r["flags"]["inexact"] * tcscope.INEXACT + r["flags"]["overflow"] * tcscope.OVERFLOW
                      + r["flags"]["saturated"] * tcscope.SATURATED for r in recs], dtype=np.uint8)
    return bits, flags


def all_bits(fmt: str) -> np.ndarray:
    info = tcscope.format_info(fmt)
    return np.arange(1 << info.storage_bits, dtype=np.uint64).astype(info.dtype)


def random_f32(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    # most random patterns are huge or tiny: half of them near 1 instead, and the specials
    near = rng.standard_normal(n // 2).astype(np.float32).view(np.uint32)
    bits[: n // 2] = near
    # a quarter of short values (13-bit integers, scaled): many halfway cases for every format here
    q = n // 4
    short = rng.integers(-(1 << 13), 1 << 13, q) * np.exp2(rng.integers(-40, 40, q).astype(np.float64))
    bits[n // 2: n // 2 + q] = short.astype(np.float32).view(np.uint32)
    bits[:8] = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF],
                        dtype=np.uint32)
    return bits.view(np.float32)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2", "f16"])
def test_every_value_round_trips(fmt):
    bits = all_bits(fmt)
    values = tcscope.decode(bits, fmt)
    back = tcscope.convert(values, fmt)
    info = tcscope.format_info(fmt)
    nan = np.isnan(values)
    assert back.dtype == info.dtype
    assert np.array_equal(back[~nan], bits[~nan])
    # NaN inputs give the format's one NaN
    assert len(set(back[nan].tolist())) == 1
    # and from bits to the same format is the identity on every non-NaN
    assert np.array_equal(tcscope.convert(bits, fmt, source=fmt)[~nan], bits[~nan])


def test_f16_decode_equals_numpy():
    bits = all_bits("f16")
    ours = tcscope.decode(bits, "f16")
    theirs = bits.view(np.float16).astype(np.float64)
    assert np.array_equal(ours, theirs, equal_nan=True)
    keep = ~np.isnan(theirs)   # a NaN decodes to a NaN (its sign and payload are not kept)
    assert np.array_equal(np.signbit(ours[keep]), np.signbit(theirs[keep]))


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_fp8_decode_equals_the_cli(cli, fmt):
    bits = all_bits(fmt)
    recs = [r for r in cli(["convert", "--to", fmt, "--json", "--"] + [f"bits:0x{b:02x}" for b in bits.tolist()])
            if r.get("kind") == "conversion"]
    theirs = np.array([float.fromhex(r["value"]) if r["class"] != "nan" else math.nan for r in recs])
    assert np.array_equal(tcscope.decode(bits, fmt), theirs, equal_nan=True)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("mode", MODES)
def test_every_f16_into_fp8_equals_the_cli(cli, fmt, mode):
    values = all_bits("f16").view(np.float16)
    if mode not in ("rne", "rz"):   # every value in two modes; a sample in the others
        values = values[::7]
    ovf = "sat" if mode == "rz" else "inf"
    bits, flags = cli_convert(cli, values, fmt, "--round", mode, "--ovf", ovf)
    ours, our_flags = tcscope.convert(values, fmt, rounding=mode, overflow=ovf, return_flags=True)
    assert np.array_equal(ours.astype(np.uint64), bits)
    assert np.array_equal(our_flags, flags)


@pytest.mark.parametrize("fmt,args", [
    ("bf16", {}), ("bf16", {"rounding": "rz"}), ("f16", {"rounding": "ru", "ftz": True}),
    ("tf32", {"rounding": "rna"}), ("e4m3", {"overflow": "nan", "rounding": "rd"}),
    ("e5m2", {"overflow": "sat", "rounding": "ro"}), ("e2m1", {}), ("e3m2", {"rounding": "ru"}),
    ("e8m0", {"rounding": "ru"}), ("s8", {"rounding": "rna"}), ("e3m4", {"rounding": "rz"}),
    ("f16", {"rounding": "rs", "rbits": 0x9E3779B9}),
])
def test_random_f32_equals_the_cli(cli, fmt, args):
    values = random_f32(4000, seed=len(fmt) * 31 + len(args))
    opts = ["--round", args.get("rounding", "rne"), "--ovf", args.get("overflow", "inf")]
    opts += ["--ftz"] if args.get("ftz") else []
    opts += ["--rbits", str(args["rbits"])] if "rbits" in args else []
    bits, flags = cli_convert(cli, values, fmt, *opts)
    kw = dict(args)
    if "rbits" in kw:
        kw["rbits"] = np.full(values.shape, kw["rbits"], np.uint32)
    fast = tcscope.convert(values, fmt, **kw)                 # the f32 fast path (no flags)
    slow, our_flags = tcscope.convert(values, fmt, return_flags=True, **kw)   # decode + encode
    assert np.array_equal(fast.astype(np.uint64), bits)
    assert np.array_equal(slow.astype(np.uint64), bits)
    assert np.array_equal(our_flags, flags)


def test_numpy_conversions_agree():
    values = random_f32(100000, seed=3)
    keep = ~np.isnan(values)
    with np.errstate(over="ignore"):
        assert np.array_equal(tcscope.convert(values, "f16")[keep], values.astype(np.float16).view(np.uint16)[keep])
        wide = np.random.default_rng(4).standard_normal(100000) * 1e3
        assert np.array_equal(tcscope.convert(wide, "f32"), wide.astype(np.float32).view(np.uint32))


def test_stochastic_rounding_uses_the_random_bits():
    x = np.full(1000, 1 + 2**-12, np.float64)   # a quarter of an f16 ulp above 1
    rb = np.random.default_rng(5).integers(0, 1 << 32, 1000, dtype=np.uint64).astype(np.uint32)
    up = tcscope.convert(x, "f16", rounding="rs", rbits=rb) == 0x3C01
    assert np.array_equal(up, rb.astype(np.uint64) >= 3 << 30)   # up when frac + rbits >= 2^32


def test_shapes_and_scalars():
    assert tcscope.convert(1.5, "e4m3").shape == ()
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert tcscope.convert(x, "bf16").shape == (2, 3, 4)
    assert tcscope.convert(np.array([-3, 0, 7], np.int8), "s8").tolist() == [0xFD, 0, 7]


def test_errors():
    with pytest.raises(tcscope.Error, match="unknown format 'e9m9x'"):
        tcscope.convert([1.0], "e9m9x")
    with pytest.raises(tcscope.Error, match="unknown rounding 'up'"):
        tcscope.convert([1.0], "f16", rounding="up")
    with pytest.raises(tcscope.Error, match="unknown overflow 'clip'"):
        tcscope.convert([1.0], "f16", overflow="clip")
    with pytest.raises(tcscope.Error, match="rounding rs needs rbits"):
        tcscope.convert([1.0], "f16", rounding="rs")
    with pytest.raises(TypeError, match="bit patterns need source=FORMAT"):
        tcscope.convert(np.array([1], np.uint8), "f16")
    with pytest.raises(tcscope.Error, match=r"x\[1\] = 0x100 is not a e4m3 bit pattern"):
        tcscope.convert(np.array([1, 256], np.uint16), "f16", source="e4m3")
    with pytest.raises(TypeError, match="neither values"):
        tcscope.convert(np.array(["a"]), "f16")
    with pytest.raises(TypeError, match="unsigned integers"):
        tcscope.decode(np.array([1.0]), "f16")
    with pytest.raises(tcscope.Error, match="unknown format"):
        tcscope.decode(np.array([1], np.uint8), "nope")
