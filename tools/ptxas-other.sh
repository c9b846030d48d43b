#!/bin/sh
# Stands in for ptxas when `make PTXAS=/path/to/ptxas` builds the kernels with
# another toolkit's assembler (issue #16: the compiler as a variable). nvcc runs
# with --dont-use-profile and this script first on PATH, so its front end (cicc)
# writes the PTX and TC_PTXAS lowers it to SASS.
#
# A front end newer than the assembler writes a PTX .version the assembler
# refuses ("Unsupported .version 9.0; current version is '8.8'"). Then, and
# only then, the .version line is set to the one the assembler names and the
# file assembled again: the instructions are the same text, and an instruction
# that the older ISA lacks is still refused. Each lowering is logged to
# $TC_PTXAS_LOG, so the build can say it happened.
set -u
real=${TC_PTXAS:?TC_PTXAS names the ptxas to run}
err=$(mktemp) || exit 1
trap 'rm -f "$err" "${low:-}"' EXIT
"$real" "$@" 2>"$err" && { cat "$err" >&2; exit 0; }
# TC_PTXAS_DROP=1 (issue #30: an audit built with a ptxas that refuses some of a
# file's kernels): the kernels it refuses are left out of the object
# (tools/toolkit-matrix.py drop, which lowers .version too), each logged.
if [ -n "${TC_PTXAS_DROP:-}" ]; then
  n=0; for a in "$@"; do case $a in *.ptx) src=$a; n=$((n+1));; esac; done
  [ "$n" = 1 ] || { cat "$err" >&2; echo "ptxas-other: expected one .ptx argument" >&2; exit 1; }
  low=$(mktemp --suffix=.ptx) || exit 1
  python3 "$(dirname "$(readlink -f "$0")")/toolkit-matrix.py" drop --ptxas "$real" "$src" "$low" > "$err.drop" \
    || { cat "$err" >&2; rm -f "$err.drop"; exit 1; }
  [ -n "${TC_PTXAS_LOG:-}" ] && sed "s|^|$(basename "$src"): |" "$err.drop" >> "$TC_PTXAS_LOG"
  rm -f "$err.drop"
  for a in "$@"; do
    shift; if [ "$a" = "$src" ]; then set -- "$@" "$low"; else set -- "$@" "$a"; fi
  done
  "$real" "$@"; exit
fi
want=$(sed -n "s/.*Unsupported \.version \([0-9.]*\); current version is '\([0-9.]*\)'.*/\1 \2/p" "$err" | head -1)
if [ -z "$want" ]; then cat "$err" >&2; exit 1; fi
from=${want% *}; to=${want#* }
low=$(mktemp --suffix=.ptx) || exit 1
n=0; for a in "$@"; do case $a in *.ptx) src=$a; n=$((n+1));; esac; done
[ "$n" = 1 ] || { cat "$err" >&2; echo "ptxas-other: expected one .ptx argument" >&2; exit 1; }
sed "s/^\.version $from\$/.version $to/" "$src" > "$low" || exit 1
for a in "$@"; do
  shift; if [ "$a" = "$src" ]; then set -- "$@" "$low"; else set -- "$@" "$a"; fi
done
[ -n "${TC_PTXAS_LOG:-}" ] && echo "$(basename "$src"): .version $from lowered to $to" >> "$TC_PTXAS_LOG"
"$real" "$@"
