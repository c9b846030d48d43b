#!/usr/bin/env bash
# On an H200 (issue #30 item 2): the Ampere and Ada kernels on Hopper. The
# warp-level executors (mma, mma.sp, wmma) are built as compute_80 and as
# compute_89 PTX only (make WARP_GENCODE=...), so the driver JIT compiles
# them for the H200; each build audits the instructions its architecture has
# (sm_80: 25, sm_89: those and FP8), and so does this tree's sm_90a build.
# Every fingerprint is compared with the sm_90a build's and with the
# committed reports/baselines/h200-audit.jsonl.gz (tools/jit-arch-compare.py):
# the same instruction gives the same fingerprint, or the difference is listed.
#   bash tools/device/jit-arch.sh [COUNT]    COUNT: elements in each proof (default 1e5)
# Results: $OUT/jit-arch.tar.xz (the three audit records, the logs, compare.txt
# and compare.json). Under 7 minutes on one H200.
set -u
COUNT=${1:-100000}
W=build/jit-arch   # inside the tree: the binaries find oracle/profiles from there
rm -rf "$W"; mkdir -p "$W"
LOG="$W/device.log"
say() { echo "$@" | tee -a "$LOG"; }
# whatever happens, what was written comes back (not the binaries)
trap 'rm -f "$W"/tcscope-* "$W"/audit-*/*.html; tar cJf "$OUT/jit-arch.tar.xz" -C build jit-arch' EXIT
. tools/device-env.sh
# the driver's compile cache, shared by the audit's children (each process JITs the kernels it loads)
export CUDA_CACHE_PATH=/tmp/jit-arch-cache CUDA_CACHE_MAXSIZE=4294967296
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$LOG"
T0=$(date +%s)
WARP=build/opt/probes/cuda
for v in sm90a compute_80 compute_89; do
  rm -f "$WARP/mma_gen.cu.o" "$WARP/mma_sp_gen.cu.o" build/opt/probes/backend.o build/opt/libtcscope.a build/tcscope
  if [ "$v" = sm90a ]; then device_build build/tcscope >> "$LOG"
  else device_build WARP_GENCODE="-gencode=arch=$v,code=$v" build/tcscope >> "$LOG"; fi
  cp build/tcscope "$W/tcscope-$v"
done
# leave build/ as a default build would be (the next make rebuilds the two objects)
rm -f "$WARP/mma_gen.cu.o" "$WARP/mma_sp_gen.cu.o" build/opt/probes/backend.o build/opt/libtcscope.a build/tcscope
say "builds: $(( $(date +%s) - T0 )) s"
# what each build runs on this GPU: the warp-level instructions of its architecture
for v in compute_80 compute_89; do
  "$W/tcscope-$v" list --backend gpu 2>>"$LOG" | awk 'NR > 1 && $1 !~ /^wgmma/ {print $1}' > "$W/$v.instrs"
  say "$v: $(wc -l < "$W/$v.instrs") warp-level instructions on the H200"
done
run_audit() {  # build, instruction list file
  local t0; t0=$(date +%s)
  timeout 150 "$W/tcscope-$1" audit --backend gpu --instr "$(paste -sd, "$2")" --count "$COUNT" --no-timing --no-cases \
    --out "$W/audit-$1" --force > "$W/audit-$1.log" 2>&1
  say "audit $1: exit $? in $(( $(date +%s) - t0 )) s, $(grep -c ' VERIFIED ' "$W/audit-$1.log") verified"
}
run_audit compute_80 "$W/compute_80.instrs"
run_audit compute_89 "$W/compute_89.instrs"
run_audit sm90a "$W/compute_89.instrs"
python3 tools/jit-arch-compare.py "$W/audit-sm90a/audit.jsonl" reports/baselines/h200-audit.jsonl.gz \
  "$W/audit-compute_80/audit.jsonl" "$W/audit-compute_89/audit.jsonl" --out "$W" 2>&1 | tee -a "$LOG"
say "total: $(( $(date +%s) - T0 )) s"
