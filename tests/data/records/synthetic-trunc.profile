# SYNTHETIC TEST PROFILE - not measured on any GPU.
# A made-up tensor core for the sweep/choose tests: products exact, fused
# blocks of 16 terms aligned to the largest exponent with 24 bits kept
# (truncated), accumulator held in f32 rounded toward zero.
[about]
source = synthetic test data for tests/test_sweep.c and tests/test_choose.c (no GPU)
[default]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 16
c_mode = first
c_round = rz
align_ref = all
align_exp = nominal
align_bits = 24
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_ftz = no
out_round = rz
out_overflow = inf
nan = canonical
[instr mma.m16n8k32.f32.e4m3.e4m3.f32]
[instr mma.m16n8k32.f32.e5m2.e5m2.f32]
[instr mma.m16n8k16.f32.f16.f16.f32]
[instr mma.m16n8k16.f32.bf16.bf16.f32]
[instr mma.m16n8k8.f32.tf32.tf32.f32]
[instr mma.m16n8k16.f64.f64.f64.f64]
acc = f64:rz
align_bits = 53
