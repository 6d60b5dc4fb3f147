#!/usr/bin/env python3
"""Disassembles object files or programs and lists the functions that use instructions beyond the
x86-64 baseline (SSE2): VEX/EVEX-encoded instructions (AVX, AVX2, AVX-512), ymm/zmm/mask registers,
SSSE3/SSE4 instructions, and BMI/POPCNT/LZCNT. Functions in the kernel namespaces (::sse4::,
::avx2::, ::avx512::), which carry per-function target attributes, may use them.

  check_isa.py OBJDUMP clean FILE [NAME_FILTER]   fail if a function outside the kernel namespaces
                                                  (whose name contains NAME_FILTER) uses them
  check_isa.py OBJDUMP dirty FILE                 fail if no function uses them (the check can see)
  check_isa.py OBJDUMP clean PROGRAM NAME_FILTER OBJECT
                                                  as clean, for the functions OBJECT defines or calls
"""
import re
import subprocess
import sys

KERNEL_NAMESPACES = ("::sse4::", "::avx2::", "::avx512::")
# Beyond SSE2 without a VEX prefix: SSSE3, SSE4.1/4.2, POPCNT, LZCNT, BMI1/BMI2.
LEGACY = re.compile(
    r"^(pshufb|palignr|ptest|pabs[bwd]|psign[bwd]|phadd|phsub|pmaddubsw|pmulhrsw|pblend|blendv?p[sd]|"
    r"pmov[sz]x|pmins[bd]|pmaxs[bd]|pminu[wd]|pmaxu[wd]|pmulld|pmuldq|pcmpeqq|pcmpgtq|packusdw|"
    r"pextr[bdq]|pinsr[bdq]|extractps|insertps|round[ps][sd]|dpp[sd]|mpsadbw|phminposuw|pcmp[ei]str|"
    r"crc32|popcnt|lzcnt|tzcnt|andn|bextr|blsi|blsmsk|blsr|bzhi|pdep\b|pext\b|mulx|rorx|sarx|shlx|shrx)")
WIDE = re.compile(r"%[yz]mm\d+|%k[0-7]\b")


def offending(disassembly):
    """Yields (function, instruction) for the first instruction beyond the baseline per function."""
    func, reported = None, False
    for line in disassembly.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            func, reported = m.group(1), False
            continue
        parts = line.split("\t")
        if func is None or reported or len(parts) < 2 or not parts[0].strip().endswith(":"):
            continue
        insn = parts[1].strip()
        mnemonic = insn.split(" ")[0]
        if (mnemonic.startswith("v") and mnemonic not in ("verr", "verw")) or LEGACY.match(mnemonic) or WIDE.search(insn):
            reported = True
            yield func, insn


def symbols(objdump, path):
    """The (demangled) names of the symbols an object file defines or references."""
    out = subprocess.run([objdump, "-t", "-C", path], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        if "\t" not in line:
            continue
        rest = line.split("\t", 1)[1].split(None, 1)
        if len(rest) == 2:
            name = rest[1]
            names.add(name[len(".hidden "):] if name.startswith(".hidden ") else name)
    return names


def main():
    objdump, mode, path = sys.argv[1:4]
    name_filter = sys.argv[4] if len(sys.argv) > 4 else ""
    out = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", path], check=True, capture_output=True,
                         text=True).stdout
    found = [(f, i) for f, i in offending(out) if name_filter in f]
    if len(sys.argv) > 5:
        used = symbols(objdump, sys.argv[5])
        # Compiler clones ("[clone .isra.0]", ".constprop", ".part") are local to their object: the
        # linker never picks one object's clone for the other, and the baseline object's own clones
        # are covered by the object check. Both objects may have a clone of the same name.
        found = [(f, i) for f, i in found if f in used and "[clone ." not in f]
    outside = [(f, i) for f, i in found if not any(ns in f for ns in KERNEL_NAMESPACES)]
    if mode == "dirty":
        print(f"{path}: {len(found)} functions use instructions beyond SSE2 (expected: some)")
        return 0 if found else 1
    inside = len(found) - len(outside)
    print(f"{path}: {inside} kernel functions use wider instructions; {len(outside)} other functions do")
    for f, i in outside[:20]:
        print(f"  {f}: {i}")
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
