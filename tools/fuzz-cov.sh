#!/usr/bin/env bash
# Line coverage of the parsers by the fuzz corpora: each coverage build
# (build/fuzzcov/fuzz_NAME, clang -fprofile-instr-generate) runs every input
# of tests/fuzz/corpus/NAME and build/fuzz/corpus/NAME once (-runs=0), and
# llvm-cov reports, per harness, the lines of its parser functions (the
# table below: FILE:REGEX of function names, '!' to exclude) and of the
# whole files they live in. FUZZ_COV_FOUND=0: the committed corpora alone.
# usage: tools/fuzz-cov.sh build/fuzzcov/fuzz_NAME...
set -eu
COV=${LLVM_COV:-$(command -v llvm-cov || command -v llvm-cov-14)}
PROF=${LLVM_PROFDATA:-$(command -v llvm-profdata || command -v llvm-profdata-14)}
parsers() {
  case $1 in
    value)    echo "oracle/value.c:." ;;
    format)   echo "formats/formats.c:^(tc_format_by_name|formats.c:generic_format|tc_round_parse|tc_overflow_parse)$" ;;
    profile)  echo "oracle/textfile.c:. oracle/profile.c:!^(profile_load|profile_save|profile_remove|profile_add_note|profile_set)$ oracle/model_fields.c:^model_fields.c:(p_|parse_cvt|ok$) oracle/model_field_text.c:parse" ;;
    casefile) echo "cases/casefile.c:. cases/casefile_bind.c:." ;;
    selector) echo "cases/casefile_bind.c:(term_match|tc_selector_match)$" ;;
    corpus)   echo "probes/backend_corpus.c:^(tc_corpus_parse|tc_chain_parse|tc_corpus_resolve|tc_chain_resolve|tc_chain_key|backend_corpus.c:(hex_field|from_hex|corpus_line_elems|chain_dims_of|copy_str|twin_matches|dup_elems))$" ;;
    archive)  echo "reports/file_tree.c:!(tc_tree_from_dir|walk|read_fd|tc_tree_from_archive)$ reports/tree_words.c:." ;;
    gemm)     echo "reports/record_gemm.c:!^(tc_gemm_record_header|tc_gemm_records_load)$ reports/record_check.c:(check_spans|rep_check_ranges) reports/compare_cases.c:(cmp_gemm|exact_list|at)$" ;;
    hunt)     echo "reports/record_check.c:(check_hunt|check_mismatches) reports/compare_cases.c:cmp_hunt cases/audit.c:(audit_given_cases|append_extra)" ;;
    npy)      echo "cases/npy.c:!^(app_dist_load|npy.c:slurp|npy.c:raw_values)$ reports/probe_files.c:(tc_probe_check_d_header|field)$" ;;
    packed)   echo "reports/record_packed_read.c:. reports/record_packed_bits.c:. reports/record_packed_kinds.c:." ;;
    args)     echo "cli/args.c:. cases/app_dist.c:(app_dist_parse|sweep_kind|two_numbers|app_scaling_parse|app_scaling_name)$" ;;
    dots)     echo "probes/dots.c:." ;;
    sass)     echo "probes/sass.c:." ;;
    record)   echo "reports/record.c:(tc_record_load|tc_record_parse|load_lines|read_line|is_trailer|is_partial|is_kind|rep_trailer_count_ok) reports/record_open.c:. reports/record_check.c:. reports/bench_import.c:. reports/compare.c:. reports/text.c:utf8" ;;
  esac
}
# The lines of file $1's functions that match any of the specs $2.. (REGEX
# or !REGEX), in the coverage of profile $3 and binaries $4..: "covered total".
parser_lines() {
  local file=$1 specs=$2 data=$3; shift 3
  local objs=() b
  for b in "${@:2}"; do objs+=(-object "$b"); done
  "$COV" report "$1" "${objs[@]}" -instr-profile="$data" -show-functions "$file" | awk -v specs="$specs" '
    BEGIN { ns = split(specs, sp, "\t") }
    $1 == "TOTAL" { tl = $5; tm = $6 }
    NF >= 10 && $1 != "Name" && $1 != "TOTAL" && $2 ~ /^[0-9]+$/ {
      m = 0
      for (i = 1; i <= ns; i++) {
        re = sp[i]; neg = substr(re, 1, 1) == "!"; if (neg) re = substr(re, 2)
        if (neg ? $1 !~ re : $1 ~ re) m = 1 }
      if (m) { l += $5; mi += $6 } }
    END { print l - mi, l, tl - tm, tl }'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%5.1f%%", b ? 100 * a / b : 0 }'; }
mkdir -p build/fuzzcov/prof
declare -A specs_of
printf '%-9s %-26s %16s %16s\n' harness file "parser lines" "file lines"
for bin in "$@"; do
  name=$(basename "$bin"); name=${name#fuzz_}
  raw=build/fuzzcov/prof/$name.profraw; data=build/fuzzcov/prof/$name.profdata
  dirs=tests/fuzz/corpus/$name
  [ "${FUZZ_COV_FOUND:-1}" = 1 ] && [ -d "build/fuzz/corpus/$name" ] && dirs="$dirs build/fuzz/corpus/$name"
  # shellcheck disable=SC2086
  LLVM_PROFILE_FILE=$raw "$bin" -runs=0 -rss_limit_mb=2560 -artifact_prefix="build/fuzzcov/prof/$name-" $dirs \
    >"build/fuzzcov/prof/$name.log" 2>&1 || { echo "fuzz-cov: $name fails on its corpus: build/fuzzcov/prof/$name.log" >&2; exit 1; }
  "$PROF" merge -o "$data" "$raw"
  for spec in $(parsers "$name"); do
    file=${spec%%:*}; re=${spec#*:}
    specs_of[$file]=${specs_of[$file]:+${specs_of[$file]}$'\t'}$re
    read -r pc pt fc ft < <(parser_lines "$file" "$re" "$data" "$bin")
    printf '%-9s %-26s %5d/%-5d %s %5d/%-5d %s\n' "$name" "$file" "$pc" "$pt" "$(pct "$pc" "$pt")" "$fc" "$ft" "$(pct "$fc" "$ft")"
  done
done
# Every parser file by all the harnesses together (a line is covered when
# any harness's corpus reaches it): the table of doc/contributing.md.
raws=(); for bin in "$@"; do n=$(basename "$bin"); raws+=("build/fuzzcov/prof/${n#fuzz_}.profraw"); done
"$PROF" merge -o build/fuzzcov/prof/all.profdata "${raws[@]}"
echo
printf '| %-32s | %13s | %7s |\n' "parser file" "lines" covered
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..34})" "$(printf -- '-%.0s' {1..15})" "$(printf -- '-%.0s' {1..9})"
for file in $(printf '%s\n' "${!specs_of[@]}" | sort); do
  read -r pc pt _ _ < <(parser_lines "$file" "${specs_of[$file]}" build/fuzzcov/prof/all.profdata "$@")
  printf '| %-32s | %6d/%-6d | %7s |\n' "\`$file\`" "$pc" "$pt" "$(pct "$pc" "$pt")"
done
