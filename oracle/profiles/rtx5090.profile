# tcscope model profile (oracle/profile.h): THIRD-PARTY, NOT MEASURED.
# Written by tools/mmasim_blackwell.py from MMA-Sim 2.1.1; every field's source is in [about].

[about]
mmasim_device = NVIDIA GeForce RTX 5090 (sm_120a), mma
mmasim_written_by = tools/mmasim_blackwell.py: third-party, NOT MEASURED by tcscope
mmasim_source = MMA-Sim 2.1.1 (PyPI mmasim, author Peichen Xie): the objects it builds, read from the installed package, and its answers to single inputs
mmasim_not_decidable_means = a field MMA-Sim states nothing about (no parameter, no answer that tells): the profile holds the IEEE value, usable only as that choice
mmasim_not_decidable MMA_GST_FDPA mxf4 f32 = c_round, carry_bits, out_round, out_overflow, nan_propagate, dropped_nan
mmasim_field MMA_GST_FDPA mxf4 f32 a_convert = none from MMA_GST_FDPA: operands decoded as given
mmasim_field MMA_GST_FDPA mxf4 f32 a_ftz = no from answer to a = its smallest subnormal: 3f000000
mmasim_field MMA_GST_FDPA mxf4 f32 b_convert = none from MMA_GST_FDPA: operands decoded as given
mmasim_field MMA_GST_FDPA mxf4 f32 b_ftz = no from answer to b = its smallest subnormal: 3f000000
mmasim_field MMA_GST_FDPA mxf4 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4 f32 products = exact from MMA_GST_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_GST_FDPA mxf4 f32 product_flush_below = none from MMA_GST_FDPA: no product flush
mmasim_field MMA_GST_FDPA mxf4 f32 block = 64 from MMA_GST_FDPA L_max=64
mmasim_field MMA_GST_FDPA mxf4 f32 c_mode = first from MMA_GST_FDPA: C in the first fused sum
mmasim_field MMA_GST_FDPA mxf4 f32 align_ref = all from MMA_GST_FDPA: C's exponent in e_max
mmasim_field MMA_GST_FDPA mxf4 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_GST_FDPA mxf4 f32 align_bits = 35 from F=35
mmasim_field MMA_GST_FDPA mxf4 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_GST_FDPA mxf4 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_GST_FDPA mxf4 f32 step_split = contiguous from MMA_GST_FDPA.dpa: K in slices of L_max
mmasim_field MMA_GST_FDPA mxf4 f32 align_floor = -174 from e_zero=-139 - F: a zero term's exponent
mmasim_field MMA_GST_FDPA mxf4 f32 scale_group = 16 from MMA_GST_FDPA G=16: products summed per group, aligned at the scales' exponent
mmasim_field MMA_GST_FDPA mxf4 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_GST_FDPA mxf4 f32 nan = 0x7FFFFFFF from answer to a NaN scale: 7fffffff
mmasim_field MMA_GST_FDPA mxf4 f32 acc_overflow = inf from answer to a, b the largest finite, scales 2^127: 7f800000 (rho RZ-FP32)
mmasim_not_decidable MMA_GST_FDPA mxf4nvf4 f32 = c_round, carry_bits, out_round, out_overflow, nan_propagate, dropped_nan
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 a_convert = none from MMA_GST_FDPA: operands decoded as given
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 a_ftz = no from answer to a = its smallest subnormal: 3f000000
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 b_convert = none from MMA_GST_FDPA: operands decoded as given
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 b_ftz = no from answer to b = its smallest subnormal: 3f000000
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 products = exact from MMA_GST_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 product_flush_below = none from MMA_GST_FDPA: no product flush
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 block = 64 from MMA_GST_FDPA L_max=64
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 c_mode = first from MMA_GST_FDPA: C in the first fused sum
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 align_ref = all from MMA_GST_FDPA: C's exponent in e_max
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 align_bits = 35 from F=35
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 step_split = contiguous from MMA_GST_FDPA.dpa: K in slices of L_max
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 align_floor = -174 from e_zero=-139 - F: a zero term's exponent
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 scale_group = 16 from MMA_GST_FDPA G=16: products summed per group, aligned at the scales' exponent
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 nan = 0x7FFFFFFF from answer to a NaN scale: 7fffffff
mmasim_field MMA_GST_FDPA mxf4nvf4 f32 acc_overflow = inf from answer to a, b the largest finite, scales 2^127: 7f800000 (rho RZ-FP32)
mmasim_not_decidable MMA_ST_FDPA mxf8f6f4 f32 = c_round, carry_bits, out_round, out_overflow, nan_propagate, dropped_nan
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 a_convert = none from MMA_ST_FDPA: operands decoded as given
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 a_ftz = no from answer to a = its smallest subnormal: 3b000000
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 b_convert = none from MMA_ST_FDPA: operands decoded as given
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 b_ftz = no from answer to b = its smallest subnormal: 3b000000
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 products = exact from MMA_ST_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 product_flush_below = none from MMA_ST_FDPA: no product flush
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 block = 32 from MMA_ST_FDPA L_max=32
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 c_mode = first from MMA_ST_FDPA: C in the first fused sum
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 align_ref = all from MMA_ST_FDPA: C's exponent in e_max
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 align_bits = 25 from F=25
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 step_split = contiguous from MMA_ST_FDPA.dpa: K in slices of L_max
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 scale_group = none from MMA_ST_FDPA: each scaled product its own term
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_field MMA_ST_FDPA mxf8f6f4 f32 acc_overflow = inf from answer to a, b the largest finite, scales 2^127: 7f800000 (rho RZ-FP32)
mmasim_not_decidable MMA_T_FDPA f8f6f4 f16 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA f8f6f4 f16 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA f8f6f4 f16 a_ftz = no from answer to a = its smallest subnormal: 1800
mmasim_field MMA_T_FDPA f8f6f4 f16 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA f8f6f4 f16 b_ftz = no from answer to b = its smallest subnormal: 1800
mmasim_field MMA_T_FDPA f8f6f4 f16 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f16 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f16 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f16 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA f8f6f4 f16 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA f8f6f4 f16 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA f8f6f4 f16 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA f8f6f4 f16 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA f8f6f4 f16 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA f8f6f4 f16 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA f8f6f4 f16 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA f8f6f4 f16 acc = f16:rne from rho=RNE-FP16
mmasim_field MMA_T_FDPA f8f6f4 f16 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA f8f6f4 f16 align_floor = -46 from e_zero=-21 - F: a zero term's exponent
mmasim_field MMA_T_FDPA f8f6f4 f16 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA f8f6f4 f16 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA f8f6f4 f16 nan = 0x7FFF from answer to a=NaN b=1: 7fff
mmasim_not_decidable MMA_T_FDPA f8f6f4 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA f8f6f4 f32 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA f8f6f4 f32 a_ftz = no from answer to a = its smallest subnormal: 3b000000
mmasim_field MMA_T_FDPA f8f6f4 f32 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA f8f6f4 f32 b_ftz = no from answer to b = its smallest subnormal: 3b000000
mmasim_field MMA_T_FDPA f8f6f4 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA f8f6f4 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA f8f6f4 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA f8f6f4 f32 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA f8f6f4 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA f8f6f4 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA f8f6f4 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA f8f6f4 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA f8f6f4 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA f8f6f4 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA f8f6f4 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA f8f6f4 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA f8f6f4 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA f8f6f4 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA f8f6f4 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_not_decidable MMA_T_FDPA sync:bf16 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:bf16 f32 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:bf16 f32 a_ftz = no from answer to a = its smallest subnormal: 10000
mmasim_field MMA_T_FDPA sync:bf16 f32 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:bf16 f32 b_ftz = no from answer to b = its smallest subnormal: 10000
mmasim_field MMA_T_FDPA sync:bf16 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:bf16 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:bf16 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:bf16 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:bf16 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:bf16 f32 block = 16 from MMA_T_FDPA L_max=16
mmasim_field MMA_T_FDPA sync:bf16 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:bf16 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:bf16 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:bf16 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:bf16 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:bf16 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA sync:bf16 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:bf16 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:bf16 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:bf16 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:bf16 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_not_decidable MMA_T_FDPA sync:e4m3 f16 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:e4m3 f16 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e4m3 f16 a_ftz = no from answer to a = its smallest subnormal: 1800
mmasim_field MMA_T_FDPA sync:e4m3 f16 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e4m3 f16 b_ftz = no from answer to b = its smallest subnormal: 100
mmasim_field MMA_T_FDPA sync:e4m3 f16 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f16 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f16 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f16 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:e4m3 f16 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:e4m3 f16 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA sync:e4m3 f16 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:e4m3 f16 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:e4m3 f16 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:e4m3 f16 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:e4m3 f16 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:e4m3 f16 acc = f16:rne from rho=RNE-FP16
mmasim_field MMA_T_FDPA sync:e4m3 f16 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:e4m3 f16 align_floor = -46 from e_zero=-21 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:e4m3 f16 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:e4m3 f16 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:e4m3 f16 nan = 0x7FFF from answer to a=NaN b=1: 7fff
mmasim_not_decidable MMA_T_FDPA sync:e4m3 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:e4m3 f32 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e4m3 f32 a_ftz = no from answer to a = its smallest subnormal: 3b000000
mmasim_field MMA_T_FDPA sync:e4m3 f32 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e4m3 f32 b_ftz = no from answer to b = its smallest subnormal: 37800000
mmasim_field MMA_T_FDPA sync:e4m3 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e4m3 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:e4m3 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:e4m3 f32 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA sync:e4m3 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:e4m3 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:e4m3 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:e4m3 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:e4m3 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:e4m3 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA sync:e4m3 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:e4m3 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:e4m3 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:e4m3 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:e4m3 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_not_decidable MMA_T_FDPA sync:e5m2 f16 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:e5m2 f16 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e5m2 f16 a_ftz = no from answer to a = its smallest subnormal: 100
mmasim_field MMA_T_FDPA sync:e5m2 f16 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e5m2 f16 b_ftz = no from answer to b = its smallest subnormal: 100
mmasim_field MMA_T_FDPA sync:e5m2 f16 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f16 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f16 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f16 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:e5m2 f16 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:e5m2 f16 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA sync:e5m2 f16 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:e5m2 f16 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:e5m2 f16 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:e5m2 f16 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:e5m2 f16 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:e5m2 f16 acc = f16:rne from rho=RNE-FP16
mmasim_field MMA_T_FDPA sync:e5m2 f16 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:e5m2 f16 align_floor = -46 from e_zero=-21 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:e5m2 f16 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:e5m2 f16 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:e5m2 f16 nan = 0x7FFF from answer to a=NaN b=1: 7fff
mmasim_not_decidable MMA_T_FDPA sync:e5m2 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:e5m2 f32 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e5m2 f32 a_ftz = no from answer to a = its smallest subnormal: 37800000
mmasim_field MMA_T_FDPA sync:e5m2 f32 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:e5m2 f32 b_ftz = no from answer to b = its smallest subnormal: 37800000
mmasim_field MMA_T_FDPA sync:e5m2 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:e5m2 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:e5m2 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:e5m2 f32 block = 32 from MMA_T_FDPA L_max=32
mmasim_field MMA_T_FDPA sync:e5m2 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:e5m2 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:e5m2 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:e5m2 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:e5m2 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:e5m2 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA sync:e5m2 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:e5m2 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:e5m2 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:e5m2 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:e5m2 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_not_decidable MMA_T_FDPA sync:f16 f16 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:f16 f16 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:f16 f16 a_ftz = no from answer to a = its smallest subnormal: 1
mmasim_field MMA_T_FDPA sync:f16 f16 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:f16 f16 b_ftz = no from answer to b = its smallest subnormal: 1
mmasim_field MMA_T_FDPA sync:f16 f16 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f16 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f16 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f16 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:f16 f16 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:f16 f16 block = 16 from MMA_T_FDPA L_max=16
mmasim_field MMA_T_FDPA sync:f16 f16 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:f16 f16 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:f16 f16 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:f16 f16 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:f16 f16 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:f16 f16 acc = f16:rne from rho=RNE-FP16
mmasim_field MMA_T_FDPA sync:f16 f16 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:f16 f16 align_floor = -46 from e_zero=-21 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:f16 f16 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:f16 f16 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:f16 f16 nan = 0x7FFF from answer to a=NaN b=1: 7fff
mmasim_not_decidable MMA_T_FDPA sync:f16 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate, dropped_nan
mmasim_field MMA_T_FDPA sync:f16 f32 a_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:f16 f32 a_ftz = no from answer to a = its smallest subnormal: 33800000
mmasim_field MMA_T_FDPA sync:f16 f32 b_convert = none from MMA_T_FDPA: operands decoded as given
mmasim_field MMA_T_FDPA sync:f16 f32 b_ftz = no from answer to b = its smallest subnormal: 33800000
mmasim_field MMA_T_FDPA sync:f16 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:f16 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:f16 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:f16 f32 block = 16 from MMA_T_FDPA L_max=16
mmasim_field MMA_T_FDPA sync:f16 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:f16 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:f16 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:f16 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:f16 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:f16 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA sync:f16 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:f16 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:f16 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:f16 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:f16 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_not_decidable MMA_T_FDPA sync:tf32 f32 = c_round, carry_bits, out_round, out_overflow, acc_overflow, nan_propagate
mmasim_field MMA_T_FDPA sync:tf32 f32 a_convert = tf32:rz from answer to a=3f801fff: 3f800000
mmasim_field MMA_T_FDPA sync:tf32 f32 a_ftz = no from answer to a = its smallest subnormal: 2000
mmasim_field MMA_T_FDPA sync:tf32 f32 b_convert = tf32:rz from answer to b=3f801fff: 3f800000
mmasim_field MMA_T_FDPA sync:tf32 f32 b_ftz = no from answer to b = its smallest subnormal: 2000
mmasim_field MMA_T_FDPA sync:tf32 f32 c_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:tf32 f32 acc_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:tf32 f32 out_ftz = no from answer to C = its smallest subnormal, all else 0: 1
mmasim_field MMA_T_FDPA sync:tf32 f32 products = exact from MMA_T_FDPA: s_a*s_b in floating point, exact
mmasim_field MMA_T_FDPA sync:tf32 f32 product_flush_below = none from MMA_T_FDPA: no product flush
mmasim_field MMA_T_FDPA sync:tf32 f32 block = 8 from MMA_T_FDPA L_max=8
mmasim_field MMA_T_FDPA sync:tf32 f32 c_mode = first from MMA_T_FDPA: C in the first fused sum
mmasim_field MMA_T_FDPA sync:tf32 f32 align_ref = all from MMA_T_FDPA: C's exponent in e_max
mmasim_field MMA_T_FDPA sync:tf32 f32 align_exp = nominal from frexp_and_normalize: exponent fields, subnormals at e_min
mmasim_field MMA_T_FDPA sync:tf32 f32 align_bits = 25 from F=25
mmasim_field MMA_T_FDPA sync:tf32 f32 align_round = trunc from truncated_fused_sum: torch.trunc
mmasim_field MMA_T_FDPA sync:tf32 f32 acc = f32:rz from rho=RZ-FP32
mmasim_field MMA_T_FDPA sync:tf32 f32 step_split = contiguous from MMA_T_FDPA.dpa: K in slices of L_max
mmasim_field MMA_T_FDPA sync:tf32 f32 align_floor = -158 from e_zero=-133 - F: a zero term's exponent
mmasim_field MMA_T_FDPA sync:tf32 f32 scale_group = none from MMA_T_FDPA: each scaled product its own term
mmasim_field MMA_T_FDPA sync:tf32 f32 zero_sign = positive from answer to -0 products and C = -0: 0
mmasim_field MMA_T_FDPA sync:tf32 f32 nan = 0x7FFFFFFF from answer to a=NaN b=1: 7fffffff
mmasim_field MMA_T_FDPA sync:tf32 f32 dropped_nan = inf from answer to a=7f800001: 7f800000

