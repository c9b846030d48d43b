#!/usr/bin/env bash
# On the GPU machine (run tool): build, prove every layout, record the corpus
# with SASS facts, bench the executor. Results under $OUT. Usage:
#   tools/device-gpu.sh [ELEMS_PER_INSTR]
set -u
N=${1:-10000}
mkdir -p /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
export DEPS_PREFIX=/tmp/deps/usr
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/nvidia-smi.csv" 2>&1
nvcc --version | tail -2 >> "$OUT/nvidia-smi.csv"
if ! make DEPS_PREFIX=$DEPS_PREFIX -j16 build/tcscope build/opt/bench/bench_gpu build/opt/tests/test_backend build/opt/tests/test_layout > "$OUT/build.log" 2>&1; then
  echo "full build failed; linking tcscope from the library alone (others' unfinished code)"; tail -5 "$OUT/build.log"
  make DEPS_PREFIX=$DEPS_PREFIX -j16 -k build/opt/libtcscope.a $(ls cli/*.c | sed 's|^|build/opt/|; s|\.c$|.o|') >> "$OUT/build.log" 2>&1
  rm -f build/opt/libtcscope.a; ar rcs build/opt/libtcscope.a $(find build/opt/formats build/opt/oracle build/opt/probes build/opt/cases build/opt/reports -name '*.o')
  objs=$(ls build/opt/cli/*.o)
  cc -O2 -o build/tcscope $objs build/opt/libtcscope.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lstdc++ \
     -L$DEPS_PREFIX/lib/x86_64-linux-gnu -Wl,-rpath,$DEPS_PREFIX/lib/x86_64-linux-gnu -ljansson -lmpfr -lgmp -lpthread -lm \
     -Wl,--unresolved-symbols=ignore-all >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  cc -std=c11 -D_GNU_SOURCE -O3 -DTC_HAVE_CUDA=1 -I. -I$DEPS_PREFIX/include -o build/opt/bench/bench_gpu tests/bench_gpu.c \
     build/opt/libtcscope.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lstdc++ -L$DEPS_PREFIX/lib/x86_64-linux-gnu \
     -Wl,-rpath,$DEPS_PREFIX/lib/x86_64-linux-gnu -ljansson -lmpfr -lgmp -lpthread -lm -Wl,--unresolved-symbols=ignore-all \
     >> "$OUT/build.log" 2>&1 || true
fi
T=build/tcscope
$T list --backend gpu --all --json > /tmp/h100-list.jsonl 2>&1; echo "list: $(grep -c '"supported":true' /tmp/h100-list.jsonl) supported of $(wc -l < /tmp/h100-list.jsonl)"
echo "== layout proof"
$T run --backend gpu --instr all --check-layout --json > "$OUT/h100-layout.jsonl" 2> /tmp/layout.err
echo "layout rc=$? pass=$(grep -c '"pass"' "$OUT/h100-layout.jsonl") fail=$(grep -c '"fail"' "$OUT/h100-layout.jsonl")"
grep '"fail"' "$OUT/h100-layout.jsonl" | head -5
echo "== corpus ($N elements per instruction)"
t0=$(date +%s)
$T run --backend gpu --instr all --random "$N" --seed 1 2> "$OUT/corpus.err" > /tmp/corpus.jsonl
echo "corpus rc=$? lines=$(wc -l < /tmp/corpus.jsonl) secs=$(( $(date +%s) - t0 ))"
grep '^{"instr":"wgmma' /tmp/corpus.jsonl | gzip -9 > "$OUT/h100-corpus-wgmma.jsonl.gz"
grep -v '^{"instr":"wgmma' /tmp/corpus.jsonl | gzip -9 > "$OUT/h100-corpus-mma.jsonl.gz"
ls -la "$OUT"/*.gz; echo "rs lines with d_same_as: $(grep -c d_same_as /tmp/corpus.jsonl), with inputs_of only: $(grep inputs_of /tmp/corpus.jsonl | grep -vc d_same_as)"
tail -3 "$OUT/corpus.err"
echo "== bench"
[ -x build/opt/bench/bench_gpu ] && build/opt/bench/bench_gpu | tee "$OUT/bench.jsonl"
echo "== GPU tests (chains, layouts)"
CMOCKA_MESSAGE_OUTPUT=TAP build/opt/tests/test_backend 2>&1 | tee "$OUT/test_backend.tap" | grep -v '^ok'
echo "== one element"
$T run --backend gpu --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,2,3 --b 0.5,0.25,0x1p-30 --c 1e-3
