"""tcscope from Python: one instruction, a conversion, a library GEMM.

Run after `make` and `pip install ./python` (the README's Python example)."""
import numpy as np

import tcscope

# One mma.sync of the H100, bit for bit: D = A @ B + C on f16 inputs, FP32 accumulate.
instr = "mma.m16n8k16.f32.f16.f16.f32"
rng = np.random.default_rng(0)
a = rng.standard_normal((1000, 16, 16)).astype(np.float16)   # 1000 tiles in one call
b = rng.standard_normal((1000, 16, 8)).astype(np.float16)
d = tcscope.mma(instr, a, b, profile="h100").view(np.float32)
exact = tcscope.mma(instr, a, b, profile="exact").view(np.float32)
print(f"{instr}: {np.count_nonzero(d != exact)} of {d.size} outputs differ from the correctly rounded sum")

# FP8 conversions with every rounding and overflow option.
x = np.array([0.1, 300.0, 1e6, -2.0**-10])
bits, flags = tcscope.convert(x, "e4m3", rounding="rne", overflow="sat", return_flags=True)
print("e4m3 satfinite:", [hex(v) for v in bits], "->", tcscope.decode(bits, "e4m3"),
      "inexact:", (flags & tcscope.INEXACT).astype(bool))

# A cuBLASLt-like FP8 GEMM: the tensor core's accumulator promoted to FP32 every 128 of K.
A = tcscope.convert(rng.standard_normal((64, 4096)), "e4m3")
B = tcscope.convert(rng.standard_normal((4096, 256)), "e4m3")
ref = tcscope.decode(A, "e4m3") @ tcscope.decode(B, "e4m3")
for s in (tcscope.GemmStructure(), tcscope.GemmStructure(promote=128)):
    D = tcscope.gemm_predict("e4m3", A, B, s, profile="h100")
    print(f"e4m3 GEMM 64x256x4096, promote every {s.promote or 'never'}: mean |error| {np.abs(D - ref).mean():.3g}")
