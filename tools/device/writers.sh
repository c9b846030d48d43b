# On the GPU machine: the record writers that moved into reports/ (gemm case
# objects, bench, audit, corpus lines), run on the real GPU paths a CPU test
# cannot reach, for comparison with the committed H100 records made before
# the move (the comparison runs on the CPU afterwards: tools/writers-compare.py).
# Under $OUT: gemm.jsonl (4 paths at 256 x 256 x 1024, 1000 samples, the
# committed record's seed: its first 512 outputs must be the same bits),
# bench.jsonl (tcscope bench --out, 3 instructions), audit3.jsonl (audit
# --json of the same 3), writers.log.
LOG="$OUT/writers.log"
device_build build/tcscope | tee -a "$LOG"
I=mma.m16n8k16.f32.f16.f16.f32,wgmma.m64n256k32.f32.e4m3.e4m3,mma.sp.m16n8k32.f32.bf16.bf16.f32
t0=$(date +%s)
build/tcscope gemm --json --infer --samples 1000 --seed 1 --warmup 2 --reps 5 --k 1024 \
  --path f16,tf32,e4m3-fast,tcscope-wgmma-f16 > "$OUT/gemm.jsonl" 2>> "$LOG"
echo "gemm rc=$? secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
build/tcscope bench --instr "${I%%,*}" --no-whole-gpu --out "$OUT/bench.jsonl" >> "$LOG" 2>&1
echo "bench rc=$?" | tee -a "$LOG"
build/tcscope audit --instr "$I" --out /tmp/audit3 --force --json > "$OUT/audit3.jsonl" 2>> "$LOG"
echo "audit rc=$? secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
