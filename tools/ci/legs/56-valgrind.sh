# valgrind memcheck on utf8tool (DESIGN.md section 5) over a mixed valid/invalid corpus generated
# on the fly, for every subcommand and option. Memcheck runs with --error-exitcode=1; since
# utf8tool itself exits 1 on ill-formed input, each run's log must also say "ERROR SUMMARY: 0
# errors" and the exit status must be the tool's expected one (0 or 1, never a crash or a 2).
legs+=(valgrind)
packages+=(valgrind)

# Writes the corpus into $1: name prefixes say what validate must answer (ok-* valid, bad-*).
utf8dfa_valgrind_corpus() {
  python3 - "$1" <<'PY'
import os, random, struct, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rnd = random.Random(20031109)
text = ("plain ASCII line\nGrüße, élève\nПривет, мир\nΓειά σου\nمرحبا\nनमस्ते\n你好，世界\n"
        "emoji 😀🎉 and 𝄞\n\ufeffa BOM in the middle\n")
bad = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\x80",
       b"\xff", b"\xe2\x82", b"\xf0\x9f\x98"]
def w(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
w("ok-empty.txt", b"")
w("ok-text.txt", text.encode())
w("ok-bom.txt", "\ufeff".encode() + text.encode())
# Larger than any plausible read chunk, with multi-byte characters across every offset.
w("ok-large.txt", (text * 10000).encode())
w("bad-overlong.txt", b"a/\xc0\xae\xc0\xae/b\n" + text.encode())
w("bad-truncated-end.txt", text.encode() + "é".encode()[:1])
w("bad-surrogate.txt", b"x\xed\xa0\x80y\n")
mixed = bytearray()
for i in range(20000):
    mixed += text.encode()[i % 50 : i % 50 + 17]
    if i % 7 == 0:
        mixed += rnd.choice(bad)
w("bad-mixed-large.txt", bytes(mixed))
w("bad-random.bin", bytes(rnd.getrandbits(8) for _ in range(200000)))
w("bad-late-error.txt", (text * 5000).encode() + b"\xc1\xbf")
# UTF-16 and UTF-32 input for convert --from: well-formed, unpaired surrogates, odd lengths.
w("u16le-ok.bin", text.encode("utf-16-le"))
w("u16be-ok.bin", text.encode("utf-16-be"))
w("u32le-ok.bin", text.encode("utf-32-le"))
w("u32be-ok.bin", text.encode("utf-32-be"))
u16 = text.encode("utf-16-le") + struct.pack("<HHH", 0xD800, 0x41, 0xDC00) + struct.pack("<H", 0xD83D) + b"\x41"
w("u16le-bad.bin", u16)
w("u16be-bad.bin", struct.pack(">HHH", 0x41, 0xDFFF, 0xD800) + b"\x00")
w("u32le-bad.bin", struct.pack("<IIII", 0x41, 0xD800, 0x110000, 0xFFFFFFFF) + b"\x41\x00")
w("u32be-bad.bin", text.encode("utf-32-be") + struct.pack(">I", 0x7FFFFFFF) + b"\x00\x00\x00")
PY
}

