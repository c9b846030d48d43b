#!/usr/bin/env bash
# The GPU machine's one entry point, run from the repository root with $OUT set
# (the folder whose files come back: at most 8, 16 MiB each):
#   tools/device.sh TASK [ARGS]
# sources the shared steps (tools/device-env.sh: the carried .debs/ unpacked,
# device_build, device_facts) and runs tools/device/TASK.sh ARGS in this shell.
# A task file holds only its own steps; one that begins with
# `. tools/device-env.sh` also runs alone (bash tools/device/TASK.sh ARGS).
# Without a TASK (or with an unknown one): the tasks, and exit 2.
set -u
cd "$(dirname "$0")/.."
task=${1:-}
if [ -z "$task" ] || [ ! -f "tools/device/$task.sh" ]; then
  [ -n "$task" ] && echo "tools/device.sh: no task '$task' (tools/device/$task.sh)" >&2
  echo "usage: tools/device.sh TASK [ARGS]; tasks: $(cd tools/device && ls *.sh | sed 's/\.sh$//' | tr '\n' ' ')" >&2
  exit 2
fi
shift
[ -n "${OUT:-}" ] || { echo "tools/device.sh: OUT (the folder whose files come back) is not set" >&2; exit 2; }
mkdir -p "$OUT"
. tools/device-env.sh
. "tools/device/$task.sh" "$@"
