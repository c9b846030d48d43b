#!/usr/bin/env bash
# make report: the committed baselines' reports (Markdown, HTML, the sweep
# plots) regenerated from their raw records by tcscope alone: no GPU, no
# network, gnuplot for the plots. The pages show the records' own run facts
# (date, version), so the same records give the same bytes (checked by
# tests/test_report_baselines.c, which runs this into a temporary folder).
#   tools/report.sh [DIR]   DIR: where the files go (default reports/baselines)
# TCSCOPE names the binary (default build/tcscope). h100-corpus.md is not
# here: it is a written account of a run's log, not a rendering of a record.
set -eu
OUT=${1:-reports/baselines}
BIN=${TCSCOPE:-build/tcscope}
REC=reports/baselines
"$BIN" audit --render "$REC/h100-audit.jsonl.gz" --out "$OUT" --force
"$BIN" sweep --render "$REC/h100-sweep.json" --out "$OUT" --force
"$BIN" sweep --render "$REC/h100-sweep-wgmma.json" --out "$OUT" --force
