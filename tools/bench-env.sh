# Sourced by make bench's scripts (tools/bench-*.sh), with BIN set: `machine`
# (the GPU and driver, or "no GPU", then the host's CPUs) for every JSON line;
# bench_gpu_or_skip NAME prints NAME's skipped line and exits 0 without a
# GPU; `profile` is the GPU's committed profile (h200 on an H200, else h100);
# bench_timed BASE CMD.. runs CMD, its stdout in BASE.log and stderr in
# BASE.err, its exit status in bench_rc and wall seconds in bench_wall.
machine=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
machine="${machine:-no GPU}; $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
profile=h100
case "$machine" in *H200*) profile=h200 ;; esac
bench_gpu_or_skip() {
  "$BIN" list --backend gpu >/dev/null 2>&1 && return 0
  printf '{"bench":"%s","skipped":"no GPU","machine":"%s"}\n' "$1" "$machine"
  exit 0
}
bench_timed() {
  local base=$1 t0; shift
  t0=$(date +%s.%N)
  "$@" >"$base.log" 2>"$base.err"
  bench_rc=$?
  bench_wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
}
