# On the GPU machine (issue #16, the compiler as a variable): build the kernels
# with another toolkit's ptxas (carried as .ptxas/ptxas-VERSION.xz, from the
# nvidia-cuda-nvcc-cu12 wheel's nvidia/cuda_nvcc/bin/ptxas), audit the whole
# catalogue with that build (timing included), then regress it against the
# committed baseline (built with this machine's toolkit) while time remains.
# Records in $OUT/ptxas.tgz.
xzf=$(ls .ptxas/ptxas-*.xz | head -1); v=$(basename "$xzf" .xz); v=${v#ptxas-}
mkdir -p /tmp/ptxas-other && xz -dc "$xzf" > /tmp/ptxas-other/ptxas && chmod +x /tmp/ptxas-other/ptxas
/tmp/ptxas-other/ptxas --version | tail -2
device_build PTXAS=/tmp/ptxas-other/ptxas build/tcscope
cat build/ptxas-other/lowered.log 2>/dev/null | sed 's/tmpxft_[0-9a-f_]*-[0-9]*_//' | sort | uniq -c
device_facts
d=/tmp/px; mkdir -p $d
t0=$(date +%s)
timeout "${AUDIT_TIMEOUT:-400}" build/tcscope audit --instr all --out $d/audit-ptxas$v --force > $d/audit.log 2> $d/audit.err
echo "audit (ptxas $v): exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' VERIFIED ' $d/audit.log) verified"
grep -v ' VERIFIED ' $d/audit.log | head; tail -3 $d/audit.err
t0=$(date +%s)
timeout "${REGRESS_TIMEOUT:-120}" build/tcscope regress --out $d/regress > $d/regress.log 2> $d/regress.err
echo "regress (ptxas $v build vs the committed baseline): exit $? in $(( $(date +%s) - t0 )) s"
grep -v '  same ' $d/regress.log | head -30; tail -3 $d/regress.err
/usr/local/cuda/bin/cuobjdump -sass build/tcscope | gzip -9 > $d/sass-ptxas$v.txt.gz
rm -rf $d/audit-*/parts/*/audit.md $d/audit-*/*.html $d/regress/refit/*/*.html $d/regress/baseline.jsonl
gzip -9 -f $d/audit-*/audit.jsonl
tar czf "$OUT/ptxas.tgz" --exclude="px/audit-*/parts" -C /tmp px
