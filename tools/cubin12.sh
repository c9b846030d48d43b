#!/bin/sh
# tools/cubin12.sh PTXAS12 SRC.cu OUT.cubin [NVCC FLAGS...]     ($NVCC, else nvcc)
# One kernel file as sm_70 SASS, an architecture CUDA 13 no longer builds
# (make PTXAS12=..., doc/gpus.md). PyPI's CUDA 12.x wheels
# (nvidia-cuda-nvcc-cu12) hold ptxas but no nvcc or cicc, and CUDA 13's
# front end refuses compute_70: so this toolkit's front end writes the PTX
# for compute_75 (the oldest it knows) with __CUDA_ARCH__ 700, so that the
# source takes its sm_70 paths, the .target line becomes sm_70, and the 12.x
# ptxas assembles it for sm_70 (tools/ptxas-other.sh lowers .version to the
# one it reads). ptxas checks every instruction against .target: one sm_70
# lacks is refused, never assembled as something else.
set -eu
[ $# -ge 3 ] || { echo "usage: tools/cubin12.sh PTXAS12 SRC.cu OUT.cubin [NVCC FLAGS...]" >&2; exit 2; }
ptxas=$1 src=$2 out=$3
shift 3
here=$(dirname "$(readlink -f "$0")")
"$ptxas" --version | grep -q 'V12\.' || { echo "cubin12: $ptxas is not a CUDA 12.x ptxas" >&2; exit 2; }
ptx=$out.75.ptx
"${NVCC:-nvcc}" "$@" -arch=compute_75 -ptx -U__CUDA_ARCH__ -D__CUDA_ARCH__=700 -U__CUDA_ARCH_LIST__ -D__CUDA_ARCH_LIST__=700 \
  "$src" -o "$ptx"
sed 's/^\.target sm_75$/.target sm_70/' "$ptx" > "$out.ptx"
grep -q '^\.target sm_70$' "$out.ptx" || { echo "cubin12: $ptx has no .target sm_75 line" >&2; exit 1; }
rm -f "$ptx"
TC_PTXAS=$ptxas "$here/ptxas-other.sh" -O3 -arch=sm_70 -m64 "$out.ptx" -o "$out"
