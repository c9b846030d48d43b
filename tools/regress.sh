#!/usr/bin/env bash
# make regress: a fresh sweep with the committed baseline's settings (formats,
# chain, trials, seed, distribution, rounding, scaling), compared with it by
# `tcscope compare`. On a machine with a GPU the fresh run is on the GPU; else
# on the model backend (model:h100), which then replays the recorded GPU run:
# both say so. Exit 0 same, 1 changed (each difference listed), 2 unusable.
set -u
BASE=${1:-reports/baselines/h100-sweep.json}
BIN=${TCSCOPE:-build/tcscope}
OUT=${REGRESS_OUT:-out/regress}
if [ ! -r "$BASE" ]; then
  echo "regress: no baseline $BASE (commit a GPU sweep record there first)" >&2; exit 2
fi
mkdir -p "$OUT"
backend=gpu
if ! "$BIN" list --backend gpu >/dev/null 2>&1; then
  backend=model:h100
  echo "regress: no GPU here: the fresh run uses $backend (a replay of the recorded hardware through the model)" >&2
fi
"$BIN" sweep --like "$BASE" --backend "$backend" --json >"$OUT/fresh.json" || exit 2
"$BIN" compare "$BASE" "$OUT/fresh.json"
