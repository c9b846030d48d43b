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
if [ "$backend" = gpu ]; then
  "$BIN" sweep --like "$BASE" --backend gpu --json >"$OUT/fresh.json" || exit 2
  exec "$BIN" compare "$BASE" "$OUT/fresh.json"
fi
# The model holds only verified fingerprints: replay the sweeps whose
# instruction it has (and the host f32 baseline); the rest are listed as not compared.
have=$("$BIN" list --backend "$backend" --json | grep '"supported":true' | grep -o '"instr":"[^"]*"' | cut -d'"' -f4 | sort)
want=$(grep -o '"instr":"[^"]*"' "$BASE" | cut -d'"' -f4 | sort -u)
keep=$(comm -12 <(echo "$have") <(echo "$want") | paste -sd, -)
if echo "$want" | grep -qx 'host.fma.f32'; then keep="$keep${keep:+,}host.fma.f32"; fi
[ -n "$keep" ] || { echo "regress: $backend runs none of the baseline's instructions" >&2; exit 2; }
"$BIN" sweep --like "$BASE" --backend "$backend" --instr "$keep" --json >"$OUT/fresh.json" || exit 2
exec "$BIN" compare --subset "$BASE" "$OUT/fresh.json"
