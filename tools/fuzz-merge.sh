#!/usr/bin/env bash
# Rebuilds each committed seed corpus tests/fuzz/corpus/NAME/ as the
# smallest set (libFuzzer -merge=1) that keeps the coverage of the old one,
# the project seeds (build/fuzz/seeds/NAME, from tools/fuzz-seeds.sh) and
# what fuzzing found (build/fuzz/corpus/NAME). Files are named by content hash.
# usage: tools/fuzz-merge.sh build/fuzz/fuzz_NAME...
set -eu
for bin in "$@"; do
  name=$(basename "$bin"); name=${name#fuzz_}
  dst=tests/fuzz/corpus/$name; new=build/fuzz/merge-$name
  rm -rf "$new"; mkdir -p "$new" "$dst" "build/fuzz/seeds/$name" "build/fuzz/corpus/$name"
  "$bin" -merge=1 -rss_limit_mb=2560 -timeout=30 -artifact_prefix="build/fuzz/crash/$name-" "$new" "$dst" "build/fuzz/seeds/$name" "build/fuzz/corpus/$name" \
    >"build/fuzz/merge-$name.log" 2>&1
  rm -rf "$dst"; mv "$new" "$dst"
  echo "corpus $name: $(ls "$dst" | wc -l) files, $(du -sk "$dst" | cut -f1) KB"
done
