#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS on its committed seeds
# (tests/fuzz/corpus/NAME/, read only) plus what earlier runs found
# (build/fuzz/corpus/NAME/, where new inputs go), one after the other.
# A crash, leak or failed property stops with exit 1 and names the input
# (build/fuzz/crash/NAME-*). Prints one line per harness: executions,
# coverage features and corpus size, as libFuzzer counted them.
# usage: tools/fuzz.sh SECONDS build/fuzz/fuzz_NAME...
set -u
secs=${1:?usage: tools/fuzz.sh SECONDS FUZZER...}; shift
mkdir -p build/fuzz/crash
status=0
for bin in "$@"; do
  name=$(basename "$bin"); name=${name#fuzz_}
  seeds=tests/fuzz/corpus/$name; found=build/fuzz/corpus/$name
  mkdir -p "$found" "$seeds"
  log=build/fuzz/$name.log
  # -rss_limit_mb: the parsers' budgets keep a line under 1.5 GB; 2.5 GB catches more.
  "$bin" "$found" "$seeds" -max_total_time="$secs" -rss_limit_mb=2560 -timeout=30 \
    -artifact_prefix="build/fuzz/crash/$name-" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
  printf 'fuzz %-10s %4ss  %10s execs  %s  %s\n' "$name" "$secs" "${execs:-?}" "${cov:-?}" \
    "$([ $rc -eq 0 ] && echo ok || echo FAILED)"
  if [ $rc -ne 0 ]; then
    grep -E 'ERROR|property failed|SUMMARY|Test unit written' "$log" | head -n 8 | sed 's/^/    /'
    status=1
  fi
done
exit $status
