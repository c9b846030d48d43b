#!/usr/bin/env bash
# make data-check (.ci/run): the tracked tree within its budget, and the
# manifest of reports/baselines/ true to the files. The budget (40 MiB,
# DATA_LIMIT bytes to try another) keeps the repository sendable to a GPU
# machine, which takes at most 64 MiB, with room for the next records; over
# it, the largest tracked files are printed and the check fails. Sizes are
# the bytes of each tracked file (what `git ls-files -z | xargs -0 du -cb`
# sums), so it works in a fresh clone.
set -u
cd "$(dirname "$0")/.."
limit=${DATA_LIMIT:-41943040}
sizes=$(git ls-files -z | xargs -0 stat -c '%s %n' -- 2>/dev/null) || true
[ -n "$sizes" ] || { echo "data-check: no tracked files (not a git checkout?)" >&2; exit 2; }
total=$(printf '%s\n' "$sizes" | awk '{s += $1} END {printf "%d", s}')
status=0
if [ "$total" -gt "$limit" ]; then
  echo "data-check: the tracked tree is $total bytes, over the budget of $limit; the largest files:"
  printf '%s\n' "$sizes" | sort -nr | head -n 20 | awk '{printf "  %12d  %s\n", $1, $2}'
  status=1
else
  echo "data-check: the tracked tree is $total bytes, within the budget of $limit"
fi
python3 tools/manifest.py check || status=1
exit "$status"
