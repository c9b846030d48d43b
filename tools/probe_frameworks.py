#!/usr/bin/env python3
"""Run each framework's GEMM call on the exports of `tcscope probe export`
(issue 27 item 4), on the GPU machine.

    probe_frameworks.py ROOT --out OUT [--frameworks torch,jax,triton,cupy]
                        [--deadline-s S] [--only CALL,...]

ROOT holds one export per case and format: ROOT/CASE/FORMAT/manifest.json
(CASE such as m256n256k1024; FORMAT f16, bf16, f32, e4m3, e5m2). For every
call below whose format has an export, each product's D = A @ B is computed
and saved as FP32 under OUT/CALL/CASE/PRODUCT_D.npy beside a copy of the
manifest and call.json (framework; versions of the framework, CUDA, the
cuBLAS(Lt) it loaded, driver; GPU; the exact call and its options): a folder
`tcscope probe infer` reads. The exported A and B stay on the GPU machine
(the inference makes them again from the manifest and checks its hashes).

Each framework runs in its own process under a time limit, so that a crash or
hang in one leaves the others; every call of every case fails soft: an error
or a missing framework is recorded (call.json "status", and OUT/summary.json),
never fatal. Then OUT/probe-FRAMEWORK.tar.xz packs each framework's folders.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import tarfile
import time
import traceback

import numpy as np

PRODUCTS = ("step", "runs", "verify")

# call id -> (framework, export format, what is called)
CALLS = {
    "torch-matmul-f16": ("torch", "f16", "torch.matmul(a, b), a, b float16 CUDA tensors (output float16)"),
    "torch-matmul-bf16": ("torch", "bf16", "torch.matmul(a, b), a, b bfloat16 CUDA tensors (output bfloat16)"),
    "torch-matmul-f32": ("torch", "f32", "torch.matmul(a, b), float32, torch.backends.cuda.matmul.allow_tf32 = False"),
    "torch-matmul-f32-tf32": ("torch", "f32", "torch.matmul(a, b), float32, torch.backends.cuda.matmul.allow_tf32 = True"),
    "torch-scaled_mm-e4m3": ("torch", "e4m3", "torch._scaled_mm(a, b, scale_a=1.0, scale_b=1.0, out_dtype=torch.float32, "
                             "use_fast_accum=False), b column-major"),
    "torch-scaled_mm-e4m3-fast": ("torch", "e4m3", "torch._scaled_mm(a, b, scale_a=1.0, scale_b=1.0, "
                                  "out_dtype=torch.float32, use_fast_accum=True), b column-major"),
    "torch-scaled_mm-e5m2": ("torch", "e5m2", "torch._scaled_mm(a e5m2, b e4m3, scale_a=1.0, scale_b=1.0, "
                             "out_dtype=torch.float32, use_fast_accum=False), b column-major"),
    "torch-scaled_mm-e5m2-fast": ("torch", "e5m2", "torch._scaled_mm(a e5m2, b e4m3, scale_a=1.0, scale_b=1.0, "
                                  "out_dtype=torch.float32, use_fast_accum=True), b column-major"),
    "jax-dot-f16": ("jax", "f16", "jax.jit(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32)), float16"),
    "jax-dot-bf16": ("jax", "bf16", "jax.jit(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32)), bfloat16"),
    "jax-dot-e4m3": ("jax", "e4m3", "jax.jit(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32)), "
                     "float8_e4m3fn"),
    "triton-dot-f16": ("triton", "f16", "tl.dot(a, b, acc) in a 64x64x64-tile matmul kernel, float16, FP32 acc"),
    "triton-dot-e4m3": ("triton", "e4m3", "tl.dot(a, b, acc) (max_num_imprecise_acc default), float8e4nv"),
    "triton-dot-e4m3-imprecise0": ("triton", "e4m3", "tl.dot(a, b, acc, max_num_imprecise_acc=0), float8e4nv"),
    "triton-dot-e4m3-imprecise32": ("triton", "e4m3", "tl.dot(a, b, acc, max_num_imprecise_acc=32), float8e4nv"),
    "triton-dot-e4m3-imprecise128": ("triton", "e4m3", "tl.dot(a, b, acc, max_num_imprecise_acc=128), float8e4nv"),
    "cupy-matmul-f16": ("cupy", "f16", "cupy.matmul(a, b), float16 (output float16)"),
    # the CPU's BLAS (no GPU): also what a CPU test of this script runs
    "numpy-matmul-f32": ("numpy", "f32", "numpy.matmul(a, b), float32 (the CPU BLAS numpy links)"),
}
FRAMEWORKS = ("torch", "jax", "triton", "cupy", "numpy")


def loaded_libs(*stems):
    """Paths of the shared libraries with these name stems this process has mapped."""
    found = {}
    try:
        for line in open("/proc/self/maps"):
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            base = os.path.basename(path)
            for s in stems:
                if base.startswith(s + ".so") and s not in found:
                    found[s] = path
    except OSError:
        pass
    return found


def cublas_versions():
    """cuBLASLt's and cuBLAS's versions from the libraries this process loaded."""
    out = {}
    for stem, path in loaded_libs("libcublasLt", "libcublas").items():
        out[stem + "_path"] = path
        try:
            lib = ctypes.CDLL(path)
            if stem == "libcublasLt":
                lib.cublasLtGetVersion.restype = ctypes.c_size_t
                out["cublasLt_version"] = int(lib.cublasLtGetVersion())
            else:
                v = []
                for prop in range(3):   # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
                    x = ctypes.c_int()
                    lib.cublasGetProperty(prop, ctypes.byref(x))
                    v.append(x.value)
                out["cublas_version"] = "%d.%d.%d" % tuple(v)
        except Exception as e:   # a version unread is recorded, never fatal
            out[stem + "_version_error"] = repr(e)
    return out


def load_inputs(folder, product):
    return np.load(os.path.join(folder, product + "_A.npy")), np.load(os.path.join(folder, product + "_B.npy"))


# ---- the frameworks: each returns run(call, a_np, b_np) -> FP32 numpy, and its versions ----

def setup_torch():
    import torch
    dev = torch.device("cuda")
    one = torch.tensor(1.0, device=dev)

    def tens(x, fmt, which):
        t = torch.from_numpy(np.ascontiguousarray(x))
        if fmt == "bf16":
            t = t.view(torch.int16).view(torch.bfloat16)
        elif fmt in ("e4m3", "e5m2"):
            t = t.view(torch.float8_e5m2 if (fmt == "e5m2" and which == "a") else torch.float8_e4m3fn)
        return t.to(dev)

    def run(call, fmt, a, b):
        ta, tb = tens(a, fmt, "a"), tens(b, fmt, "b")
        if call.startswith("torch-matmul-f32"):
            torch.backends.cuda.matmul.allow_tf32 = call.endswith("tf32")
        if "scaled_mm" in call:
            d = torch._scaled_mm(ta, tb.t().contiguous().t(), scale_a=one, scale_b=one, out_dtype=torch.float32,
                                 use_fast_accum=call.endswith("fast"))
        else:
            d = torch.matmul(ta, tb)
        torch.cuda.synchronize()
        return d.float().cpu().numpy()

    def options(call):
        m = torch.backends.cuda.matmul
        return {"allow_tf32": m.allow_tf32,
                "allow_fp16_reduced_precision_reduction": m.allow_fp16_reduced_precision_reduction,
                "allow_bf16_reduced_precision_reduction": m.allow_bf16_reduced_precision_reduction,
                "float32_matmul_precision": torch.get_float32_matmul_precision(),
                "preferred_blas_library": str(torch.backends.cuda.preferred_blas_library())}

    versions = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": str(torch.backends.cudnn.version()),
                "gpu": torch.cuda.get_device_name(0)}
    return run, options, versions


def setup_jax():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    dot = jax.jit(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32))
    view = {"f16": (np.float16, np.float16), "bf16": (ml_dtypes.bfloat16, ml_dtypes.bfloat16),
            "e4m3": (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e4m3fn)}

    def run(call, fmt, a, b):
        va, vb = view[fmt]
        d = dot(jnp.asarray(a.view(va)), jnp.asarray(b.view(vb)))
        return np.asarray(jax.device_get(d), dtype=np.float32)

    def options(call):
        return {"preferred_element_type": "float32", "precision": "default", "jax_default_matmul_precision":
                str(jax.config.jax_default_matmul_precision)}

    versions = {"jax": jax.__version__, "ml_dtypes": ml_dtypes.__version__, "devices": [str(x) for x in jax.devices()]}
    try:
        import jaxlib
        versions["jaxlib"] = jaxlib.__version__
        versions["backend"] = jax.extend.backend.get_backend().platform_version
    except Exception as e:
        versions["version_error"] = repr(e)
    return run, options, versions


TRITON_SRC = '''
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, IMPRECISE: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
        if IMPRECISE < 0:
            acc = tl.dot(a, b, acc)
        else:
            acc = tl.dot(a, b, acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
'''


def setup_triton():
    import importlib.util
    import tempfile
    import torch
    import triton
    path = os.path.join(tempfile.mkdtemp(), "probe_mm.py")   # triton.jit reads its source from a file
    open(path, "w").write(TRITON_SRC)
    spec = importlib.util.spec_from_file_location("probe_mm", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    BM = BN = 64

    def bk_of(call):
        # tl.dot refuses max_num_imprecise_acc above the K tile: the tile grows to it
        imp = int(call.rsplit("imprecise", 1)[1]) if "imprecise" in call else -1
        return max(64, imp)

    def run(call, fmt, a, b):
        m, k = a.shape
        n = b.shape[1]
        BK = bk_of(call)
        if n % BN:
            raise ValueError("N %d must be a multiple of %d for this kernel" % (n, BN))
        # rows padded with zeros to whole tiles (no masked loads: FP8 has no 'other'); each output of the
        # first m rows is computed as without them. K likewise, at its end, to whole K tiles (10048 is no
        # multiple of the 128 that max_num_imprecise_acc=128 needs): zero products after the last real
        # one, as a masked load with other=0 would give (options' k_padded_to says so)
        mp, kp = -(-m // BM) * BM, -(-k // BK) * BK
        ta = torch.from_numpy(np.ascontiguousarray(np.pad(a, ((0, mp - m), (0, kp - k))))).cuda()
        tb = torch.from_numpy(np.ascontiguousarray(np.pad(b, ((0, kp - k), (0, 0))))).cuda()
        if fmt == "e4m3":
            ta, tb = ta.view(torch.float8_e4m3fn), tb.view(torch.float8_e4m3fn)
        imp = int(call.rsplit("imprecise", 1)[1]) if "imprecise" in call else -1
        c = torch.empty((mp, n), dtype=torch.float32, device="cuda")
        mod.mm[(mp // BM, n // BN)](ta, tb, c, mp, n, kp, BM=BM, BN=BN, BK=BK, IMPRECISE=imp)
        torch.cuda.synchronize()
        return c[:m].cpu().numpy()

    def options(call):
        return {"BM": BM, "BN": BN, "BK": bk_of(call), "num_warps": 4, "num_stages": "default",
                "max_num_imprecise_acc": call.rsplit("imprecise", 1)[1] if "imprecise" in call else "default",
                "k_padding": "zeros after the last K position up to a multiple of BK, when K is not one",
                "kernel_source": TRITON_SRC}

    versions = {"triton": triton.__version__, "torch": torch.__version__, "cuda": torch.version.cuda,
                "gpu": torch.cuda.get_device_name(0)}
    return run, options, versions


def setup_cupy():
    import cupy as cp

    def run(call, fmt, a, b):
        d = cp.matmul(cp.asarray(a), cp.asarray(b))
        cp.cuda.Device().synchronize()
        return cp.asnumpy(d).astype(np.float32)

    def options(call):
        return {"CUPY_TF32": os.environ.get("CUPY_TF32", "unset")}

    versions = {"cupy": cp.__version__, "cuda_runtime": cp.cuda.runtime.runtimeGetVersion(),
                "cuda_driver": cp.cuda.runtime.driverGetVersion()}
    try:
        versions["cublas"] = cp.cuda.cublas.getVersion(cp.cuda.device.get_cublas_handle())
    except Exception as e:
        versions["cublas_error"] = repr(e)
    return run, options, versions


def setup_numpy():
    def run(call, fmt, a, b):
        return np.matmul(a, b).astype(np.float32)

    def options(call):
        return {}

    versions = {"numpy": np.__version__}
    try:
        versions["blas"] = str(np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {}))
    except Exception as e:
        versions["blas_error"] = repr(e)
    return run, options, versions


SETUP = {"torch": setup_torch, "jax": setup_jax, "triton": setup_triton, "cupy": setup_cupy, "numpy": setup_numpy}


def cases_of(root):
    """(case, format, folder) of every export under root."""
    out = []
    for case in sorted(os.listdir(root)):
        for fmt in sorted(os.listdir(os.path.join(root, case))):
            folder = os.path.join(root, case, fmt)
            if os.path.isfile(os.path.join(folder, "manifest.json")):
                out.append((case, fmt, folder))
    return out


def worker(args):
    """One framework, every call and case; each fails soft."""
    fw = args.worker
    host = json.loads(os.environ.get("PROBE_HOST", "{}"))
    calls = [c for c in CALLS if CALLS[c][0] == fw and (not args.only or c in args.only.split(","))]
    try:
        run, options, versions = SETUP[fw]()
    except Exception as e:
        print(json.dumps({"framework": fw, "status": "missing", "error": repr(e)}), flush=True)
        return 0
    for call in calls:
        fmt, what = CALLS[call][1], CALLS[call][2]
        for case, efmt, folder in cases_of(args.root):
            if efmt != fmt:
                continue
            dest = os.path.join(args.out, call, case)
            os.makedirs(dest, exist_ok=True)
            info = {"schema": "tcscope-probe-call/1", "framework": fw, "call_id": call, "call": what, "format": fmt,
                    "case": case, "versions": dict(versions), "host": host}
            t0 = time.time()
            try:
                info["options"] = options(call)
                for p in PRODUCTS:
                    a, b = load_inputs(folder, p)
                    d = run(call, fmt, a, b)
                    np.save(os.path.join(dest, p + "_D.npy"), np.ascontiguousarray(d, dtype="<f4"))
                info["status"] = "ok"
            except Exception as e:
                info["status"] = "error"
                info["error"] = "".join(traceback.format_exception_only(type(e), e)).strip()[-2000:]
            info["seconds"] = round(time.time() - t0, 3)
            info["versions"].update(cublas_versions())
            with open(os.path.join(folder, "manifest.json")) as f:
                man = f.read()
            open(os.path.join(dest, "manifest.json"), "w").write(man)
            json.dump(info, open(os.path.join(dest, "call.json"), "w"), indent=2)
            print(json.dumps({"call": call, "case": case, "status": info["status"], "seconds": info["seconds"],
                              "error": info.get("error", "")[:300]}), flush=True)
    return 0


def host_facts():
    facts = {}
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        if q:
            facts["gpu"], facts["driver"] = [x.strip() for x in q[0].split(",", 1)]
    except Exception as e:
        facts["nvidia_smi_error"] = repr(e)
    facts["python"] = sys.version.split()[0]
    facts["numpy"] = np.__version__
    return facts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    ap.add_argument("--only", default="", help="call ids (default all)")
    ap.add_argument("--deadline-s", type=float, default=360, help="all frameworks together (default 360)")
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    t_end = time.time() + args.deadline_s
    os.makedirs(args.out, exist_ok=True)
    os.environ["PROBE_HOST"] = json.dumps(host_facts())
    fws = [f for f in args.frameworks.split(",") if f]
    bad = [f for f in fws if f not in FRAMEWORKS] + [c for c in args.only.split(",") if c and c not in CALLS]
    if bad or not fws:
        raise SystemExit("probe_frameworks: unknown framework or call %s (frameworks %s; calls %s)"
                         % (",".join(bad) or "(none given)", ",".join(FRAMEWORKS), ",".join(CALLS)))
    summary = {"host": json.loads(os.environ["PROBE_HOST"]), "frameworks": {}}
    for i, fw in enumerate(fws):
        # what is left is shared by the frameworks still to run
        left = max(5.0, (t_end - time.time()) / (len(fws) - i))
        cmd = [sys.executable, os.path.abspath(__file__), args.root, "--out", args.out, "--worker", fw]
        if args.only:
            cmd += ["--only", args.only]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=left)
            status, out, err = ("exit %d" % p.returncode), p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            status = "timeout after %.0f s" % left
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        summary["frameworks"][fw] = {"status": status, "seconds": round(time.time() - t0, 1), "results": lines,
                                     "stderr_tail": err[-3000:]}
        print("%-7s %-22s %6.1f s  %d calls ok, %d failed" % (fw, status, time.time() - t0,
              sum(r.get("status") == "ok" for r in lines), sum(r.get("status") not in (None, "ok") for r in lines)),
              flush=True)
        for r in lines:
            if r.get("status") != "ok":
                print("   ", json.dumps(r)[:400], flush=True)
        calls = [c for c in CALLS if CALLS[c][0] == fw and os.path.isdir(os.path.join(args.out, c))]
        if calls:
            with tarfile.open(os.path.join(args.out, "probe-%s.tar.xz" % fw), "w:xz", preset=3) as tar:
                for c in calls:
                    tar.add(os.path.join(args.out, c), arcname=c)
    json.dump(summary, open(os.path.join(args.out, "summary.json"), "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
