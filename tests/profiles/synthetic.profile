# A synthetic profile for tests: not any real GPU's arithmetic.
[about]
source = hand-written test profile (tests/profiles/synthetic.profile)

[default]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
c_mode = first
c_round = rz
align_ref = all
align_exp = normalized
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = canonical

[instr mma.m16n8k16.f32.f16.f16.f32]
block = 8
align_bits = 24

[instr mma.m16n8k8.f32.tf32.tf32.f32]
a_convert = tf32:rz      # the 13 low bits of the container are dropped
b_convert = tf32:rz
block = 4
align_bits = 24

[instr mma.m16n8k32.f32.e4m3.e4m3.f32]
a_convert = f16:rne      # widened to f16, as an emulation path would
b_convert = f16:rne
block = 16
align_bits = 13
align_round = floor
acc = exact

[instr mma.m16n8k16.f16.f16.f16.f16]
block = 16
align_bits = 30
acc = f16:rne
out_ftz = yes