[instr mma.m16n8k32.f32.e5m2.e5m2.f32]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e4m3.f32]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e5m2.f32]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e4m3.f32]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e5m2.f16]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e4m3.f16]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e5m2.f16]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e4m3.f16]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k8.f32.tf32.tf32.f32]
a_convert = tf32:rz
b_convert = tf32:rz
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 8
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = inf
align_floor = -158
scale_group = none

[instr mma.m16n8k4.f32.tf32.tf32.f32]
a_convert = tf32:rz
b_convert = tf32:rz
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 4
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = inf
align_floor = -158
scale_group = none

[instr mma.m16n8k16.f32.f16.f16.f32]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 16
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k16.f16.f16.f16.f16]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 16
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k16.f32.bf16.bf16.f32]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 16
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k8.f32.bf16.bf16.f32]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 8
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k8.f32.f16.f16.f32]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 8
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k8.f16.f16.f16.f16]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 8
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e4m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e5m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e3m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e2m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e2m1.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e4m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e5m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e3m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e2m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e2m1.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e4m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e5m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e3m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e2m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e2m1.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e4m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e5m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e3m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e2m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e2m1.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e4m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e5m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e3m2.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e2m3.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e2m1.f32.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e4m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e5m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e3m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e2m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e4m3.e2m1.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e4m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e5m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e3m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e2m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e5m2.e2m1.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e3m2.e4m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e3m2.e5m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e3m2.e3m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e3m2.e2m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e3m2.e2m1.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m3.e4m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m3.e5m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m3.e3m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m3.e2m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m3.e2m1.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m1.e4m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m1.e5m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m1.e3m2.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m1.e2m3.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f16.e2m1.e2m1.f16.kind::f8f6f4]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f16:rne
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -46
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e4m3.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e5m2.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e3m2.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m3.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k32.f32.e2m1.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0]
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
align_bits = 25
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -158
scale_group = none

[instr mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4.block_scale.scale_vec::2X.ue8m0]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 64
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 35
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -174
scale_group = 16

[instr mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::2X.ue8m0]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 64
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 35
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = inf
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -174
scale_group = 16

[instr mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 64
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = 35
align_round = trunc
carry_bits = unlimited
acc = f32:rz
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = positive
dropped_nan = nan
align_floor = -174
scale_group = 16
