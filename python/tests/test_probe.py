"""tcscope.probe: export, the user's function, inference. Without a GPU the
function is tcscope's own simulated library (gemm_predict with a known
structure), which the inference must find again; and the array
conversions of to_numpy, on stand-ins for torch, jax and cupy arrays."""
import numpy as np
import pytest

import tcscope
from tcscope import _lib

HAS_PROBE = _lib.has("tc_probe_export_dir") and _lib.has("tc_probe_infer_dir")
needs_probe = pytest.mark.skipif(not HAS_PROBE, reason="this libtcscope has no probe functions "
                                 "(tc_probe_export_dir, tc_probe_infer_dir: cases/probe.h not in this tree)")


def _infer_is_a_stub() -> bool:
    """The first probe merge had the export only; its infer says so."""
    if not HAS_PROBE:
        return True
    try:
        tcscope.probe_infer("/nonexistent-tcscope-probe")
    except tcscope.Error as e:
        return "not in this build yet" in str(e)
    return False


INFER_STUB = _infer_is_a_stub()
needs_infer = pytest.mark.skipif(INFER_STUB, reason="this libtcscope's probe infer is not implemented yet "
                                 "(tc_probe_infer_dir: 'not in this build yet')")


class FakeTensor:
    """Duck-typed like a torch tensor: detach().cpu().numpy(), .float(), a dtype."""

    __module__ = "torch"

    def __init__(self, a, dtype):
        self.a, self.dtype = a, dtype

    def detach(self):
        return self

    def cpu(self):
        return self

    def float(self):
        return FakeTensor(self.a.astype(np.float32), "torch.float32")

    def numpy(self):
        if self.dtype == "torch.bfloat16":
            raise TypeError("Got unsupported ScalarType BFloat16")   # what torch says
        return self.a


class FakeCupy:
    __module__ = "cupy._core.core"

    def __init__(self, a):
        self.a = a

    def get(self):
        return self.a


class FakeJax:
    __module__ = "jaxlib.xla_extension"

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)


def test_to_numpy_of_each_framework():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert tcscope.to_numpy(a) is a
    assert np.array_equal(tcscope.to_numpy(FakeTensor(a, "torch.float32")), a)
    bf = tcscope.to_numpy(FakeTensor(a, "torch.bfloat16"))   # widened first, not refused
    assert bf.dtype == np.float32 and np.array_equal(bf, a)
    assert tcscope.to_numpy(FakeCupy(a)) is a
    assert np.array_equal(tcscope.to_numpy(FakeJax(a)), a)
    assert np.array_equal(tcscope.to_numpy([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), a)


@pytest.mark.skipif(HAS_PROBE, reason="the library has the probe functions")
def test_without_probe_functions_a_clear_error():
    with pytest.raises(tcscope.Error, match="this libtcscope has no probe functions"):
        tcscope.probe(lambda a, b: a @ b, "f16", 64, 64, 256)
    with pytest.raises(tcscope.Error, match="this libtcscope has no probe functions"):
        tcscope.probe_infer("/nonexistent")


def simulated(path, structure):
    """The simulated library as a user's matmul: numpy in, float32 out."""
    return lambda a, b: tcscope.gemm_predict(path, a, b, structure)


@needs_probe
@pytest.mark.parametrize("fmt", ["f16", "e4m3", "bf16"])
def test_export_equals_the_cli(cli, tmp_path, fmt):
    cli(["probe", "export", "--m", "64", "--n", "48", "--k", "256", "--format", fmt, "--seed", "9",
         "--out", str(tmp_path / "cli")], parse=False)
    tcscope.probe_export(tmp_path / "py", fmt, 64, 48, 256, seed=9)
    names = sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert "manifest.json" in names and len(names) >= 3
    assert names == sorted(p.name for p in (tmp_path / "py").iterdir())
    for name in names:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "py" / name).read_bytes(), name


