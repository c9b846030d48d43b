#!/usr/bin/env bash
# The SASS of the GPU model's kernel (probes/cuda/model_gpu.cu) as an opcode
# histogram: the evidence that it computes with integer instructions only (no
# tensor-core, no floating-point opcode). tests/test_model_gpu.c reads the
# committed histogram (tests/data/model_gpu_sass.txt) and fails on any
# HMMA/HGMMA/IMMA/DMMA/QGMMA, FFMA/FADD/FMUL, DADD/DMUL/DFMA, HADD2..., MUFU,
# I2F/F2I... opcode; TC_MODEL_GPU_SASS=FILE makes it check another file.
#
# Usage: tools/model-gpu-sass.sh [OBJECT] [OUT] [KERNEL]
#   OBJECT  default build/opt/probes/cuda/model_gpu.cu.o (make with nvcc builds it)
#   OUT     default tests/data/model_gpu_sass.txt
#   KERNEL  default tc_model_gpu_kernel (tc_model_gpu_gemm_kernel: the GEMM walk
#           of probes/cuda/model_gpu_gemm.cu, with its object)
# cuobjdump: $CUOBJDUMP, else on PATH, else $CUDA_HOME/bin (it runs nvdisasm,
# which must be on PATH too; both come as PyPI wheels: nvidia-cuda-cuobjdump,
# nvidia-cuda-nvdisasm). Exit 0 written, 2 no tool or no object.
set -u
OBJ=${1:-build/opt/probes/cuda/model_gpu.cu.o}
DST=${2:-tests/data/model_gpu_sass.txt}
KERNEL=${3:-tc_model_gpu_kernel}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump")}
[ -x "$CUOBJDUMP" ] || { echo "model-gpu-sass: no cuobjdump (set CUOBJDUMP)" >&2; exit 2; }
[ -f "$OBJ" ] || { echo "model-gpu-sass: no $OBJ (build with nvcc first)" >&2; exit 2; }
sass=$(mktemp) || exit 2
trap 'rm -f "$sass"' EXIT
"$CUOBJDUMP" -sass "$OBJ" > "$sass" || { echo "model-gpu-sass: $CUOBJDUMP -sass $OBJ failed" >&2; exit 2; }
# the kernel's function: from its "Function :" line to the next one
awk -v kernel="$KERNEL" '$0 ~ ("Function : .*" kernel) {on = 1; print "# function " $3; next}
     /Function : / {on = 0}
     /^\t+\.target/ && !arch {arch = $2}
     on && match($0, /^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+(@!?U?P[0-9T][ \t]+)?[A-Z][A-Z0-9_.]*/) {
       n = split(substr($0, RSTART, RLENGTH), w, /[ \t]+/); op[w[n]]++; total++ }
     END { print "# target " arch; print "# instructions " total
           for (o in op) print o, op[o] }' "$sass" > "$sass.h" || exit 2
grep -q '^# function' "$sass.h" || { echo "model-gpu-sass: no $KERNEL in $OBJ" >&2; rm -f "$sass.h"; exit 2; }
{
  echo "# SASS opcode histogram of the GPU model's kernel $KERNEL (tools/model-gpu-sass.sh)"
  echo "# from $("$CUOBJDUMP" --version | grep -o 'V[0-9][0-9.]*' | tail -1 | sed 's/^/cuobjdump /'), object built by $(nvcc --version 2>/dev/null | grep -o 'V[0-9][0-9.]*' | tail -1 | sed 's/^/nvcc /')"
  grep '^#' "$sass.h"
  grep -v '^#' "$sass.h" | LC_ALL=C sort
} > "$DST"
rm -f "$sass.h"
echo "model-gpu-sass: $(grep '^# instructions' "$DST" | cut -d' ' -f3) instructions, $(grep -vc '^#' "$DST") opcodes -> $DST"
