# Synthetic test profile (not from any GPU): 13 kept bits, a truncating 1+8+13-bit accumulator.
[instr wgmma.m64n8k32.f32.e4m3.e4m3]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 32
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 13
align_round = trunc
carry_bits = unlimited
acc = e8m13:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
