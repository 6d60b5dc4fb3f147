#!/usr/bin/env bash
# utf8dfa's whole test suite: installs the test dependencies if they are missing (apt-get, as root),
# then runs every CI leg in tools/ci/legs/ (or only the legs named on the command line).
#
#   tools/test.sh            # everything CI runs
#   tools/test.sh core-gcc   # one leg
#   tools/test.sh --list     # the legs
#
# Each leg file adds to `packages` and `legs` and defines `leg_<name>`; legs build in build/ci/<name>.
# A leg function runs in a subshell under `if`, where `set -e` is off: chain its steps with
# `|| return 1` (cmake_leg does).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${UTF8DFA_BUILD_ROOT:-$root/build/ci}
jobs=${UTF8DFA_JOBS:-$(nproc 2>/dev/null || echo 2)}
packages=(cmake ninja-build g++ clang catch2 python3 pkg-config)
legs=()
# Legs that vary the compiler, standard or flags run the suite once, on the kernel the dispatcher
# picks; the consumer tests run in the package leg only.
suite_once=(-DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_TEST_ALL_KERNELS=OFF)

# cmake_leg NAME [cmake args...]: configure, build and ctest one build tree (with the extra ctest
# arguments of the array ctest_args, if the leg sets it).
ctest_args=()
cmake_leg() {
  local name=$1
  shift
  local dir="$build_root/$name"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_WERROR=ON "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$jobs" || return 1
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --no-tests=error "${ctest_args[@]}" || return 1
}

for leg_file in "$root"/tools/ci/legs/*.sh; do
  # shellcheck source=/dev/null
  source "$leg_file"
done

if [[ ${1:-} == --list ]]; then
  printf '%s\n' "${legs[@]}"
  exit 0
fi

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  echo "== installing: ${missing[*]}"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then install_missing; fi

selected=("$@")
((${#selected[@]} == 0)) && selected=("${legs[@]}")
mkdir -p "$build_root"
failed=()
summary=()
for leg in "${selected[@]}"; do
  declare -F "leg_${leg//-/_}" >/dev/null || { echo "unknown leg: $leg" >&2; exit 2; }
  echo "== leg $leg"
  start=$SECONDS
  if (set -e; "leg_${leg//-/_}"); then status=ok; else status=FAILED; failed+=("$leg"); fi
  summary+=("$(printf '%-24s %-6s %4ds' "$leg" "$status" $((SECONDS - start)))")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "failed legs: ${failed[*]}" >&2
  exit 1
fi
