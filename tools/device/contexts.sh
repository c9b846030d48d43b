#!/usr/bin/env bash
# Where a process's GPU start goes on a node (doc/findings.md "The fit on the
# GPU, and a child per slice"): a bare CUDA context (cudaFree(0) in a new
# process) alone, 16 and 32 at once on one GPU, 16 on each of two GPUs at
# once; nvmlInit alone and 32 at once; `tcscope list --backend gpu:0`;
# `tcscope audit --part` of one instruction alone and 32 at once, and tiny
# ones 32, 16 and 8 at once. Each line: how many, the command, the wall
# seconds of all of them. These are the measurements of 2026-11-29, run then
# from scripts of their own (at 95a293c and d31fa15), gathered here.
#
# Usage (from the repository root, $OUT set; a build/tcscope, or it builds):
#   bash tools/device/contexts.sh
set -u
. tools/device-env.sh
[ -x build/tcscope ] || device_build build/tcscope
B=build/tcscope I=mma.m16n8k16.f32.f16.f16.f32
printf '#include <cuda_runtime.h>\nint main(void) { return cudaFree(0) != cudaSuccess; }\n' > /tmp/ctx.cu
nvcc -O2 -arch=sm_90a -o /tmp/ctx /tmp/ctx.cu || exit 1
printf '#include <dlfcn.h>\nint main(void) { void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);\n  int (*f)(void) = h ? (int (*)(void))dlsym(h, "nvmlInit_v2") : 0; return f ? f() : 1; }\n' > /tmp/nv.c
cc -o /tmp/nv /tmp/nv.c -ldl || exit 1
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
# many N CMD..: N copies at once (the word @ in CMD becomes the copy's number)
many() {
  local n=$1; shift; local s; s=$(date +%s.%N); local pids=()
  for i in $(seq 1 "$n"); do ( "${@//@/$i}" > /dev/null 2>&1 ) & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
  echo "$n x $*: $(secs "$s") s" | tee -a "$OUT/contexts.txt"
}
many 1 /tmp/ctx; many 1 /tmp/ctx; many 16 /tmp/ctx; many 32 /tmp/ctx
if [ "$(nvidia-smi -L | grep -c '^GPU ')" -ge 2 ]; then
  s=$(date +%s.%N)
  ( many 16 env CUDA_VISIBLE_DEVICES=0 /tmp/ctx ) & a=$!; ( many 16 env CUDA_VISIBLE_DEVICES=1 /tmp/ctx ) & b=$!
  wait $a $b; echo "16 on GPU 0 and 16 on GPU 1 at once: $(secs "$s") s" | tee -a "$OUT/contexts.txt"
fi
many 1 /tmp/nv; many 32 /tmp/nv
many 1 $B list --backend gpu:0; many 32 $B list --backend gpu:0
A=(audit --part --backend gpu:0 --instr $I --no-timing)
many 1 $B "${A[@]}" --count 200000 --hunt-count 12500 --out /tmp/ctx-a@ --force
many 32 $B "${A[@]}" --count 200000 --hunt-count 12500 --out /tmp/ctx-a@ --force
for n in 32 16 8; do many $n $B "${A[@]}" --count 1000 --hunt-count 100 --out /tmp/ctx-t@ --force; done
