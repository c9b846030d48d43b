"""tcscope.mma against the tiles tcscope record corpus writes (the same
model run by the CLI: inputs and outputs as it recorded them)."""
import numpy as np
import pytest

import tcscope

# Several kinds: f16/bf16/tf32/FP8 inputs, f16 and f32 accumulators, integers,
# f64, a sparse A, a warpgroup shape.
INSTRS = [
    "mma.m16n8k16.f32.f16.f16.f32",
    "mma.m16n8k16.f16.f16.f16.f16",
    "mma.m16n8k8.f32.bf16.bf16.f32",
    "mma.m16n8k8.f32.tf32.tf32.f32",
    "mma.m16n8k32.f32.e4m3.e5m2.f32",
    "mma.m8n8k4.f64.f64.f64.f64",
    "mma.sp.m16n8k32.f32.f16.f16.f32",
    "wgmma.m64n8k16.f32.bf16.bf16",
]


def unhex(s: str, fmt: str, shape) -> np.ndarray:
    """A record's packed hex (one fixed-width field per element) as bits."""
    width = tcscope.format_info(fmt).storage_bits // 4
    vals = [int(s[i:i + width], 16) for i in range(0, len(s), width)]
    return np.array(vals, dtype=np.uint64).reshape(shape)


def corpus(cli, instr: str, backend: str, n: int, seed: int):
    recs = [r for r in cli(["record", "corpus", "--backend", backend, "--instr", instr, "--n", str(n),
                            "--seed", str(seed)]) if r.get("kind") == "tiles"]
    assert len(recs) == 1
    r, info = recs[0], tcscope.instr_info(instr)
    t = r["ntiles"]
    return (unhex(r["a"], info.a, (t, info.m, info.k)), unhex(r["b"], info.b, (t, info.k, info.n)),
            unhex(r["c"], info.c, (t, info.m, info.n)), unhex(r["d"], info.d, (t, info.m, info.n)))


@pytest.mark.parametrize("instr", INSTRS)
def test_mma_equals_the_cli_model(cli, instr):
    A, B, C, D = corpus(cli, instr, "model:h100", 2000, 7)
    got = tcscope.mma(instr, A, B, C, profile="h100")
    assert got.shape == D.shape
    assert np.array_equal(got.astype(np.uint64), D), f"{np.count_nonzero(got != D)} of {D.size} differ"


# (the profiles model floating-point instructions; the integer ones are exact)
@pytest.mark.parametrize("instr", ["mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k32.f16.e5m2.e4m3.f16",
                                   "mma.m16n8k32.s32.s8.u8.s32"])
def test_mma_exact_equals_the_cli_oracle(cli, instr):
    A, B, C, D = corpus(cli, instr, "exact", 500, 3)
    assert np.array_equal(tcscope.mma(instr, A, B, C, profile="exact").astype(np.uint64), D)


def test_profiles_differ_where_the_hardware_does(cli):
    # the same inputs on two profiles: a test that could not tell them apart
    # would pass with any profile argument ignored
    instr = "mma.m16n8k8.f32.tf32.tf32.f32"
    A, B, C, D = corpus(cli, instr, "model:h100", 2000, 11)
    exact = tcscope.mma(instr, A, B, C, profile="exact")
    assert not np.array_equal(exact.astype(np.uint64), D)


def test_one_run_equals_tcscope_run(cli):
    instr = "mma.m16n8k16.f32.f16.f16.f32"
    a = np.zeros((16, 16), np.float16)
    b = np.zeros((16, 8), np.float16)
    c = np.zeros((16, 8), np.float32)
    a[0, :3] = [1, 2, 1.0009765625]
    b[:3, 0] = [3, 4, 5]
    c[0, 0] = 0.5
    (run,) = [r for r in cli(["run", "--backend", "model:h100", "--instr", instr, "--a", "1,2,bits:0x3c01",
                              "--b", "3,4,5", "--c", "0.5", "--json"]) if r.get("kind") == "run"]
    d = tcscope.mma(instr, a, b, c)
    assert d.dtype == np.uint32 and d[0, 0] == int(run["d"], 16)


def test_values_and_bits_agree_and_batches_broadcast():
    instr = "mma.m16n8k16.f32.f16.f16.f32"
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 8)).astype(np.float16)
    by_value = tcscope.mma(instr, a, b)
    by_bits = tcscope.mma(instr, a.view(np.uint16), np.broadcast_to(b.view(np.uint16), (5, 16, 8)),
                          np.zeros((5, 16, 8), np.uint32))
    assert by_value.shape == (5, 16, 8) and np.array_equal(by_value, by_bits)
    # each tile alone gives the same bits as the batch
    for t in range(5):
        assert np.array_equal(tcscope.mma(instr, a[t], b), by_value[t])
    # and the values are close to numpy's product (the model is a tensor core, not a random number)
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    assert np.allclose(by_value.view(np.float32), ref, rtol=1e-3, atol=1e-3)


def test_errors():
    instr = "mma.m16n8k16.f32.f16.f16.f32"
    a, b = np.zeros((16, 16), np.float16), np.zeros((16, 8), np.float16)
    with pytest.raises(tcscope.Error, match="unknown instruction 'mma.nope'"):
        tcscope.mma("mma.nope", a, b)
    with pytest.raises(tcscope.Error, match="unknown model profile 'nope'"):
        tcscope.mma(instr, a, b, profile="nope")
    with pytest.raises(ValueError, match=r"a has shape \(16, 8\); .* needs \(\.\.\., 16, 16\)"):
        tcscope.mma(instr, np.zeros((16, 8), np.float16), b)
    with pytest.raises(ValueError, match="do not broadcast"):
        tcscope.mma(instr, np.zeros((2, 16, 16), np.float16), np.zeros((3, 16, 8), np.float16))
    with pytest.raises(TypeError, match="dtype bool"):
        tcscope.mma(instr, np.zeros((16, 16), bool), b)
    with pytest.raises(TypeError, match="dtype complex"):
        tcscope.mma(instr, a.astype(np.complex64), b)
    big = np.zeros((16, 16), np.float32)
    big[3, 4] = 1e6   # beyond f16
    with pytest.raises(ValueError, match=r"a\[3, 4\] = .* is not exactly a f16 value"):
        tcscope.mma(instr, big, b)
    wide = np.zeros((16, 16), np.uint32)
    wide[0, 1] = 0x10000
    with pytest.raises(tcscope.Error, match=r"A\[1\] = 0x10000 is not a f16 bit pattern"):
        tcscope.mma(instr, wide, b)
    dense = np.ones((16, 32), np.float16)   # a sparse A must be 2:4
    with pytest.raises(tcscope.Error, match="2:4|sparse|structured"):
        tcscope.mma("mma.sp.m16n8k32.f32.f16.f16.f32", dense, np.zeros((32, 8), np.float16))
