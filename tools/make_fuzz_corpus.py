#!/usr/bin/env python3
"""Writes the deterministic seed corpus of the fuzz targets into DIR (one file per seed).

    tools/make_fuzz_corpus.py build/fuzz-corpus

Seeds: well-formed multilingual text, every error kind of error_code, the security cases
(overlong '/', '.', NUL, surrogates, values above U+10FFFF, RFC 2279 5- and 6-byte forms),
lengths around the SIMD block sizes with a character or an error straddling the block edge,
UTF-16/UTF-32 code-unit sequences with unpaired surrogates, and for the targets that read
selector bytes first (fuzz_latin1, fuzz_units, fuzz_bounded_views) each selector before a mixed
sample. Same output on every run.
"""
import hashlib
import os
import struct
import sys

TEXT = [
    "plain ASCII, the common case: 0123456789 abcdefghijklmnopqrstuvwxyz",
    "Grüße aus Zürich, élève, naïve façade, Ærøskøbing",
    "Привет, мир! Съешь же ещё этих мягких французских булок",
    "Γειά σου Κόσμε, ελληνικά",
    "مرحبا بالعالم، العربية",
    "नमस्ते दुनिया, हिन्दी",
    "你好，世界。漢字とかなカナ、한국어",
    "emoji 😀🎉👩‍👩‍👧 flags 🇫🇷🇯🇵 and 𝄞 music",
    "\ufeffBOM first, then U+FFFD \ufffd, U+10FFFF \U0010ffff, U+E000 \ue000, U+D7FF \ud7ff",
    "\x00NUL\x7f DEL and C1 \u0080\u009f controls",
]

ERRORS = {
    "invalid_byte": [b"\xc0", b"\xc1", b"\xf5", b"\xf8", b"\xfe", b"\xff"],
    "unexpected_continuation": [b"\x80", b"\xbf", b"a\x80b", b"\xc3\xa9\xa9"],
    "too_short": [b"\xc2A", b"\xe1\x80A", b"\xf1\x80\x80A", b"\xe0\xa0\xc2\xa9"],
    "incomplete": [b"\xc2", b"\xe1\x80", b"\xf1\x80\x80", b"abc\xf0\x9f\x98"],
    "overlong": [b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf"],
    "surrogate": [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa1\x8c\xed\xbe\xb4"],
    "too_large": [b"\xf4\x90\x80\x80", b"\xf4\xbf\xbf\xbf", b"\xf7\xbf\xbf\xbf"],
}

SECURITY = [
    b"\xc0\x80", b"\xc0\xae", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",
    b"\xf0\x80\x80\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa1\x8c\xed\xbe\xb4", b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"/\xc0\xae./", b"/\xc0\xae\xc0\xae/",
]

BOUNDARY_LENGTHS = [7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 127, 128, 129, 255, 256, 257]
STRADDLERS = [b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xe0\x80\xaf", b"\x80", b"\xf4"]

# Samples behind selector bytes: UTF-8 with Latin-1, BMP and supplementary characters and errors
# across a 32-byte edge; UTF-16LE units with a pair, lone surrogates and a high one at the end;
# UTF-32LE units with surrogates and values above 0x10FFFF, and Latin-1 ones.
SELECTED = [
    ("aé€😀" * 3).encode("utf-8") + b"\xe0\x80\xf4\x90\x80\x80\xed\xa0\x80" + b"x" * 20 + b"\xf0\x9f\x98",
    b"".join(struct.pack("<H", u) for u in [0x41, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0xDC00, 0x42, 0xD800] * 3),
    b"".join(struct.pack("<I", u) for u in [0x41, 0xFF, 0x100, 0x1F600, 0xD800, 0x110000, 0xFEFF, 0x7F] * 3),
    b"\xff\xfe\x00\x00" + "Grüße €".encode("utf-32-le"),
]


def seeds():
    for t in TEXT:
        yield t.encode("utf-8")
    yield "".join(TEXT).encode("utf-8")
    for kind, cases in ERRORS.items():
        for c in cases:
            yield c
            yield b"text " + c + b" more"
            yield "é€😀".encode("utf-8") + c
    for c in SECURITY:
        yield b"a/" + c + b"../b"
        yield c
    # Every block-edge phase: a character or error ending at, or straddling, a length boundary.
    for n in BOUNDARY_LENGTHS:
        for s in STRADDLERS:
            for shift in range(len(s) + 1):
                pad = max(n - shift, 0)
                yield b"x" * pad + s + b"y" * max(0, n - pad - len(s))
        yield "é".encode("utf-8") * (n // 2) + b"\xc3"
    # UTF-16LE / UTF-32LE units (for fuzz_utf16_32; the other targets see them as UTF-8 bytes).
    for t in TEXT[1:8]:
        yield t.encode("utf-16-le")
        yield t.encode("utf-32-le")
    units16 = [0x41, 0xD800, 0x42, 0xDC00, 0xD83D, 0xDE00, 0xDBFF, 0xDFFF, 0xDFFF, 0xD800]
    yield b"".join(struct.pack("<H", u) for u in units16)
    yield struct.pack("<H", 0xD83D)  # high surrogate ending the input
    units32 = [0x41, 0xD800, 0x10FFFF, 0x110000, 0xFFFFFFFF, 0x7FFFFFFF, 0xDFFF, 0x1F600, 0]
    yield b"".join(struct.pack("<I", u) for u in units32)
    # The targets that read selector bytes first (fuzz_latin1, fuzz_units: one byte, the form and
    # the replacement; fuzz_bounded_views: the operation, then the policy and the replacement),
    # each selector once before a sample that has every kind of content in each form it is read as.
    for sel in range(32):
        yield bytes([sel]) + SELECTED[sel % len(SELECTED)]
    for op in range(29):
        for policy in range(3):
            yield bytes([op, policy | ((op + policy) % 6) << 2]) + SELECTED[(op + policy) % len(SELECTED)]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_fuzz_corpus.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = set()
    for data in seeds():
        name = hashlib.sha1(data).hexdigest()
        if name in names:
            continue
        names.add(name)
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(names)} seeds in {out}")


if __name__ == "__main__":
    main()
