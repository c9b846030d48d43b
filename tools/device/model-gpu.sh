# On the GPU machine (the device tool): the GPU model (probes/model_gpu.h)
# built, its SASS checked, its equivalence with the CPU model and with the
# tensor cores measured, and the hunt's throughput with each model. Under 8
# minutes on one H200 (16 cores). Results under $OUT:
#   model-gpu-check.json.gz  tools/model_gpu_check.c's record (counts per
#                         instruction x family, seed, first differences,
#                         replay sample: commit it as
#                         reports/baselines/h200-model-gpu-check.json.gz)
#   model_gpu_sass.txt    the kernel's SASS opcode histogram (tests/data/)
#   hunt-throughput.json  tcscope hunt --instr all: elements/s with the CPU
#                         model and with the GPU model in the same run, ratio
#   bench_hunt.jsonl      make bench's hunt figures (tests/bench_hunt.c), each
#                         with the GPU model's rate and the ratio
#   *.log                 what each step printed
# Usage: tools/device.sh model-gpu [SECONDS] [CPU_SECONDS] [HUNT_N] [PROFILE]
START=$(date +%s)
BUDGET=${BUDGET:-465}   # seconds for the whole script (under 8 minutes)
REST=170                # kept for the replay, the hunts and bench_hunt
SECONDS_ALL=${1:-240}
CPU_SECONDS=${2:-180}
HUNT_N=${3:-5000}
PROFILE=${4:-h200}
device_build build/tcscope build/opt/tools/model_gpu_check build/opt/tests/test_model_gpu build/opt/bench/bench_hunt
device_facts | tee "$OUT/smi.csv"

# the SASS of the kernel this build made, then the tests on this GPU
# (without cuobjdump on this machine the test checks the committed histogram)
if tools/model-gpu-sass.sh build/opt/probes/cuda/model_gpu.cu.o "$OUT/model_gpu_sass.txt" > "$OUT/sass.log" 2>&1; then
  export TC_MODEL_GPU_SASS=$OUT/model_gpu_sass.txt
fi
cat "$OUT/sass.log"
build/opt/tests/test_model_gpu > "$OUT/test_model_gpu.log" 2>&1
echo "test_model_gpu rc=$?"; grep -E 'GPU model =|PASSED|FAILED|SKIPPED' "$OUT/test_model_gpu.log"

# the equivalence run: GPU model vs CPU model, then vs the tensor cores, in
# what the 8 minutes leave after the build and before the throughput runs
left=$(( BUDGET - ($(date +%s) - START) - REST ))
[ "$left" -lt "$SECONDS_ALL" ] && SECONDS_ALL=$left
[ "$SECONDS_ALL" -lt 30 ] && SECONDS_ALL=30
[ "$CPU_SECONDS" -gt $((SECONDS_ALL * 3 / 4)) ] && CPU_SECONDS=$((SECONDS_ALL * 3 / 4))
echo "equivalence run: $SECONDS_ALL s, the CPU model for the first $CPU_SECONDS s"
t0=$(date +%s)
timeout $((SECONDS_ALL + 30)) build/opt/tools/model_gpu_check --out "$OUT" --profile "$PROFILE" \
  --seconds "$SECONDS_ALL" --cpu-seconds "$CPU_SECONDS" --hw gpu:0 > "$OUT/check.log" 2>&1
echo "model_gpu_check rc=$? in $(( $(date +%s) - t0 )) s"; cat "$OUT/check.log"
gzip -9f "$OUT/model-gpu-check.json"
TC_MODEL_GPU_CHECK=$OUT/model-gpu-check.json.gz build/opt/tests/test_model_gpu > "$OUT/replay.log" 2>&1
echo "replay of the record rc=$?"; grep -E 'pairs replayed|FAILED|Error' "$OUT/replay.log"

# the hunt end to end with each model, the same inputs and backend
rate() { sed -n 's/.*(\([0-9.e+]*\) elements\/s).*/\1/p' "$1" | tail -1; }
for on in cpu gpu; do
  t0=$(date +%s)
  timeout 70 build/tcscope hunt --backend gpu:0 --profile "$PROFILE" --instr all --n "$HUNT_N" --model-on "$on" \
    --sample 0 > "$OUT/hunt-$on.log" 2>&1
  echo "hunt --model-on $on rc=$? in $(( $(date +%s) - t0 )) s: $(tail -1 "$OUT/hunt-$on.log")"
done
c=$(rate "$OUT/hunt-cpu.log"); g=$(rate "$OUT/hunt-gpu.log")
python3 -c "import json,sys; c,g=float(sys.argv[1] or 0),float(sys.argv[2] or 0); print(json.dumps({'figure':'hunt elements/s','per_family':int(sys.argv[3]),'profile':sys.argv[4],'cpu_model':c,'gpu_model':g,'gpu_over_cpu':(g/c if c else None)}))" \
  "$c" "$g" "$HUNT_N" "$PROFILE" | tee "$OUT/hunt-throughput.json"
timeout 40 build/opt/bench/bench_hunt > "$OUT/bench_hunt.jsonl" 2> "$OUT/bench_hunt.err"
echo "bench_hunt rc=$?"; grep ratio "$OUT/bench_hunt.jsonl"
echo "total: $(( $(date +%s) - START )) s"
ls -la "$OUT"
