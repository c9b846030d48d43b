#!/usr/bin/env bash
# On the H200 (issue #28 item 4): ask the questions of
# tools/data/thirdparty-questions.txt.gz (inputs on which tcscope's value of a
# field and a third-party model's give different bits; tools/thirdparty_questions.py),
# each alone in a tile, D[0][0] read back, in one model_eval run. Packs the
# answers, the device line and the log into $OUT/thirdparty-settle.tar.xz;
# tools/thirdparty_settle.py record turns them into the settled record.
# Usage (from the repository root, $OUT set): bash tools/device/settle.sh
# (SETTLE_BACKEND=model:h200 runs the same chain without a GPU: a dry run.)
set -u
Q=tools/data/thirdparty-questions.txt.gz
W=/tmp/thirdparty-settle; rm -rf "$W"; mkdir -p "$W"
LOG="$W/settle.log"
. tools/device-env.sh
device_build build/opt/tools/model_eval
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/device.txt" 2>> "$LOG"
echo "CUDA $(nvcc --version 2>> "$LOG" | sed -n 's/.*release \([0-9.]*\).*/\1/p'), backend ${SETTLE_BACKEND:-gpu}" >> "$W/device.txt"
t0=$(date +%s)
timeout "${SETTLE_TIMEOUT:-180}" build/opt/tools/model_eval --backend "${SETTLE_BACKEND:-gpu}" < <(gzip -dc "$Q") > "$W/answers.txt" 2>> "$LOG"
rc=$?
nq=$(gzip -dc "$Q" | grep -vc '^#')
echo "settle rc=$rc: $(wc -l < "$W/answers.txt") answers to $nq questions in $(( $(date +%s) - t0 )) s" | tee -a "$LOG"
cat "$W/device.txt" | tee -a "$LOG"
tar -C /tmp -cJf "$OUT/thirdparty-settle.tar.xz" thirdparty-settle
[ "$rc" = 0 ] && [ "$(wc -l < "$W/answers.txt")" = "$nq" ]
