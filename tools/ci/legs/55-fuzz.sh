# Differential fuzzing: every fuzz/fuzz_*.cpp target built with clang (libFuzzer + ASan + UBSan)
# and run from the seed corpus of tools/make_fuzz_corpus.py for a bounded time each
# (UTF8DFA_FUZZ_SECONDS; by default 60 s shared among the targets, at most 40 s each, so the
# build and the runs fit in 5 minutes). Any crash, sanitizer report or FUZZ_CHECK mismatch fails.
legs+=(fuzz)
packages+=(clang)
leg_fuzz() {
  local dir="$build_root/fuzz"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DUTF8DFA_WERROR=ON \
    -DUTF8DFA_BUILD_FUZZERS=ON -DUTF8DFA_BUILD_TESTS=OFF -DUTF8DFA_BUILD_EXAMPLES=OFF \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_INSTALL=OFF >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$jobs" || return 1
  rm -rf "$dir/seeds" "$dir/artifacts"
  mkdir -p "$dir/artifacts"
  python3 "$root/tools/make_fuzz_corpus.py" "$dir/seeds" || return 1
  local targets=("$dir"/fuzz/fuzz_*) target name log runs status=0
  local seconds=${UTF8DFA_FUZZ_SECONDS:-$((60 / ${#targets[@]} < 40 ? 60 / ${#targets[@]} : 40))}
  for target in "${targets[@]}"; do
    [[ -x $target && -f $target ]] || continue
    name=$(basename "$target")
    rm -rf "$dir/corpus-$name"
    mkdir -p "$dir/corpus-$name"
    log="$dir/$name.log"
    if "$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$dir/artifacts/$name-" "$dir/corpus-$name" "$dir/seeds" >"$log" 2>&1; then
      runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
      echo "$name: ok, ${runs:-?} executions in ${seconds}s"
    else
      echo "$name: FAILED (log follows; reproducer in $dir/artifacts)"
      tail -n 40 "$log"
      status=1
    fi
  done
  return $status
}
