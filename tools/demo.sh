#!/usr/bin/env bash
# utf8dfa demo: builds utf8tool (Release, into build/demo) and runs it on a sample it writes:
# well-formed multilingual text, then a copy with a planted overlong '/'. Needs only cmake and a
# C++17 compiler (no test dependencies).
#
#   tools/demo.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/build/demo"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

echo "== building utf8tool in build/demo"
mkdir -p "$dir"
cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_BUILD_TESTS=OFF \
  -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_INSTALL=OFF >"$dir.configure.log" 2>&1 ||
  { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target utf8tool -j 2 >"$dir.build.log" 2>&1 || { cat "$dir.build.log"; exit 1; }
tool="$dir/examples/utf8tool"
cd "$dir"

# The sample: one line per script, 1- to 4-byte characters.
cat >sample.txt <<'EOF'
English: The quick brown fox jumps over the lazy dog.
Français: « Où est la bibliothèque ? » dit-elle, très émue.
Ελληνικά: Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.
Русский: Съешь же ещё этих мягких французских булок.
العربية: صِف خَلقَ خَودِ كَمِثلِ الشَمسِ إِذ بَزَغَت
हिन्दी: ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान श्रीराम।
日本語: いろはにほへと ちりぬるを わかよたれそ つねならむ
한국어: 다람쥐 헌 쳇바퀴에 타고파
Emoji: 🦊🐕 ✓ 𝄞 — U+1F98A U+1F415 U+2713 U+1D11E
path: /usr/share/doc
EOF

run() {
  echo "\$ utf8tool $*"
  local status=0
  "$tool" "$@" 2>&1 || status=$?
  if ((status == 0)); then echo "  (exit status 0: OK)"; else echo "  (exit status $status)"; fi
}

echo
echo "== 1. the sample is well-formed UTF-8"
run validate sample.txt
run count sample.txt

echo
echo "== 2. a copy with the '/' of line 10 written as E0 80 AF, an overlong (3-byte) form of U+002F"
# Replace the first '/' of the last line; the bytes before it stay as they are.
{
  head -n 9 sample.txt
  printf 'path: \xE0\x80\xAFusr/share/doc\n'
} >planted.txt
run validate sample.txt planted.txt
echo "\$ utf8tool sanitize planted.txt | tail -n 1     # one U+FFFD per maximal ill-formed subpart"
"$tool" sanitize planted.txt | tail -n 1
run count planted.txt
echo "\$ utf8tool convert --to utf16le planted.txt > planted.utf16le     # strict: stops at the error"
status=0
{ "$tool" convert --to utf16le planted.txt >planted.utf16le; } 2>&1 || status=$?
echo "  (exit status $status; $(wc -c <planted.utf16le) bytes written: everything before the error)"

echo
echo "== 3. round trips through UTF-16 and UTF-32"
for enc in utf16le utf16be utf32le utf32be; do
  "$tool" convert --to "$enc" sample.txt >"sample.$enc"
  "$tool" convert --from "$enc" --to utf8 "sample.$enc" >"back.$enc.txt"
  if cmp -s sample.txt "back.$enc.txt"; then verdict="identical"; else verdict="DIFFERENT"; fi
  printf '  utf8 %5d bytes -> %-8s %5d bytes -> utf8: %s\n' "$(wc -c <sample.txt)" "$enc" \
    "$(wc -c <"sample.$enc")" "$verdict"
  [[ $verdict == identical ]]
done

echo
echo "== done: utf8tool is $tool; 'utf8tool --help' describes every command"
