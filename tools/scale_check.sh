#!/usr/bin/env bash
# Constant-memory check of utf8tool on a large generated input.
#
#   tools/scale_check.sh --tool build/examples/utf8tool [--size MIB] [--dir DIR] [--max-rss MIB]
#
# Writes a SIZE MiB file (default 1024) of mixed multilingual text with an ill-formed sequence
# every 4099 bytes, streamed to disk in 1 MiB blocks (never held in memory), then runs under
# /usr/bin/time -v:
#   utf8tool validate FILE             (must exit 1 and name the first bad byte)
#   utf8tool sanitize FILE > /dev/null (must exit 0)
#   generator --valid | utf8tool validate -   (the same text without errors: must exit 0, reads it all)
# and prints peak RSS and wall time of each. Fails if any peak RSS exceeds --max-rss (default 64).
set -euo pipefail

size=1024
dir=${TMPDIR:-/tmp}
tool=
max_rss=64
while (($#)); do
  case $1 in
    --size) size=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    --max-rss) max_rss=$2; shift 2 ;;
    *) echo "usage: $0 --tool PATH [--size MIB] [--dir DIR] [--max-rss MIB]" >&2; exit 2 ;;
  esac
done
[[ -n $tool && -x $tool ]] || { echo "scale_check: --tool must name the utf8tool executable" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "scale_check: needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }

work=$(mktemp -d "$dir/utf8dfa-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
file="$work/mixed.txt"

# gen MIB [--valid]: SIZE MiB to stdout, one 1 MiB block at a time.
gen() {
  python3 - "$@" <<'PY'
import sys
mib = int(sys.argv[1])
valid = len(sys.argv) > 2
text = ("The quick brown fox. Grüße, élève, naïve. Привет, мир. Γειά σου. مرحبا. नमस्ते. "
        "你好，世界。こんにちは。한국어. 😀🎉𝄞\n").encode()
bad = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xff", b"\xe2\x82"]
block = bytearray()
k = 0
while len(block) + len(text) + 4 <= (1 << 20):
    block += text
    if not valid and len(block) // 4099 > k:
        k = len(block) // 4099
        block += bad[k % len(bad)]
block += b"." * ((1 << 20) - len(block))  # exactly 1 MiB, ending on a character boundary
out = sys.stdout.buffer
for _ in range(mib):
    out.write(block)  # every block identical: errors recur at the same period
PY
}

echo "== generating $size MiB in $work"
gen "$size" >"$file"
ls -l "$file"

status=0
exec 3>&1  # measure's report, whatever the command's own redirections
# measure NAME EXPECTED_EXIT -- COMMAND...: runs it under /usr/bin/time -v, prints RSS and time.
measure() {
  local name=$1 expected=$2
  shift 3
  local log="$work/run-$RANDOM.time" rc=0
  /usr/bin/time -v -o "$log" "$@" || rc=$?
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  wall=$(awk -F': ' '/Elapsed \(wall clock\) time/ {print $2}' "$log")
  printf '%-28s exit %d  peak RSS %6d KiB (%s MiB)  wall %s\n' "$name" "$rc" "$rss" "$((rss / 1024))" "$wall" >&3
  if ((rc != expected)); then
    echo "  FAILED: exit status $rc, expected $expected" >&3
    status=1
  fi
  if ((rss > max_rss * 1024)); then
    echo "  FAILED: peak RSS above $max_rss MiB" >&3
    status=1
  fi
}

measure "validate (invalid file)" 1 -- "$tool" validate "$file" 2>"$work/validate.err"
head -c 300 "$work/validate.err"; echo
grep -q "invalid UTF-8 at byte " "$work/validate.err" || { echo "  FAILED: no error line"; status=1; }
measure "sanitize > /dev/null" 0 -- "$tool" sanitize "$file" >/dev/null
rm -f "$file"
# The valid variant through a pipe (no second file on disk): the tool reads all of it.
measure "validate (valid, stdin)" 0 -- "$tool" validate - < <(gen "$size" --valid)
((status == 0)) && echo "scale_check: ok (limit $max_rss MiB)" || echo "scale_check: FAILED"
exit $status
