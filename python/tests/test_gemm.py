"""tcscope.gemm_predict against the same GEMM composed in Python from
tcscope.mma (the instruction steps, C carried) and numpy's FP32 additions:
the simulated library's structure, done a second way."""
import numpy as np
import pytest

import tcscope


def compose(instr, A, B, s: tcscope.GemmStructure) -> np.ndarray:
    """D as s says, from tiles of instr (runs and slices whole steps of its K)."""
    info = tcscope.instr_info(instr)
    m, k = A.shape
    n = B.shape[1]
    assert m % info.m == 0 and n % info.n == 0 and s.chunk == info.k
    S = s.splitk
    if s.slice_unit:
        units = -(-k // s.slice_unit)
        per, extra = divmod(units, S)
        cuts, pos = [], 0
        for t in range(S + 1):
            cuts.append(min(pos, k))
            pos += (per + (t >= S - extra)) * s.slice_unit
    else:
        cuts = [t * (k // S) for t in range(S)] + [k]
    # A (m x k) as tiles (m/M x M x K) and B (k x n) as tiles (K x N x n/N) per step
    def step(acc, c0):
        a = A[:, c0:c0 + info.k].reshape(m // info.m, 1, info.m, info.k)
        b = B[c0:c0 + info.k, :].reshape(info.k, n // info.n, info.n).transpose(1, 0, 2)[None]
        c = acc.reshape(m // info.m, info.m, n // info.n, info.n).transpose(0, 2, 1, 3)
        d = tcscope.mma(instr, a, b, c)
        return d.transpose(0, 2, 1, 3).reshape(m, n)
    sums = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        run = s.promote or (hi - lo)
        total = None
        for r0 in range(lo, hi, run):
            acc = np.zeros((m, n), np.uint32)
            for c0 in range(r0, min(r0 + run, hi), s.chunk):
                acc = step(acc, c0)
            v = acc.view(np.float32)
            total = v if total is None else (total + v).astype(np.float32)
        sums.append(total)
    if s.combine == "xor":
        w = list(sums)
        for bit in s.xor_bits:
            for i in range(S):
                if not i & (1 << bit):
                    w[i] = (w[i] + w[i | 1 << bit]).astype(np.float32)
        return w[0]
    if s.combine == "pairwise":
        def tree(v):
            return v[0] if len(v) == 1 else (tree(v[: len(v) // 2]) + tree(v[len(v) // 2:])).astype(np.float32)
        return tree(sums)
    order = sums[::-1] if s.combine == "reverse" else sums
    d = order[0]
    for v in order[1:]:
        d = (d + v).astype(np.float32)
    return d


def inputs(path, m, n, k, seed):
    p = tcscope.gemm_path(path)
    rng = np.random.default_rng(seed)
    a = tcscope.convert(rng.standard_normal((m, k)), p.a, overflow="sat")
    b = tcscope.convert(rng.standard_normal((k, n)), p.b, overflow="sat")
    return a, b


STRUCTURES = [
    ("f16", tcscope.GemmStructure(chunk=16)),
    ("f16", tcscope.GemmStructure(chunk=16, promote=64, splitk=3, combine="pairwise", slice_unit=32)),
    ("bf16", tcscope.GemmStructure(chunk=16, splitk=4, combine="reverse")),
    ("e4m3", tcscope.GemmStructure(chunk=32, promote=128, splitk=2)),
    ("e5m2-fast", tcscope.GemmStructure(chunk=32, splitk=5, combine="reverse", slice_unit=64)),
    ("bf16", tcscope.GemmStructure(chunk=16, splitk=8, combine="xor", xor_bits=(2, 0, 1))),
    ("f16", tcscope.GemmStructure(chunk=16, promote=32, splitk=4, combine="xor", xor_bits=(1, 0), slice_unit=32)),
]


@pytest.mark.parametrize("path,s", STRUCTURES)
def test_gemm_equals_composed_mma(path, s):
    instr = tcscope.gemm_path(path).instr
    a, b = inputs(path, 64, 256, 640, seed=s.splitk)
    got = tcscope.gemm_predict(path, a, b, s)
    assert got.dtype == np.float32 and got.shape == (64, 256)
    want = compose(instr, a, b, s)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_tf32_input_conversion():
    path = "tf32"
    instr = tcscope.gemm_path(path).instr
    rng = np.random.default_rng(9)
    a = rng.standard_normal((64, 64)).astype(np.float32)
    b = rng.standard_normal((64, 256)).astype(np.float32)
    s = tcscope.GemmStructure(chunk=8, splitk=2)
    results = {}
    for cv, mode in [("tf32-rz", "rz"), ("tf32-rne", "rne"), ("tf32-rna", "rna")]:
        got = tcscope.gemm_predict(path, a, b, s, incvt=cv)
        at = tcscope.convert(a, "tf32", rounding=mode)
        bt = tcscope.convert(b, "tf32", rounding=mode)
        assert np.array_equal(got.view(np.uint32), compose(instr, at, bt, s).view(np.uint32)), cv
        results[cv] = got
    # the conversions are told apart by these inputs (else the test above proves little)
    assert not np.array_equal(results["tf32-rz"], results["tf32-rne"])


def test_structures_are_told_apart():
    a, b = inputs("e4m3", 64, 256, 4096, seed=2)
    one = tcscope.gemm_predict("e4m3", a, b)
    promoted = tcscope.gemm_predict("e4m3", a, b, {"chunk": 32, "promote": 128, "splitk": 1, "combine": "seq"})
    assert not np.array_equal(one, promoted)
    # promoting partial sums to FP32 every 128 is the more accurate (FP8's
    # tensor-core accumulator keeps fewer bits: why libraries promote)
    ref = tcscope.decode(a, "e4m3") @ tcscope.decode(b, "e4m3")
    err_one, err_promoted = np.abs(one - ref).mean(), np.abs(promoted - ref).mean()
    assert err_promoted < err_one / 4 and err_one < 1


def test_xor_orders_are_told_apart():
    """The XOR tree's level order changes the bits (else the xor cases above prove little), and a
    record's structure dict with its xor_bits is read as the record means it."""
    a, b = inputs("bf16", 64, 256, 640, seed=8)
    one = tcscope.gemm_predict("bf16", a, b, {"chunk": 16, "splitk": 8, "combine": "xor", "xor_bits": [2, 0, 1]})
    other = tcscope.gemm_predict("bf16", a, b, tcscope.GemmStructure(chunk=16, splitk=8, combine="xor",
                                                                     xor_bits=(0, 1, 2)))
    pairwise = tcscope.gemm_predict("bf16", a, b, tcscope.GemmStructure(chunk=16, splitk=8, combine="pairwise"))
    assert not np.array_equal(one.view(np.uint32), other.view(np.uint32))
    # bits 0, 1, 2 in order are the balanced pairwise tree (cases/gemm.h)
    assert np.array_equal(other.view(np.uint32), pairwise.view(np.uint32))


def test_xor_errors():
    a = np.zeros((16, 64), np.float16)
    b = np.zeros((64, 16), np.float16)
    with pytest.raises(ValueError, match="combine 'xor' needs xor_bits"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=4, combine="xor"))
    with pytest.raises(tcscope.Error, match="power of two from 4 to 32, not 3"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=3, combine="xor", xor_bits=(0, 1)))
    with pytest.raises(tcscope.Error, match="the 2 bits 0 .. 1, each once"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=4, combine="xor", xor_bits=(1, 1)))
    with pytest.raises(tcscope.Error, match="left over"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=4, combine="xor", xor_bits=(1, 0, 2)))


def test_values_equal_bits():
    a, b = inputs("f16", 64, 64, 48, seed=4)
    by_bits = tcscope.gemm_predict("f16", a, b)
    by_value = tcscope.gemm_predict("f16", a.view(np.float16), b.view(np.float16))
    assert np.array_equal(by_bits.view(np.uint32), by_value.view(np.uint32))


def test_errors():
    a = np.zeros((16, 32), np.float16)
    b = np.zeros((32, 16), np.float16)
    with pytest.raises(tcscope.Error, match="unknown GEMM path 'f17'"):
        tcscope.gemm_predict("f17", a, b)
    with pytest.raises(ValueError, match="no tensor-core instruction"):
        tcscope.gemm_predict("f32", a.astype(np.float32), b.astype(np.float32))
    with pytest.raises(ValueError, match="not m x k and k x n"):
        tcscope.gemm_predict("f16", a, b[:16])
    with pytest.raises(tcscope.Error, match="bad structure: chunk 16 .* splitk 0"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=0))
    with pytest.raises(tcscope.Error, match="unknown combine 'tree'"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(combine="tree"))
    with pytest.raises(tcscope.Error, match="has no input conversion tf32-rz"):
        tcscope.gemm_predict("f16", a, b, incvt="tf32-rz")
    with pytest.raises(tcscope.Error, match="unknown model profile"):
        tcscope.gemm_predict("f16", a, b, profile="nope")
    with pytest.raises(ValueError, match="not exactly a e4m3 value"):
        tcscope.gemm_predict("e4m3", np.full((16, 32), 0.1), np.zeros((32, 16)))
    with pytest.raises(tcscope.Error, match=r"A\[0\] = 0x100 is not a e4m3 bit pattern"):
        tcscope.gemm_predict("e4m3", np.full((16, 32), 256, np.uint16), np.zeros((32, 16), np.uint8))
    with pytest.raises(TypeError, match="structure splitk must be an int"):
        tcscope.gemm_predict("f16", a, b, tcscope.GemmStructure(splitk=1.5))