@needs_probe
def test_fn_gets_each_product_and_its_d_is_saved(tmp_path):
    seen = {}

    def fn(a, b):
        d = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)   # a 16-bit output
        seen[len(seen)] = (a.shape, b.shape, a.dtype, d)
        return FakeTensor(d, "torch.float16")

    try:
        tcscope.probe(fn, "f16", 64, 32, 256, dir=tmp_path)
    except tcscope.Error:
        assert INFER_STUB   # only the missing inference may stop it
    man = __import__("json").loads((tmp_path / "manifest.json").read_text())
    assert len(seen) == len(man["products"]) == 3
    for (sa, sb, dt, d), p in zip(seen.values(), man["products"]):
        assert sa == (64, 256) and sb == (256, 32) and dt == np.float16
        saved = np.load(tmp_path / p["d"])
        assert saved.dtype == np.dtype("<f4") and np.array_equal(saved, d.astype(np.float32))


@needs_infer
@pytest.mark.parametrize("fmt,path,structure", [
    ("f16", "f16", tcscope.GemmStructure(chunk=16)),
    ("e4m3", "e4m3", tcscope.GemmStructure(chunk=32, promote=128)),
    ("bf16", "bf16", tcscope.GemmStructure(chunk=16, splitk=3, combine="pairwise", slice_unit=64)),
    ("bf16", "bf16", tcscope.GemmStructure(chunk=16, splitk=4, combine="pairwise")),
    ("e4m3", "e4m3-fast", tcscope.GemmStructure(chunk=32, splitk=5, combine="reverse", slice_unit=64)),
    ("f16", "f16", tcscope.GemmStructure(chunk=16, splitk=7, combine="reverse", slice_unit=32)),
    ("f16", "f16", tcscope.GemmStructure(chunk=16, splitk=16, slice_unit=64)),
    # equal slices of 1024 / 3 = 341 positions: cuts the runs product cannot see (it tests a
    # boundary every 8 positions); the verify outputs decide them (test below)
    ("bf16", "bf16", tcscope.GemmStructure(chunk=16, splitk=3)),
])
def test_probe_finds_the_simulated_structure(tmp_path, fmt, path, structure):
    r = tcscope.probe(simulated(path, structure), fmt, 64, 64, 1024, dir=tmp_path)
    assert r.explained, r.summary
    assert any(o.get("kind") == "gemm" for o in r.record), r.record


@needs_infer
def test_probe_finds_slices_cut_off_its_grid(tmp_path):
    """Cuts at 341 and 682 fall between the boundaries the runs product tests: the structure comes
    from the verify outputs, the summary says so, and cuts one position off predict fewer (decided)."""
    r = tcscope.probe(simulated("bf16", tcscope.GemmStructure(chunk=16, splitk=3)), "bf16", 64, 64, 1024,
                      dir=tmp_path)
    assert r.explained, r.summary
    assert "split-K 3," in r.summary and "cut off the 8-position grid" in r.summary, r.summary
    assert "not decidable" not in r.summary, r.summary
    gemm = next(o for o in r.record if o.get("kind") == "gemm")
    assert gemm["structure"]["inferred"]["splitk"] == 3 and gemm["structure"]["inferred"]["slice_unit"] is None


@needs_probe
def test_probe_errors(tmp_path):
    with pytest.raises(ValueError, match=r"fn returned shape \(64, 63\)"):
        tcscope.probe(lambda a, b: np.zeros((64, 63), np.float32), "f16", 64, 64, 256, dir=tmp_path / "a")
    with pytest.raises(TypeError, match="D must be floating point"):
        tcscope.probe(lambda a, b: np.zeros((64, 64), np.int32), "f16", 64, 64, 256, dir=tmp_path / "b")
    with pytest.raises(tcscope.Error):
        tcscope.probe(lambda a, b: a @ b, "f17", 64, 64, 256, dir=tmp_path / "c")
    with pytest.raises(TypeError, match="fn must be callable"):
        tcscope.probe(None, "f16", 64, 64, 256)
