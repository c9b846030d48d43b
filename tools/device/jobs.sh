# On the GPU machine (issue #16): build, then the main job's wall time
# (tools/bench-audit.sh: the whole catalogue audit with --jobs = CPUs, then
# regress against the committed baseline); records back in $OUT/jobs.tgz.
device_build build/tcscope
device_facts
BENCH_AUDIT_OUT=/tmp/ba timeout "${BENCH_TIMEOUT:-540}" tools/bench-audit.sh | tee "$OUT/bench-audit.jsonl"
grep -v ' VERIFIED ' /tmp/ba/audit.log | head -20; tail -3 /tmp/ba/audit.err; grep -hv '  same ' /tmp/ba/regress-*.log | head -20
rm -rf /tmp/ba/audit/parts/*/audit.md /tmp/ba/audit/*.html /tmp/ba/regress/refit/*/*.html
gzip -9 -f /tmp/ba/audit/audit.jsonl
tar czf "$OUT/jobs.tgz" --exclude='ba/audit/parts' --exclude='ba/regress/baseline.jsonl' -C /tmp ba
