# Benchmark smoke test: builds bench/utf8dfa_bench with every peer, runs every benchmark briefly on the
# in-cache corpora (generated, plus UTF8DFA_CORPUS_DIR or ../shared/corpora when present) with every
# kernel the CPU runs (--all-kernels), and on one repeated corpus, so that every library's and every
# kernel's output is checked against the utf8dfa scalar path (the binary exits 1 on a mismatch); proves
# that the checks can fail; then turns the JSON into the report. Timings here mean nothing. With
# simdutf's amalgamation beside the repository (../shared/peers/simdutf, or UTF8DFA_SIMDUTF_DIR), its
# rows are checked too, on every kernel pair and on short prefixes (simdutf.cpp compiled at -O1 here).
# shellcheck disable=SC2154  # root, build_root and jobs come from tools/test.sh, which sources this file
packages+=(libbenchmark-dev libutfcpp-dev libsimdjson-dev libicu-dev)
legs+=(bench-smoke)
leg_bench_smoke() {
  local dir="$build_root/bench-smoke"
  # clang++ at -O2: the one leg that runs clang's optimised kernels (core-clang builds at -O1), on
  # real text, every output checked.
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_WERROR=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DUTF8DFA_BUILD_TESTS=OFF \
    -DUTF8DFA_BUILD_EXAMPLES=OFF -DUTF8DFA_BUILD_BENCHMARKS=ON -DUTF8DFA_SIMDUTF_OPTIMIZE=-O1 \
    ${UTF8DFA_SIMDUTF_DIR:+-DUTF8DFA_SIMDUTF_DIR="$UTF8DFA_SIMDUTF_DIR"} >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  grep 'utf8dfa: benchmark peers' "$dir.configure.log" || true
  cmake --build "$dir" -j "$jobs" --target utf8dfa_bench
  local bench="$dir/bench/utf8dfa_bench" corpora=${UTF8DFA_CORPUS_DIR:-$root/../shared/corpora}
  local args=()
  [[ -d $corpora ]] && args+=(--corpus-dir="$corpora")
  "$bench" "${args[@]}" --all-kernels --sizes=small --benchmark_filter='-/simdutf_' --benchmark_min_time=0.002 \
    --benchmark_out="$dir/smoke.json" --benchmark_out_format=json >"$dir/smoke.log"
  "$bench" --sizes=large --large-mib=2 --benchmark_filter='/gen\.mixed' --benchmark_min_time=0.01 \
    --benchmark_out="$dir/smoke-large.json" --benchmark_out_format=json >"$dir/smoke-large.log"
  # simdutf's rows (when found), every operation, paired with the AVX-512, AVX2 and scalar kernels, on
  # the generated corpora at their natural size and as short prefixes (16 B to 1 KiB).
  local simdutf=0
  if grep -q 'benchmark peers found:.*simdutf' "$dir.configure.log"; then
    simdutf=1
    "$bench" --all-kernels --sizes=small,tiny --benchmark_filter='/simdutf_(icelake|haswell|fallback)/gen\.' \
      --benchmark_min_time=0.0005 \
      --benchmark_out="$dir/smoke-tiny.json" --benchmark_out_format=json >"$dir/smoke-tiny.log"
    grep -q '"utf8dfa_vs_simdutf"' "$dir/smoke-tiny.json" || { echo "smoke: no simdutf pairing"; return 1; }
  fi
  # The checks must be able to fail: with every output damaged, every benchmark must be a mismatch.
  local status=0 summary
  "$bench" --selftest-corrupt --sizes=small --benchmark_filter='/gen\.cjk$' --benchmark_min_time=0.001 \
    >/dev/null 2>"$dir/selftest.err" || status=$?
  summary=$(grep 'outputs checked' "$dir/selftest.err" || true)
  echo "self-test (every output damaged): exit status $status; $summary"
  ((status == 1)) || { echo "self-test: expected exit status 1"; return 1; }
  [[ $summary =~ ([0-9]+)\ outputs\ checked.*\ ([0-9]+)\ mismatches && ${BASH_REMATCH[1]} -gt 20 &&
    ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] || { echo "self-test: not every damaged output was caught"; return 1; }
  # Debian's python3 has python3-matplotlib when it is installed; report.py writes SVG without it.
  local py=python3
  [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
  local jsons=("$dir/smoke.json" "$dir/smoke-large.json")
  ((simdutf)) && jsons+=("$dir/smoke-tiny.json")
  "$py" "$root/bench/report.py" "${jsons[@]}" --out-dir "$dir/report"
  # Every operation has its table; the summary over the real corpora exists only when they were read.
  grep -q '^## validate ' "$dir/report/results.md" || { echo "report: no validate table"; return 1; }
  # The length helpers and allocating conversions are timed in alternation with their conversions.
  grep -q '"vs_conversion"' "$dir/smoke.json" || { echo "smoke: no paired ratio"; return 1; }
  if ((${#args[@]})); then
    grep -q '^| validate |' "$dir/report/results.md" || { echo "report: no summary over the real corpora"; return 1; }
  fi
}
