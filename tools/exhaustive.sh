#!/usr/bin/env bash
# make exhaustive: the full 2^32 float32 sweeps, all cores.
#   1. build/opt/tools/exhaustive_f32: every float32 x every format x rounding
#      mode x overflow mode, our fast encoder vs a reference built with MPFR
#      (one JSON line per combination);
#   2. build/opt/tools/cvt_sweep (built only where nvcc exists): CUDA's host
#      conversions, and the device cvt instructions when a GPU is present,
#      against our encoder (one JSON line per conversion).
# Results go to out/exhaustive/*.jsonl; exit 1 if any mismatch.
set -u
out=out/exhaustive
mkdir -p "$out"
rc=0
if [ -x build/opt/tools/exhaustive_f32 ]; then
  build/opt/tools/exhaustive_f32 | tee "$out/formats-f32.jsonl" || rc=1
fi
if [ -x build/opt/tools/cvt_sweep ]; then
  flag=--host-only
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then flag=; fi
  build/opt/tools/cvt_sweep $flag | tee "$out/cvt.jsonl" || rc=1
else
  echo '{"cvt_sweep": "not built (no nvcc): CUDA host/device comparison skipped"}'
fi
exit $rc
