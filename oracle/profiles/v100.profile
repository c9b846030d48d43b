# tcscope model profile: the arithmetic of each instruction (oracle/profile.h).

[about]
device = V100
written_by = tcscope audit --backend corpus: inferred from third-party recorded rows (not measured by tcscope)
source = Khattak & Mikaitis, MATLAB-tensor-core model_validation (github.com/north-numerical-computing/MATLAB-tensor-core), BSD 2-Clause; recorded by them, not by tcscope
split = fit on the rows of even index, verified on the rows of odd index
undecided_means = a field the rows cannot decide holds the first value in the fit's grid order, usable only as that choice; 'undecided' names such fields, 'undecided_values' gives the chosen value first, the audit record every value
evidence wmma.m16n16k16.f32.f16.f16.f32 = 5000 third-party recorded rows of V100 (wmma.m16n16k16.f32.f16.f16.f32); fitted on 2500 even rows, verified on 2500 odd rows: 0 mismatches
undecided wmma.m16n16k16.f32.f16.f16.f32 = a_convert, b_convert, a_ftz, b_ftz, c_ftz, products, product_flush_below, block, c_round, carry_bits, acc, acc_ftz, out_round, out_overflow, out_ftz, nan, acc_overflow, step_split, zero_sign, dropped_nan, align_floor
undecided_values wmma.m16n16k16.f32.f16.f16.f32 = block 4|8|16; acc exact|f32:rz
evidence wmma.m16n16k16.f16.f16.f16.f16 = 5000 third-party recorded rows of V100 (wmma.m16n16k16.f16.f16.f16.f16); fitted on 2500 even rows, verified on 2500 odd rows: 0 mismatches
undecided wmma.m16n16k16.f16.f16.f16.f16 = a_convert, b_convert, a_ftz, b_ftz, c_ftz, products, product_flush_below, block, c_mode, c_round, align_ref, align_exp, align_bits, align_round, carry_bits, acc, acc_ftz, out_round, out_overflow, out_ftz, nan, acc_overflow, step_split, zero_sign, dropped_
undecided_values wmma.m16n16k16.f16.f16.f16.f16 = block 1|2|4|8|16|32; c_mode first|last; align_bits exact|21|22|23|24|25|26|27|28|29|30|31|32|33|34|35|36|37|38|39|40; align_round trunc|floor|rne; acc exact|f32:rne|f32:rz|f16:rne

[instr wmma.m16n16k16.f32.f16.f16.f32]
a_convert = none
b_convert = none
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
align_bits = 23
align_round = trunc
carry_bits = unlimited
acc = exact
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFFFFFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = ieee
dropped_nan = nan
align_floor = none

[instr wmma.m16n16k16.f16.f16.f16.f16]
a_convert = none
b_convert = none
a_ftz = no
b_ftz = no
c_ftz = no
products = exact
product_flush_below = none
block = 1
c_mode = first
c_round = rne
align_ref = all
align_exp = nominal
align_bits = exact
align_round = trunc
carry_bits = unlimited
acc = exact
acc_ftz = no
out_round = rne
out_overflow = inf
out_ftz = no
nan = 0x7FFF
acc_overflow = ieee
step_split = contiguous
nan_propagate = no
zero_sign = ieee
dropped_nan = nan
align_floor = none
