#!/usr/bin/env bash
# make report-check: does a tcscope HTML report open in a real browser with
# its plots drawn? Renders a fresh sweep report (exact backend, no GPU
# needed), a choose --report page (model:h100), a gemm --report page of the
# committed H100 gemm records, and every committed reports/baselines/*.html
# in headless Chromium,
# each at a desktop (1280 px) and a phone (390 px) width, screenshots in
# $OUT (build/report-shots):
#  - the page has a non-empty <title> in the DOM Chromium built;
#  - a page with plot figures: one <svg> with drawn <path>s per figure;
#  - an audit page: an anchor per instruction of its contents list, and its
#    evidence inside <details>;
#  - a page with a summary (choose, gemm): its summary table comes before
#    the first plot;
#  - the PNG screenshot is not empty nor blank: enough non-white pixels, and
#    for a page with plots enough saturated (plot-line coloured) ones.
# Installs chromium when missing and run as root (apt-get), else prints the
# apt-get line. Exit 0 all good, 1 a check failed, 2 unusable environment.
set -u
OUT=${REPORT_CHECK_OUT:-build/report-shots}
BIN=${TCSCOPE:-build/tcscope}

need() {   # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "report-check: installing $2" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >&2 && return 0
  fi
  echo "report-check: $1 is missing; install it with: sudo apt-get install -y $2" >&2
  exit 2
}
need chromium chromium
need python3 python3
need gnuplot gnuplot-nox

rm -rf "$OUT"; mkdir -p "$OUT"
if ! "$BIN" sweep --backend exact --chain 1..30 --trials 10 --out "$OUT/fresh" >"$OUT/sweep.txt" 2>&1; then
  echo "report-check: tcscope sweep failed:" >&2; cat "$OUT/sweep.txt" >&2; exit 2
fi

# The choose page (the recorded model: no GPU needed; a small sample keeps
# it quick) and the gemm page of the committed H100 gemm records.
if ! "$BIN" choose --m 1024 --n 1024 --k 4096 --dist normal --max-rel-err 1e-3 --outputs 16 --backend model:h100 \
    --report "$OUT/choose" >"$OUT/choose.txt" 2>&1; then
  echo "report-check: tcscope choose --report failed:" >&2; cat "$OUT/choose.txt" >&2; exit 2
fi
if ! "$BIN" gemm --report "$OUT/gemm" --from reports/baselines/h100-gemm.packed.xz >"$OUT/gemm.txt" 2>&1; then
  echo "report-check: tcscope gemm --report failed:" >&2; cat "$OUT/gemm.txt" >&2; exit 2
fi

pages=("$OUT/fresh/sweep.html" "$OUT/choose/choose.html" "$OUT/gemm/gemm.html")
for f in reports/baselines/*.html; do [ -e "$f" ] && pages+=("$f"); done

# Decodes an 8-bit RGB/RGBA PNG (what Chromium writes) with the standard
# library only and prints: width height nonwhite_fraction saturated_pixels.
png_stats() {
  python3 - "$1" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, typ = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
    if typ == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), 'unsupported PNG layout'
        bpp = 3 if ctype == 2 else 4
    elif typ == b'IDAT':
        idat += body
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, p = bytearray(stride), [], 0
for y in range(h):
    f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride]); p += 1 + stride
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
nonwhite = sat = 0
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if min(r, g, b) < 240: nonwhite += 1
        if max(r, g, b) - min(r, g, b) > 80: sat += 1
print(w, h, '%.4f' % (nonwhite / (w * h)), sat)
EOF
}

fail=0
for page in "${pages[@]}"; do
  name=$(basename "$(dirname "$page")")-$(basename "$page" .html)
  abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
  chrome=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars)
  "${chrome[@]}" --window-size=1280,2600 --dump-dom "file://$abs" >"$OUT/$name.dom.html" 2>"$OUT/$name.log"
  title=$(python3 -c 'import re,sys; m=re.search(r"<title>(.*?)</title>", open(sys.argv[1]).read(), re.S); print(m.group(1).strip() if m else "")' "$OUT/$name.dom.html")
  figures=$(grep -o '<figure class="plot"' "$page" | wc -l)
  svgs=$(grep -o '<svg' "$OUT/$name.dom.html" | wc -l)
  paths=$(grep -o '<path' "$OUT/$name.dom.html" | wc -l)
  toc=$(grep -o '<li><a href="#i-' "$OUT/$name.dom.html" | wc -l)
  anchors=$(grep -o '<h3 id="i-' "$OUT/$name.dom.html" | wc -l)
  details=$(grep -o '<details>' "$OUT/$name.dom.html" | wc -l)
  status=ok
  [ -n "$title" ] || status="no title"
  if [ "$figures" -gt 0 ] && { [ "$svgs" -lt "$figures" ] || [ "$paths" -lt $((figures * 3)) ]; }; then status="plots missing"; fi
  if grep -q '<h2 id="summary"' "$page"; then   # the table people read first
    python3 -c 'import sys; t=open(sys.argv[1]).read(); s=t.find("<table", t.find("id=\"summary\"")); f=t.find("<figure"); sys.exit(0 if 0 <= s and (f < 0 or s < f) else 1)' "$page" || status="summary table not before the plots"
  fi
  if [ "$toc" -gt 0 ] && { [ "$anchors" -ne "$toc" ] || [ "$details" -ne "$toc" ]; }; then
    status="contents $toc, anchors $anchors, details $details differ"
  fi
  for width in 1280 390; do
    png="$OUT/$name-$width.png"
    "${chrome[@]}" --window-size=$width,2600 --screenshot="$png" "file://$abs" >>"$OUT/$name.log" 2>&1
    if [ ! -s "$png" ]; then
      echo "report-check: $page: Chromium wrote no screenshot at $width px (see $OUT/$name.log)"; fail=1; continue
    fi
    read -r w h nonwhite sat < <(png_stats "$png") || { echo "report-check: $png: unreadable PNG"; fail=1; continue; }
    st=$status
    if awk "BEGIN{exit !($nonwhite < 0.02)}"; then st="blank screenshot"; fi
    if [ "$figures" -gt 0 ] && [ "$width" = 1280 ] && [ "$sat" -lt 2000 ]; then st="colourless plots"; fi
    printf 'report-check: %-40s %-4s px %s: title "%.40s", %d plot figures (%d <svg>, %d <path>), %d contents entries (%d anchors, %d <details>), %s %sx%s PNG %d bytes, %.1f%% non-white, %d coloured pixels\n' \
      "$page" "$width" "$st" "$title" "$figures" "$svgs" "$paths" "$toc" "$anchors" "$details" "$png" "$w" "$h" \
      "$(stat -c %s "$png")" "$(awk "BEGIN{print 100*$nonwhite}")" "$sat"
    [ "$st" = ok ] || fail=1
  done
done
[ "$fail" = 0 ] && echo "report-check: OK (screenshots in $OUT)"
exit "$fail"
