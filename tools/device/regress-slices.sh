#!/usr/bin/env bash
# On one H200 (issue #29), in at most 5 minutes: why regress's verify
# children are slower with the GPU model than with the CPU's (session 13:
# one slice alone 1.88 s against 1.60 s, 16 at once 9.7 s against 5.6 s).
# Built, then:
#   1. the four model kernels' SASS against the committed histograms
#      (tests/data/model_gpu{,_wide,_gemm,_exact}_sass.txt), and test_model_gpu;
#   2. `record corpus` of one instruction: its SASS verdict (96c84cb's fix);
#   3. regress's slice 0 (every 16th instruction of the profile, as
#      cli/regress_verify.c deals them) as one `tcscope verify` child, alone
#      and then with the other 15 slices at once, three ways: the GPU model
#      with the hunt's tiles drawn where cli/hunt_on.c puts them (the host's
#      cores below HUNT_GPU_DRAW_MIN elements per family), the GPU model
#      with the GPU's draw forced (TCSCOPE_HUNT_GPU_DRAW_MIN=0, as before),
#      and the CPU model; each child's wall time and its "# stages:" lines
#      summed (draw, execute, model, compare, rest);
#   4. slice 0's hunt alone (--count 1) at 6250, 25000 and 100000 elements
#      per family, drawn by the GPU and by the host: where the two cross.
# Everything under $OUT/regress-slices.tar.xz; $OUT/summary.json the figures.
#
# Usage (from the repository root, $OUT set):
#   bash tools/device/regress-slices.sh [PROFILE] [COUNT]
# BUDGET (seconds, default 280) bounds the run; SKIP_BUILD=1 reuses build/.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-280}
PROFILE=${1:-h200}
COUNT=${2:-100000}
R=/tmp/regress-slices
rm -rf "$R"; mkdir -p "$R"
exec > >(tee "$R/run.log") 2>&1
KEEP=15

. tools/device-env.sh
device_task_build "device_pack regress-slices" build/tcscope build/opt/tests/test_model_gpu \
  build/opt/tests/test_hunt_gpu
{ device_facts; cat .tcscope-version 2>/dev/null; } | tee "$R/machine.txt"
B=build/tcscope

# 1. the SASS histograms
for k in model_gpu:tc_model_gpu_kernel:model_gpu_sass model_gpu:tc_model_gpu_wide_kernel:model_gpu_wide_sass \
         model_gpu_gemm:tc_model_gpu_gemm_kernel:model_gpu_gemm_sass \
         model_gpu_exact:tc_model_gpu_exact_kernel:model_gpu_exact_sass; do
  IFS=: read -r obj kernel file <<< "$k"
  if tools/model-gpu-sass.sh "build/opt/probes/cuda/$obj.cu.o" "$R/$file.txt" "$kernel" > "$R/$file.log" 2>&1; then
    if diff <(grep -v '^# \(from\|SASS\)' "tests/data/$file.txt") <(grep -v '^# \(from\|SASS\)' "$R/$file.txt") \
        > "$R/$file.diff"; then echo "$file: as committed"; else echo "$file: DIFFERS (see $file.diff)"; fi
  else
    echo "$file: model-gpu-sass.sh failed"; tail -3 "$R/$file.log"
  fi
done
[ -f "$R/model_gpu_sass.txt" ] && export TC_MODEL_GPU_SASS=$R/model_gpu_sass.txt
[ -f "$R/model_gpu_wide_sass.txt" ] && export TC_MODEL_GPU_WIDE_SASS=$R/model_gpu_wide_sass.txt
for t in test_model_gpu test_hunt_gpu; do
  device_step $t 60 build/opt/tests/$t
  grep -E 'PASSED|FAILED|SKIPPED|ERROR' "$R/$t.log" | tail -3
done

# 2. the corpus record's SASS verdict
device_step corpus 30 bash -c "$B record corpus --backend gpu:0 --instr mma.m16n8k16.f32.f16.f16.f32 --count 256 \
  > $R/corpus.txt"
grep -o '"verdict": *"[^"]*"' "$R/corpus.txt" | sort | uniq -c | sed 's/^/corpus SASS /'

# 3. the slices, as regress deals them
mapfile -t ALL < <($B list --backend gpu:0 | awk 'NR > 1 && $NF == "yes" { print $1 }' \
  | while read -r n; do grep -qx "\[instr $n\]" "oracle/profiles/$PROFILE.profile" && echo "$n"; done)
