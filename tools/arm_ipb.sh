#!/usr/bin/env bash
# Instructions per input byte of the bulk operations on ARM64, counted under qemu-user (an exact count
# of executed aarch64 instructions, not a speed): utf8dfa's NEON kernel, and simdutf's arm64 kernel
# when its amalgamation is given, on every *.txt of a corpus folder; prints a Markdown table per
# operation with the geometric mean and the worst ratio.
#   tools/arm_ipb.sh --plugin SO --corpora DIR [--simdutf DIR] [--ops "OP..."] [--iters N] [--jobs N] [--build DIR]
# SO is a qemu-user TCG plugin that prints "insns: N" (the guest instructions executed) on stderr at
# exit, such as the instruction counter among QEMU's own test plugins (tests/plugin/insn.c, libinsn.so).
# DIR of --simdutf holds simdutf.cpp and simdutf.h; OP as bench/insn_driver.cpp names them (default:
# all of them). Needs aarch64-linux-gnu-g++, qemu-aarch64 built with plugin support (Debian's
# qemu-user is).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin="" simdutf="" corpora="" iters=10 jobs=2 build="$root/build/arm-ipb"
ops="validate count utf8_to_utf16 utf8_to_utf32 utf16_to_utf8 utf32_to_utf8 validate_utf16 validate_utf16_swapped
utf16_to_utf32 utf32_to_utf16 latin1_to_utf8 utf8_to_latin1 to_well_formed_utf16 utf8_to_utf16_assume_valid
utf8_to_utf32_assume_valid utf16_length_from_utf8 utf16_length_from_utf8_assume_valid
utf32_length_from_utf8_assume_valid utf8_length_from_utf16 utf8_length_from_utf16_assume_valid
utf8_length_from_utf32_assume_valid utf8_length_from_latin1 count_utf16 validate_utf32 utf16_to_latin1
utf32_to_latin1 latin1_to_utf16 latin1_to_utf32 utf16_swapped_to_utf8 utf8_to_utf16_swapped change_endianness_utf16"
while [ $# -gt 0 ]; do
  case $1 in
    --plugin) plugin=$2; shift 2 ;;
    --simdutf) simdutf=$2; shift 2 ;;
    --corpora) corpora=$2; shift 2 ;;
    --ops) ops=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$corpora" ] || { echo "--corpora DIR is needed (a folder of UTF-8 *.txt files)" >&2; exit 2; }
mkdir -p "$build"
[ -n "$plugin" ] && [ -f "$plugin" ] || { echo "--plugin SO is needed (an instruction-counting qemu plugin)" >&2; exit 2; }
flags=(-std=c++17 -O3 -DNDEBUG -static -I "$root/include")
libs=(utf8dfa)
if [ -n "$simdutf" ]; then
  [ "$build/simdutf.o" -nt "$simdutf/simdutf.cpp" ] ||
    aarch64-linux-gnu-g++ -std=c++17 -O3 -DNDEBUG -c "$simdutf/simdutf.cpp" -o "$build/simdutf.o"
  flags+=(-DUTF8DFA_INSN_SIMDUTF -I "$simdutf" "$build/simdutf.o")
  libs+=(simdutf)
fi
aarch64-linux-gnu-g++ "$root/bench/insn_driver.cpp" "${flags[@]}" -o "$build/insn_driver"

# One line per (op, corpus, lib): "op corpus lib insns(0) insns(iters) bytes".
count() {  # op file lib
  local a b bytes out
  out=$(qemu-aarch64 -plugin "$plugin" "$build/insn_driver" "$3" "$1" "$2" 0 2>&1)
  a=$(sed -n 's/^insns: //p' <<<"$out")
  out=$(qemu-aarch64 -plugin "$plugin" "$build/insn_driver" "$3" "$1" "$2" "$iters" 2>&1)
  b=$(sed -n 's/^insns: //p' <<<"$out")
  bytes=$(awk 'NR==1 && $4 == "bytes" {print $3}' <<<"$out")
  echo "$1 $(basename "$2" .txt) $3 $a $b $bytes"
}
export -f count
export build iters plugin
mapfile -t files < <(find "$corpora" -name '*.txt' | sort)
# shellcheck disable=SC2016  # expanded by the inner bash
for op in $ops; do for f in "${files[@]}"; do for lib in "${libs[@]}"; do echo "$op $f $lib"; done; done; done |
  xargs -P "$jobs" -L 1 bash -c 'count "$0" "$1" "$2"' >"$build/counts.txt"

python3 - "$build/counts.txt" "$iters" "$ops" <<'PY'
import math, sys
rows, iters, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
ipb = {}
for line in open(rows):
    op, corpus, lib, a, b, n = line.split()
    ipb[(op, corpus, lib)] = (int(b) - int(a)) / (iters * int(n))
corpora = sorted({c for (_, c, _) in ipb})
peer = any(lib == "simdutf" for (_, _, lib) in ipb)
gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
summary = []
for op in ops:
    print(f"\n### {op}\n")
    print("| corpus | utf8dfa | simdutf | ratio |" if peer else "| corpus | utf8dfa |")
    print("|---|---:|---:|---:|" if peer else "|---|---:|")
    ratios, ours = [], []
    for c in corpora:
        u = ipb.get((op, c, "utf8dfa"))
        if u is None: continue
        ours.append(u)
        if peer:
            s = ipb[(op, c, "simdutf")]
            r = u / s if s > 0 else float("inf")
            ratios.append(r)
            print(f"| {c} | {u:.3f} | {s:.3f} | {r:.2f} |")
        else:
            print(f"| {c} | {u:.3f} |")
    if peer and ratios:
        print(f"| geometric mean | {gm(ours):.3f} | | {gm(ratios):.2f} (worst {max(ratios):.2f}) |")
        worst = max(zip(ratios, (c for c in corpora if (op, c, "utf8dfa") in ipb)))
        summary.append((op, gm(ours), gm([ipb[(op, c, "simdutf")] for c in corpora if (op, c, "utf8dfa") in ipb]),
                        gm(ratios), worst))
    elif ours:
        print(f"| geometric mean | {gm(ours):.3f} |")
if summary:
    print("\n### summary (geometric means over the corpora; ratio utf8dfa / simdutf)\n")
    print("| operation | utf8dfa | simdutf | ratio | worst corpus |")
    print("|---|---:|---:|---:|---|")
    for op, u, s, r, (wr, wc) in summary:
        print(f"| {op} | {u:.3f} | {s:.3f} | {r:.2f} | {wr:.2f} ({wc}) |")
PY
