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

# build_utf8tool DIR: utf8tool alone (RelWithDebInfo), for the legs that run the built tool; a lock
# lets two legs that share DIR run at the same time.
build_utf8tool() {
  local dir=$1
  mkdir -p "$dir"
  (
    flock 9
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUTF8DFA_WERROR=ON \
      -DUTF8DFA_BUILD_TESTS=OFF -DUTF8DFA_BUILD_EXAMPLES=ON -DUTF8DFA_BUILD_BENCHMARKS=OFF \
      -DUTF8DFA_INSTALL=OFF >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
    cmake --build "$dir" -j "$jobs" --target utf8tool
  ) 9>"$dir.lock"
}

for leg_file in "$root"/tools/ci/legs/*.sh; do
  # shellcheck source=/dev/null
  source "$leg_file"
done

quick=0
case ${1:-} in
--list)
  printf '%s\n' "${legs[@]}"
  exit 0
  ;;
--quick)
  # Before every commit: the formatting and one compiler's suite under every kernel (core-gcc).
  quick=1
  shift
  set -- format core-gcc "$@"
  ;;
esac

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
for leg in "${selected[@]}"; do
  declare -F "leg_${leg//-/_}" >/dev/null || { echo "unknown leg: $leg" >&2; exit 2; }
done
mkdir -p "$build_root"

# Legs run in UTF8DFA_CI_LANES lanes at once (default: 2 for the whole run, 1 for named legs), each
# leg with `jobs` build jobs: a leg's serial phases (linking, a long last compile, single-threaded
# fuzzing, valgrind, tests that wait on a process) leave a core idle that the other lane fills.
# With more than one lane, each leg's output goes to build_root/LEG.log and is printed when it ends.
lanes=${UTF8DFA_CI_LANES:-$(((${#} == 0 || quick) && ${#selected[@]} > 1 ? 2 : 1))}
((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 501)) || lanes=1  # wait -n -p: bash 5.1

# run_leg LEG: runs one leg in a subshell; prints "status wall cpu" last, on its own line.
run_leg() {
  local leg=$1 start=$SECONDS status=ok
  if ! (set -e; "leg_${leg//-/_}"); then status=FAILED; fi
  # CPU time of the leg's processes (children user + system), from the shell's `times`.
  # (`times` must run in this shell, not in a command substitution's subshell.)
  local cpu
  times >"$build_root/$leg.times"
  cpu=$(awk 'NR == 2 { split($1 " " $2, t, /[ms ]+/); print int(t[1] * 60 + t[2] + t[3] * 60 + t[4]) }' "$build_root/$leg.times")
  echo "@@ $status $((SECONDS - start)) $cpu"
}

failed=()
summary=()
record() {  # record LEG LOG: reads the leg's last line, adds it to the summary
  local leg=$1 log=$2 status wall cpu
  read -r _ status wall cpu < <(grep '^@@ ' "$log" | tail -n 1)
  [[ $status == ok ]] || { status=FAILED; failed+=("$leg"); }
  summary+=("$(printf '%-16s %-6s %5ss %6ss' "$leg" "$status" "${wall:-?}" "${cpu:-?}")")
}
start_all=$SECONDS
if ((lanes <= 1)); then
  for leg in "${selected[@]}"; do
    echo "== leg $leg"
    run_leg "$leg" | tee "$build_root/$leg.log"
    record "$leg" "$build_root/$leg.log"
  done
else
  declare -A running=()
  next=0
  while ((next < ${#selected[@]} || ${#running[@]} > 0)); do
    while ((next < ${#selected[@]} && ${#running[@]} < lanes)); do
      leg=${selected[next]}
      next=$((next + 1))
      echo "== leg $leg started ($((SECONDS - start_all))s)"
      run_leg "$leg" >"$build_root/$leg.log" 2>&1 &
      running[$!]=$leg
    done
    done_pid=
    wait -n -p done_pid || true
    [[ -n $done_pid && -n ${running[$done_pid]:-} ]] || continue
    leg=${running[$done_pid]}
    unset "running[$done_pid]"
    echo "== leg $leg ($((SECONDS - start_all))s)"
    cat "$build_root/$leg.log"
    record "$leg" "$build_root/$leg.log"
  done
fi
echo "== summary (wall and CPU seconds per leg; $lanes lane(s), $jobs build jobs each)"
printf '%-16s %-6s %6s %7s\n' leg status wall cpu
printf '%s\n' "${summary[@]}"
echo "total wall time: $((SECONDS - start_all))s"
if ((${#failed[@]})); then
  echo "failed legs: ${failed[*]}" >&2
  exit 1
fi