echo "${#ALL[@]} instructions of the profile on gpu:0"
for s in $(seq 0 15); do
  L=""; for ((i = s; i < ${#ALL[@]}; i += 16)); do L="$L${L:+,}${ALL[$i]}"; done
  echo "$L" > "$R/slice$s.list"
done
HUNT=$(( COUNT / 16 ))
child() {   # child NAME MODEL_ON SLICE [COUNT HUNT]: one verify child, its wall time in NAME.time
  local t0; t0=$(date +%s.%N)
  $B verify --backend gpu:0 --profile "$PROFILE" --instr "$(cat "$R/slice$3.list")" --count "${4:-$COUNT}" \
    --hunt-count "${5:-$HUNT}" --seed 0x4e6e55 --model-on "$2" --quiet > "$R/$1.log" 2>&1
  echo "$? $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" > "$R/$1.time"
}
# way: gpu (the default draw), gpudraw (the GPU's draw forced), cpu (the CPU model)
for way in gpu gpudraw cpu; do
  [ "$(device_left)" -lt 60 ] && { echo "slices, $way: skipped (no time left)"; continue; }
  mo=${way%draw}; unset TCSCOPE_HUNT_GPU_DRAW_MIN
  [ "$way" = gpudraw ] && export TCSCOPE_HUNT_GPU_DRAW_MIN=0
  child "alone-$way" "$mo" 0; echo "slice 0 alone, $way: $(cat "$R/alone-$way.time")"
  t0=$(date +%s.%N)
  pids=(); for s in $(seq 0 15); do child "all-$way-$s" "$mo" "$s" & pids+=($!); done
  wait "${pids[@]}"   # the children only: a bare wait would wait for the log's tee too
  echo "16 slices at once, $way: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
done
for h in 6250 25000 100000; do
  for d in 0 1000000000; do
    [ "$(device_left)" -lt 30 ] && continue
    where=$([ $d = 0 ] && echo gpu || echo host)
    ( export TCSCOPE_HUNT_GPU_DRAW_MIN=$d; child "hunt$h-$where" gpu 0 1 $h )
    echo "slice 0 hunt of $h per family, drawn on the $where: $(cat "$R/hunt$h-$where.time")"
  done
done
unset TCSCOPE_HUNT_GPU_DRAW_MIN

python3 - "$R" <<'PY' || true
import json, os, re, sys
sys.path.insert(0, "tools/device")
from steps_summary import read
R = sys.argv[1]
pat = re.compile(r"# stages: draw ([\d.]+) s, execute ([\d.]+) s.*?, model ([\d.]+) s.*?, compare ([\d.]+) s; rest ([\d.]+) s")
def child(name):
    if not read(R, name + ".time"):
        return None
    rc, wall = read(R, name + ".time").split()
    st = {"draw": 0.0, "execute": 0.0, "model": 0.0, "compare": 0.0, "rest": 0.0}
    n = 0
    for m in pat.finditer(read(R, name + ".log")):
        n += 1
        for k, v in zip(("draw", "execute", "model", "compare", "rest"), m.groups()):
            st[k] += float(v)
    return {"exit": int(rc), "wall_s": float(wall), "instructions": n, "stages_s": {k: round(v, 2) for k, v in st.items()}}
out = {"machine": read(R, "machine.txt").strip().splitlines()}
for h in (6250, 25000, 100000):
    for d in ("gpu", "host"):
        out["hunt_%d_%s_draw" % (h, d)] = child("hunt%d-%s" % (h, d))
for mo in ("gpu", "gpudraw", "cpu"):
    out["alone_" + mo] = child("alone-" + mo)
    kids = [child("all-%s-%d" % (mo, s)) for s in range(16)]
    kids = [k for k in kids if k]
    if kids:
        out["at_once_" + mo] = {"children": len(kids), "wall_s": [min(k["wall_s"] for k in kids), max(k["wall_s"] for k in kids)],
                                "exits": sorted({k["exit"] for k in kids}),
                                "stages_s_summed": {s: round(sum(k["stages_s"][s] for k in kids), 2) for s in kids[0]["stages_s"]}}
json.dump(out, open(os.path.join(R, "summary.json"), "w"), indent=1)
print(json.dumps(out, indent=1))
PY
echo "total: $(( $(date +%s) - START )) s"
rm -f "$R"/corpus.txt
device_pack regress-slices
