#!/usr/bin/env bash
# On the GPU machine (issue #30, the toolkit matrix): the driver JIT's row
# (the matrix's PTX, nvcc 13.0's, compiled by this driver as gpu:jit loads
# it: tools/toolkit-matrix.py jit), then, for each toolkit whose ptxas lowers
# an instruction to another tensor-core sequence than 13.0's
# (tools/toolkit-matrix.py differs), an audit of those instructions, timing
# included, built with that ptxas (carried as .ptxas/ptxas-VERSION.xz,
# tools/device/ptxas.sh's form; the kernels it refuses, other instructions of
# the same files, left out: TC_PTXAS_DROP=1), compared with the committed
# H200 audit (ptxas 13.0). Before the device call: tools/toolkit-matrix.py fetch
# 12.4 .ptxas (7.3 MB; .ptxas/ is untracked and travels with the tree).
# Everything in $OUT/toolkit-audit.tar.xz; back here:
#   tools/toolkit-matrix.py ingest "driver JIT" DIR/tka/jit && tools/toolkit-matrix.py write-doc
set -u
. tools/device-env.sh
d=/tmp/tka; rm -rf $d; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/gpu.txt
t0=$(date +%s)
TKM_CACHE=$d/cache TKM_JOBS=16 timeout "${JIT_TIMEOUT:-150}" python3 tools/toolkit-matrix.py jit $d/jit > $d/jit.log 2>&1
echo "driver JIT: exit $? in $(( $(date +%s) - t0 )) s; $(ls $d/jit/*.cubin 2>/dev/null | wc -l) cubins, $(wc -l < $d/jit/failed.txt 2>/dev/null) kernels refused"
tail -3 $d/jit.log
rm -rf $d/cache
python3 tools/toolkit-matrix.py differs > $d/differs.txt
echo "instructions whose sequence differs from 13.0's: $(wc -l < $d/differs.txt)"
for x in .ptxas/ptxas-*.xz; do
  [ -f "$x" ] || continue
  v=$(basename "$x" .xz); v=${v#ptxas-}
  list=$(awk -F'\t' -v v="$v" '$2 == v {print $3}' $d/differs.txt | paste -sd, -)
  [ -n "$list" ] || { echo "ptxas $v: nothing differs, not audited"; continue; }
  mkdir -p /tmp/px && xz -dc "$x" > /tmp/px/ptxas && chmod +x /tmp/px/ptxas
  rm -rf build/opt/probes/cuda build/ptxas-other
  # the kernels this ptxas refuses (other instructions of the same files) are left out, each logged
  export TC_PTXAS_DROP=1; device_build PTXAS=/tmp/px/ptxas build/tcscope; unset TC_PTXAS_DROP
  echo "ptxas $v build: $(grep -c dropped build/ptxas-other/lowered.log 2>/dev/null) kernels left out"
  cp build/ptxas-other/lowered.log $d/dropped-ptxas$v.log 2>/dev/null
  t0=$(date +%s)
  # timing included: the 12.4 difference is in the timing kernels
  timeout "${AUDIT_TIMEOUT:-120}" build/tcscope audit --instr "$list" --jobs 4 --out $d/audit-ptxas$v --force \
    > $d/audit-ptxas$v.log 2>&1
  echo "audit (ptxas $v) of $list: exit $? in $(( $(date +%s) - t0 )) s"; tail -6 $d/audit-ptxas$v.log
  build/tcscope compare --subset reports/baselines/h200-audit.jsonl.gz $d/audit-ptxas$v/audit.jsonl \
    > $d/compare-ptxas$v.txt 2>&1
  echo "compare with the committed H200 audit (ptxas 13.0): exit $?"; cat $d/compare-ptxas$v.txt | head -20
  rm -f $d/audit-*/*.html $d/audit-*/parts/*/audit.md
done
tar cJf "$OUT/toolkit-audit.tar.xz" -C /tmp tka
