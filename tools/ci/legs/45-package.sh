# Distribution: the single header is in sync with include/, a program of two translation units links
# (no non-inline definition in a header), and a consumer builds through each route (add_subdirectory,
# FetchContent, find_package after install, pkg-config, the single header alone, the vcpkg port's
# steps, Conan's test_package). Builds neither the test suite nor the header checks (strict-headers).
legs+=(package)
leg_package() {
  local dir="$build_root/package"
  python3 "$root/tools/amalgamate.py" --check || return 1
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_WERROR=ON -DCMAKE_CXX_COMPILER=g++ \
    -DUTF8DFA_BUILD_TESTS=ON -DUTF8DFA_BUILD_PACKAGE_TESTS=ON -DUTF8DFA_BUILD_EXAMPLES=OFF \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$jobs" --target utf8dfa_link_twice utf8dfa_link_twice_separate || return 1
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --no-tests=error -L package
}
