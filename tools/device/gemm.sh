# On the GPU machine: tcscope gemm over every path (the cuBLASLt ones and
# tcscope's own wgmma kernel, tcscope-wgmma-f16/-e4m3, whose structure is
# known by construction, so its cases say whether the inference recovers
# it): the K sweep at M = N = 256 (K = 16..65536, powers of 4), then the
# squares 1024^3, 4096^3, 8192^3; 10^4 sampled outputs a case by default,
# the structure inference, the tf32 input conversion inferred, the
# predictions. One run, one tcscope-record/1 of kind gemm (reports/SCHEMA.md
# "tcscope gemm records"); each case carries its first 512 sampled outputs
# (positions and bits), which CPU tests replay (tests/test_gemm_replay.c).
# Under $OUT:
#   h100-gemm.packed.xz  the record, packed (reports/SCHEMA.md "Packed records";
#                        tcscope pack F --text prints its lines)
#   gemm-trees.tgz       the inferred structure of each case as SVG
#   gemm.log             build time, progress, a summary table
# Usage: tools/device.sh gemm [SAMPLES] [TIME_LIMIT_S]
# Budget (one 600 s device call): build ~90 s, then at most TIME_LIMIT_S
# (default 400) of cases: gemm --time-limit starts no case its estimate
# says would end later and ends the record normally; the outer timeout, 40 s
# more, is only a backstop (a killed run leaves no trailer and the readers
# refuse it). Expected well inside the limit: the CPU side (exact errors,
# predictions) is spread over the cores since 2026-11-24, ~43 ns a product
# (samples x K) on one core of the 2-core VM where it was measured, so about
# 3 ns on 16 cores: the K sweep ~3 s a path of CPU, 8192^3 a few seconds a
# path mostly in host copies and the inference's library calls (an
# estimate; the 2026-11-24 run at 2500 samples with the older, serial CPU
# side took 4-8 s a path at 4096^3).
SAMPLES=${1:-10000}
LIMIT=${2:-400}
LOG="$OUT/gemm.log"
device_build build/tcscope | tee -a "$LOG"
device_facts >> "$LOG"
t0=$(date +%s)
timeout "$(( LIMIT + 40 ))" build/tcscope gemm --json --infer --samples "$SAMPLES" --warmup 5 --reps 20 --seed 1 \
  --k 16,64,256,1024,4096,16384,65536 --timing-size 1024,4096,8192 --time-limit "$LIMIT" \
  > /tmp/gemm.jsonl 2>> "$LOG"
echo "gemm rc=$? lines=$(wc -l < /tmp/gemm.jsonl) secs=$(( $(date +%s) - t0 ))" | tee -a "$LOG"
build/tcscope pack /tmp/gemm.jsonl --out "$OUT/h100-gemm.packed.xz" 2>&1 | tee -a "$LOG"
python3 - /tmp/gemm.jsonl <<'PY' 2>&1 | tee -a "$LOG"
import json, os, sys
os.makedirs("/tmp/gemm-trees", exist_ok=True)
# algo: cuBLASLt's algorithm id, "own" for tcscope's kernel; built: whether the
# inferred structure is the one the own kernel has by construction
print("%-18s %6s %6s %6s %10s %9s %9s %6s %6s %6s %5s %5s %-10s %s" % ("path", "M", "K", "algo", "TFLOP/s", "ulp/orig",
      "ulp/rnd", "chunk", "promo", "splitK", "ok", "built", "inputs", "predicted"))
# the cases of a gemm record (header, {"kind": "gemm"} objects, trailer) or of
# the older tcscope-gemm lines (one per case); a record without its trailer
# (the backstop killed the run) is summarised with a warning
cases, header, trailer = [], None, None
for n, line in enumerate(open(sys.argv[1])):
    if not line.strip():
        continue
    o = json.loads(line)
    if n == 0 and "schema" in o:
        header = o
    elif header is not None and o.get("kind") in ("end", "partial"):
        trailer = o
    elif o.get("kind") == "gemm" or o.get("record") == "tcscope-gemm":
        cases.append(o)
    else:
        sys.exit("%s:%d: neither a gemm case nor a record's header or trailer" % (sys.argv[1], n + 1))
if header is not None:
    print("record: %d of %d planned cases, %s" % (len(cases), header.get("cases_planned", -1),
          "trailer %s" % trailer["kind"] if trailer else "NO TRAILER (killed: the readers refuse it)"))
for r in cases:
    if "skipped" in r or "error" in r:
        print("%-18s %6d %6d  %s" % (r["path"], r["m"], r["k"], r.get("skipped") or "ERROR " + r.get("error")))
        continue
    s = r.get("structure", {}); i = s.get("inferred", {}); p = s.get("prediction", {})
    t = r.get("timing", {})
    if "tree_svg" in s:
        open("/tmp/gemm-trees/%s-%dx%dx%d.svg" % (r["path"], r["m"], r["n"], r["k"]), "w").write(s["tree_svg"])
    c = s.get("input_conversion", {})
    # tf32: the conversion used, "?" when the outputs did not single it out
    cv = (c.get("used", "") + ("" if c.get("decided", True) else "?")) if c else ""
    print("%-18s %6d %6d %6s %10.1f %9.3g %9.3g %6s %6s %6s %5s %5s %-10s %s" % (
        r["path"], r["m"], r["k"], r["algo"]["algo_id"] if "algo" in r else "own", t.get("tflops", 0),
        r["error_vs_original"]["median_ulps"], r["error_vs_rounded"]["median_ulps"],
        i.get("chunk"), i.get("promote"), i.get("splitk"), s.get("consistent"), s.get("matches_construction", ""), cv,
        "%d/%d" % (p["bit_exact"], p["n"]) if p else s.get("error", "")))
    if c.get("candidates") and len(c["candidates"]) > 1:
        print("%-18s %s" % ("", "  ".join("%s %d/%d" % (x["conversion"], x["bit_exact"], c["outputs_tried"])
                                          for x in c["candidates"])))
PY
tar czf "$OUT/gemm-trees.tgz" -C /tmp gemm-trees
tail -3 "$LOG"
