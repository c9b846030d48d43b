#!/usr/bin/env bash
# Line coverage of the parsers by the fuzz corpora: each coverage build
# (build/fuzzcov/fuzz_NAME, clang -fprofile-instr-generate) runs every input
# of tests/fuzz/corpus/NAME and build/fuzz/corpus/NAME once (-runs=0), and
# llvm-cov reports, per harness, the lines of its parser functions (the
# table below: FILE:REGEX of function names, '!' to exclude) and of the
# whole files they live in.
# usage: tools/fuzz-cov.sh build/fuzzcov/fuzz_NAME...
set -eu
COV=${LLVM_COV:-$(command -v llvm-cov || command -v llvm-cov-14)}
PROF=${LLVM_PROFDATA:-$(command -v llvm-profdata || command -v llvm-profdata-14)}
parsers() {
  case $1 in
    value)    echo "oracle/value.c:." ;;
    format)   echo "formats/formats.c:^(tc_format_by_name|formats.c:generic_format|tc_round_parse|tc_overflow_parse)$" ;;
    profile)  echo "oracle/profile.c:!^(profile_load|profile_save|profile_remove|profile_add_note|profile_set)$ oracle/model_fields.c:^model_fields.c:(p_|parse_cvt|ok$) oracle/model_field_text.c:parse" ;;
    casefile) echo "cases/casefile.c:. cases/casefile_bind.c:." ;;
    selector) echo "cases/casefile_bind.c:(term_match|tc_selector_match)$" ;;
    corpus)   echo "probes/backend_corpus.c:^(tc_corpus_parse|tc_chain_parse|tc_corpus_resolve|tc_chain_resolve|tc_chain_key|backend_corpus.c:(hex_field|from_hex|corpus_line_elems|chain_dims_of|copy_str|twin_matches|dup_elems))$" ;;
    record)   echo "reports/record.c:(tc_record_load|read_line|is_trailer) reports/record_check.c:. reports/bench_import.c:. reports/compare.c:. reports/text.c:utf8" ;;
    archive)  echo "reports/file_tree.c:!(tc_tree_from_dir|walk|read_fd|tc_tree_from_archive)$" ;;
  esac
}
mkdir -p build/fuzzcov/prof
printf '%-9s %-26s %16s %16s\n' harness file "parser lines" "file lines"
for bin in "$@"; do
  name=$(basename "$bin"); name=${name#fuzz_}
  raw=build/fuzzcov/prof/$name.profraw; data=build/fuzzcov/prof/$name.profdata
  dirs=tests/fuzz/corpus/$name; [ -d "build/fuzz/corpus/$name" ] && dirs="$dirs build/fuzz/corpus/$name"
  # shellcheck disable=SC2086
  LLVM_PROFILE_FILE=$raw "$bin" -runs=0 -rss_limit_mb=2560 -artifact_prefix="build/fuzzcov/prof/$name-" $dirs >/dev/null 2>&1
  "$PROF" merge -o "$data" "$raw"
  for spec in $(parsers "$name"); do
    file=${spec%%:*}; re=${spec#*:}
    "$COV" report "$bin" -instr-profile="$data" -show-functions "$file" | awk -v re="$re" -v name="$name" -v file="$file" '
      BEGIN { neg = substr(re, 1, 1) == "!"; if (neg) re = substr(re, 2) }
      $1 == "TOTAL" { tl = $5; tm = $6 }
      NF >= 10 && $1 != "Name" && $1 != "TOTAL" && $2 ~ /^[0-9]+$/ {
        m = ($1 ~ re); if (neg) m = !m
        if (m) { l += $5; mi += $6 } }
      END { printf "%-9s %-26s %5d/%-5d %5.1f%% %5d/%-5d %5.1f%%\n", name, file, l - mi, l, l ? 100 * (l - mi) / l : 0,
                   tl - tm, tl, tl ? 100 * (tl - tm) / tl : 0 }'
  done
done