leg_valgrind() {
  local dir="$build_root/utf8tool"  # shared with the scale leg (one build of utf8tool)
  if [[ ! -f $root/examples/utf8tool.cpp ]]; then
    echo "SKIPPED: examples/utf8tool.cpp is not in this tree yet"
    return 0
  fi
  build_utf8tool "$dir" || return 1
  local tool="$dir/examples/utf8tool"
  [[ -x $tool ]] || tool=$(find "$dir" -name utf8tool -type f -perm -u+x | head -n 1)
  [[ -x $tool ]] || { echo "utf8tool was not built"; return 1; }
  local corpus="$dir/corpus" logs="$dir/logs"
  rm -rf "$corpus" "$logs"
  mkdir -p "$logs"
  utf8dfa_valgrind_corpus "$corpus" || return 1

  local failed=0 runs=0
  # vg EXPECTED_STATUSES STDIN_FILE ARGS...: one memcheck run; EXPECTED like "0" or "0 1".
  vg() {
    local expected=$1 input=$2
    shift 2
    local log="$logs/run-$runs.log" status=0
    runs=$((runs + 1))
    # Without --track-origins (which finds nothing more, only says where an uninitialised value came
    # from, at about twice the time): add it to look into a failure.
    valgrind --tool=memcheck --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
      --log-file="$log" "$tool" "$@" <"$input" >"$logs/run-$((runs - 1)).out" 2>/dev/null ||
      status=$?
    if ! grep -q "ERROR SUMMARY: 0 errors" "$log" || [[ " $expected " != *" $status "* ]]; then
      echo "FAILED (exit $status, expected one of: $expected): utf8tool $* < $(basename "$input")"
      grep -E "Invalid|uninitialised|definitely lost|ERROR SUMMARY" "$log" | head -n 20
      failed=1
    fi
  }
  local f name
  for f in "$corpus"/ok-* "$corpus"/bad-*; do
    name=$(basename "$f")
    local want=0
    [[ $name == bad-* ]] && want=1
    vg "$want" /dev/null validate "$f"
    vg 0 /dev/null sanitize "$f"
    vg "$want" /dev/null count "$f"
  done
  vg 1 "$corpus/bad-mixed-large.txt" validate # stdin
  vg 0 "$corpus/bad-mixed-large.txt" sanitize
  local to
  for to in utf16le utf16be utf32le utf32be; do
    vg 0 /dev/null convert --to "$to" "$corpus/ok-large.txt"
    vg 1 /dev/null convert --to "$to" "$corpus/bad-overlong.txt"
    vg 0 "$corpus/bad-mixed-large.txt" convert --to "$to" --replace
  done
  vg 1 /dev/null validate "$corpus"/ok-text.txt "$corpus"/bad-surrogate.txt - # several files and stdin
  local from
  for f in "$corpus"/u*.bin; do
    name=$(basename "$f")
    from=${name%%-*}
    from=${from/u16/utf16}
    from=${from/u32/utf32}
    local want=0
    [[ $name == *-bad.bin ]] && want=1
    vg "$want" /dev/null convert --from "$from" --to utf8 "$f"
    vg 0 "$f" convert --from "$from" --to utf8 --replace
  done
  # Usage errors exit 2 and must be clean too.
  vg 2 /dev/null
  vg 2 /dev/null convert --to klingon
  # sanitize's output equals Python's UTF-8 decoder with errors="replace" (an independent
  # implementation of the same maximal-subpart rule), for every file; the security cases of
  # tests/security_test.cpp in a path never come out as anything but U+FFFD.
  local check='import sys
data = open(sys.argv[1], "rb").read()
sys.exit(0 if sys.stdin.buffer.read() == data.decode("utf-8", "replace").encode() else 1)'
  for f in "$corpus"/ok-* "$corpus"/bad-*; do
    "$tool" sanitize "$f" | python3 -c "$check" "$f" || { echo "sanitize differs from the reference: $f"; failed=1; }
  done
  printf 'a/\xc0\xae\xc0\xae/\xe0\x80\xaf\xf0\x80\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80\xf8\x88\x80\x80\x80\xfc\x84\x80\x80\x80\x80../b' \
    >"$corpus/security.txt"
  if "$tool" validate "$corpus/security.txt" 2>"$logs/security.err"; then
    echo "validate accepted the security cases"
    failed=1
  fi
  grep -q "at byte 2: invalid_byte" "$logs/security.err" || { echo "validate: wrong report: $(cat "$logs/security.err")"; failed=1; }
  "$tool" sanitize "$corpus/security.txt" | python3 -c 'import sys
out = sys.stdin.buffer.read().decode("utf-8")
sys.exit(0 if set(out) <= set("a/.b\ufffd") and out.startswith("a/\ufffd") and out.endswith("../b") else 1)' ||
    { echo "sanitize let a hostile sequence through"; failed=1; }
  echo "valgrind: $runs memcheck runs, $( ((failed)) && echo FAILED || echo all clean)"
  return $failed
}
