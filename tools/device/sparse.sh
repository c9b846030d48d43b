# On the GPU machine (run tool): build, then for every structured-sparse
# catalogue entry run the sparse layout proof (compressed A fragment +
# metadata under all kept patterns, B, C) and a random batch against the
# exact value of the dense product of the logical tile (error statistics),
# with the SASS each kernel compiled to: the 12 mma.sp and the 72 wgmma.sp
# entries. Records: $OUT/h100-sparse-layout.jsonl (one JSON line per sparse
# entry). One text line per instruction on stdout; if a wgmma.sp 8-bit k64
# entry fails, the other candidate metadata layout (sparse_check
# --wg8-meta-alt, probes/sparse.h) is tried on one entry, for diagnosis. Exit
# status: sparse_check's (0 all supported entries pass). Stays under ~190 s:
# the later steps get what the build left. Usage: tools/device.sh sparse [TILES_PER_INSTR]
TILES=${1:-256}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
t0=$(date +%s)
# (on stdout, not a file: the run keeps to five output files)
device_facts
TARGETS="build/opt/tools/sparse_check build/opt/tests/test_sparse build/tcscope"
if ! timeout 170 make DEPS_PREFIX=$DEPS_PREFIX -j16 $TARGETS > "$OUT/build-sparse.log" 2>&1; then
  echo "full build failed; linking sparse_check from the library objects alone (others' unfinished code?)"
  grep -E "error" "$OUT/build-sparse.log" | head -5
  timeout 120 make DEPS_PREFIX=$DEPS_PREFIX -j16 -k build/opt/libtcscope.a >> "$OUT/build-sparse.log" 2>&1
  rm -f build/opt/libtcscope.a
  ar rcs build/opt/libtcscope.a $(find build/opt/formats build/opt/oracle build/opt/probes build/opt/cases build/opt/reports -name '*.o')
  mkdir -p build/opt/tools
  cc -std=c11 -D_GNU_SOURCE -O3 -DTC_HAVE_CUDA=1 -I. -I$DEPS_PREFIX/include -I$DEPS_PREFIX/include/x86_64-linux-gnu \
     -o build/opt/tools/sparse_check tools/sparse_check.c build/opt/libtcscope.a -L/usr/local/cuda/lib64 \
     -lcudart_static -ldl -lrt -lstdc++ -L$DEPS_PREFIX/lib/x86_64-linux-gnu -Wl,-rpath,$DEPS_PREFIX/lib/x86_64-linux-gnu \
     -ljansson -lmpfr -lgmp -lpthread -lm -Wl,--unresolved-symbols=ignore-all >> "$OUT/build-sparse.log" 2>&1 \
     || { tail -30 "$OUT/build-sparse.log"; echo "BUILD FAILED"; exit 1; }
fi
echo "build done in $(( $(date +%s) - t0 )) s"
if [ -x build/opt/tests/test_sparse ]; then
  echo "== host unit tests of the sparse packing (with the kernel table check)"
  CMOCKA_MESSAGE_OUTPUT=TAP timeout 60 build/opt/tests/test_sparse > "$OUT/test_sparse.tap" 2>&1
  echo "test_sparse rc=$? $(grep -c '^ok' "$OUT/test_sparse.tap") ok, $(grep -c '^not ok' "$OUT/test_sparse.tap") not ok"
  grep '^not ok' -A3 "$OUT/test_sparse.tap" | head -10
fi
left() { echo $(( 190 - ($(date +%s) - t0) )); }
budget=$(( $(left) - 40 )); [ $budget -lt 30 ] && budget=30
echo "== sparse layout proof + $TILES random tiles (m16n8 equivalents) per instruction, GPU vs exact dense product (${budget} s)"
timeout $budget build/opt/tools/sparse_check --backend gpu --tiles "$TILES" --seed 1 \
  --json "$OUT/h100-sparse-layout.jsonl" 2> "$OUT/sparse_check.err"
rc=$?
[ $rc -eq 124 ] && echo "sparse_check TIMED OUT"
tail -5 "$OUT/sparse_check.err"
echo "sparse_check rc=$rc; records: $(wc -l < "$OUT/h100-sparse-layout.jsonl" 2>/dev/null || echo 0)"
for g in k32.f16.f16.f16 k32.f32.f16.f16 k32.f32.bf16.bf16 k16.f32.tf32.tf32 k64.f16. k64.f32.; do
  echo "wgmma.sp group *$g*: pass=$(grep '"instr":"wgmma.sp' "$OUT/h100-sparse-layout.jsonl" | grep -- "$g" | grep -c '"ok":true') fail=$(grep '"instr":"wgmma.sp' "$OUT/h100-sparse-layout.jsonl" | grep -- "$g" | grep -c '"ok":false')"
done
if grep '"instr":"wgmma.sp.m64n[0-9]*k64' "$OUT/h100-sparse-layout.jsonl" 2>/dev/null | grep -q '"layout":"fail"'; then
  echo "== diagnosis: wgmma.sp 8-bit k64 with the other candidate metadata layout"
  for i in wgmma.sp.m64n8k64.f32.e4m3.e4m3 wgmma.sp.m64n64k64.f16.e5m2.e4m3; do
    timeout 20 build/opt/tools/sparse_check --backend gpu --tiles 16 --instr $i --wg8-meta-alt 2>&1 | head -3
  done
fi
if [ -x build/tcscope ] && [ $(left) -gt 15 ]; then
  echo "== dense layout proof (regression check of the shared executor; $(left) s)"
  timeout $(left) build/tcscope run --backend gpu --instr all --check-layout --json > "$OUT/h100-layout-all.jsonl" 2> /tmp/layout.err
  echo "layout-all rc=$? pass=$(grep -c '"pass"' "$OUT/h100-layout-all.jsonl") fail=$(grep -c '"fail"' "$OUT/h100-layout-all.jsonl")"
  grep '"fail"' "$OUT/h100-layout-all.jsonl" | head -5
fi
echo "total $(( $(date +%s) - t0 )) s"
exit $rc
