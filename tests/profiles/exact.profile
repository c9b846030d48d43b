# The correctly rounded setting (equals the exact oracle): a test profile.
[default]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 1048576
c_mode = first
c_round = rne
align_ref = all
align_exp = normalized
align_bits = exact
align_round = trunc
carry_bits = unlimited
acc = exact
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = canonical

[instr mma.m16n8k16.f32.f16.f16.f32]
[instr mma.m16n8k16.f32.bf16.bf16.f32]
[instr mma.m16n8k32.f32.e4m3.e4m3.f32]
[instr mma.m16n8k32.f32.e5m2.e5m2.f32]
[instr mma.m16n8k16.f16.f16.f16.f16]
[instr mma.m16n8k8.f32.tf32.tf32.f32]
a_convert = tf32:rz
b_convert = tf32:rz
dropped_nan = inf
