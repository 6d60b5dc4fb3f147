#!/usr/bin/env python3
"""Runs the built utf8tool on generated files and on stdin and checks it against the contract.

    run_tests.py TOOL GROUP [--shared DIR] [--stream-file PATH] [--emulator "CMD ARGS"]

--emulator runs the programs under an emulator (a cross build under qemu-user): each run is made
with the default chunk size only (the chunking is the same code on every host, checked natively),
and the memory group, which measures the process itself, is skipped.

Expected results come from Python's own codecs (bytes.decode(..., 'replace') implements the Unicode
maximal-subpart rule) and from a small reference written here straight from the RFC 3629 ABNF, never
from the tool itself. Every run is repeated with UTF8TOOL_CHUNK_SIZE 1, 2, 3 and 4 and must give the
same exit status, stdout and stderr as with the default chunk size (1 cuts the input everywhere; 2, 3
and 4 cut it at every offset modulo the 2- and 4-byte units of UTF-16 and UTF-32 and inside every
UTF-8 sequence; the library's stream tests try every split of their inputs).
"""

import os
import random
import select
import shlex
import subprocess
import sys
import tempfile
import time

TOOL = None  # the command line that runs utf8tool (a list: an emulator may come first)
EMULATOR = []
SHARED = None
STREAM_FILE = None
CHECKS = 0
SKIP = 77  # ctest SKIP_RETURN_CODE

# ---- references -------------------------------------------------------------------------------

# RFC 3629 section 4: the restricted second-byte ranges, and what a continuation byte outside them means.
SECOND = {0xE0: (0xA0, 0xBF, "overlong"), 0xED: (0x80, 0x9F, "surrogate"),
          0xF0: (0x90, 0xBF, "overlong"), 0xF4: (0x80, 0x8F, "too_large")}


def tails(lead):
    if 0xC2 <= lead <= 0xDF:
        return 1
    if 0xE0 <= lead <= 0xEF:
        return 2
    if 0xF0 <= lead <= 0xF4:
        return 3
    return None


def first_error(b):
    """(offset, length, kind) of the first maximal ill-formed subpart of b, or None."""
    i, n = 0, len(b)
    while i < n:
        lead = b[i]
        if lead < 0x80:
            i += 1
            continue
        t = tails(lead)
        if t is None:
            return i, 1, "unexpected_continuation" if lead <= 0xBF else "invalid_byte"
        for k in range(t):
            j = i + 1 + k
            if j == n:
                return i, 0, "incomplete"
            lo, hi, kind = SECOND.get(lead, (0x80, 0xBF, None)) if k == 0 else (0x80, 0xBF, None)
            if not lo <= b[j] <= hi:
                return i, k + 1, kind if 0x80 <= b[j] <= 0xBF else "too_short"
        i += 1 + t
    return None


def checked_first_error(b):
    """first_error(b), cross-checked with Python's decoder (same offset and subpart length)."""
    e = first_error(b)
    try:
        b.decode("utf-8")
        assert e is None, (b, e)
    except UnicodeDecodeError as x:
        assert e is not None and e[0] == x.start, (b, e, x)
        if e[2] != "incomplete":
            assert x.end - x.start == e[1], (b, e, x)
    return e


def position(b, offset):
    """LINE and COLUMN of byte `offset` of b (the bytes before it are well-formed)."""
    head = b[:offset]
    line = head.count(b"\n") + 1
    col = len(head[head.rfind(b"\n") + 1:].decode("utf-8")) + 1
    return line, col


def utf8_message(name, b):
    off, _, kind = checked_first_error(b)
    line, col = position(b, off)
    return f"{name}:{line}:{col}: invalid UTF-8 at byte {off}: {kind}\n".encode()


def decode_wide(b, width, big):
    """UTF-16 (width 2) or UTF-32 (width 4) bytes -> (lossy text, strict prefix text, first error).

    Lossy follows the contract (the WHATWG UTF-16 decoder's end-of-input rule): one U+FFFD per
    unpaired surrogate or invalid UTF-32 unit; leftover bytes and a high surrogate still waiting at the
    end of the input give ONE U+FFFD together. The first error is (byte offset, kind) or None."""
    order = "big" if big else "little"
    units = [int.from_bytes(b[i:i + width], order) for i in range(0, len(b) - width + 1, width)]
    leftover = len(b) % width != 0
    out, prefix, err = [], None, None

    def error(i, kind):
        nonlocal prefix, err
        if err is None:
            prefix, err = "".join(out), (i * width, kind)
        out.append("\ufffd")

    i = 0
    while i < len(units):
        u = units[i]
        if width == 2 and 0xD800 <= u <= 0xDBFF:
            if i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
                out.append(chr(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
                i += 2
                continue
            if i + 1 == len(units):  # waiting for its pair at the end: joins the leftover bytes
                error(i, "incomplete")
                return "".join(out), prefix, err
            error(i, "surrogate")
        elif 0xD800 <= u <= 0xDFFF:
            error(i, "surrogate")
        elif u > 0x10FFFF:
            error(i, "too_large")
        else:
            out.append(chr(u))
        i += 1
    if leftover:
        error(len(units), "incomplete")
    return "".join(out), prefix if err else "".join(out), err


# ---- running the tool -------------------------------------------------------------------------

def run_program(cmd, stdin, env=None, cwd=None):
    """Runs cmd (a command line with the emulator, if any, first) and returns the completed process."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=120)
    # The programs never fail without a message; under an emulator (wine above all, about once in a
    # few thousand starts on a busy machine) a start that fails does: that run is made again, twice at
    # most.
    for _ in range(2):
        if not (EMULATOR and p.returncode == 1 and not p.stdout and not p.stderr):
            break
        print(f"note: {cmd[-4:]}: exit 1 with no output under the emulator; run again", file=sys.stderr)
        p = subprocess.run(cmd, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=120)
    return p


def run1(args, stdin, chunk, cwd):
    env = dict(os.environ)
    env.pop("UTF8TOOL_CHUNK_SIZE", None)
    if chunk is not None:
        env["UTF8TOOL_CHUNK_SIZE"] = str(chunk)
    p = run_program(TOOL + args, stdin, env, cwd)
    return p.returncode, p.stdout, p.stderr


def run(args, stdin=b"", cwd=None, chunks=(1, 2, 3, 4)):
    """Runs with the default chunk size and with each of `chunks`; all must agree. Under an emulator,
    which is there for the architecture and not for the chunking, the default chunk size alone."""
    if EMULATOR:
        chunks = ()
    elif chunks and os.environ.get("UTF8DFA_TOOL_CHUNKS"):  # e.g. "1,5" under the sanitizers
        chunks = tuple(int(c) for c in os.environ["UTF8DFA_TOOL_CHUNKS"].split(","))
    r = run1(args, stdin, None, cwd)
    for c in chunks:
        rc = run1(args, stdin, c, cwd)
        if rc != r:
            raise AssertionError(f"chunk size {c} changes the result of {args}:\n default {r}\n chunk {rc}")
    return r


def expect(got, code, out=None, err=None, what=""):
    global CHECKS
    CHECKS += 1
    rc, o, e = got
    if rc != code or (out is not None and o != out) or (err is not None and e != err):
        raise AssertionError(f"{what}: expected exit {code}, stdout {out!r:.300}, stderr {err!r:.300}\n"
                             f"     got exit {rc}, stdout {o!r:.300}, stderr {e!r:.300}")


# ---- inputs -----------------------------------------------------------------------------------

ERROR_SAMPLES = {  # one planted subpart per error kind; the expected kind comes from the reference
    "invalid_byte": b"\xc0", "unexpected_continuation": b"\x80", "too_short": b"\xe2\x82A",
    "overlong": b"\xe0\x80\xaf", "surrogate": b"\xed\xa0\x80", "too_large": b"\xf4\x90\x80\x80",
}


def random_text(rng, n):
    """Well-formed UTF-8 with lines, all widths, sometimes a BOM."""
    chars = []
    if rng.random() < 0.2:
        chars.append("\ufeff")
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            chars.append("\n")
        elif r < 0.5:
            chars.append(chr(rng.randrange(0x20, 0x7F)))
        else:
            width = rng.choice([0x80, 0x800, 0x10000, 0x110000])
            while True:
                c = rng.randrange(0x80 if width > 0x80 else 0x20, width)
                if not 0xD800 <= c <= 0xDFFF:
                    break
            chars.append(chr(c))
    return "".join(chars).encode()


def corrupt(rng, b):
    """b with a few bytes replaced, inserted or removed."""
    b = bytearray(b)
    for _ in range(rng.randrange(1, 4)):
        pos = rng.randrange(len(b) + 1)
        bad = rng.choice([0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x0A])
        op = rng.randrange(3)
        if op == 0 and pos < len(b):
            b[pos] = bad
        elif op == 1:
            b.insert(pos, bad)
        elif pos < len(b):
            del b[pos]
    return bytes(b)


def random_bytes(rng, n):
    pool = [0x0A, 0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0,
            0xF1, 0xF4, 0xF5, 0xFF]
    return bytes(rng.choice(pool) if rng.random() < 0.7 else rng.randrange(256) for _ in range(n))


WIDE = {"utf16le": ("utf-16-le", 2, False), "utf16be": ("utf-16-be", 2, True),
        "utf32le": ("utf-32-le", 4, False), "utf32be": ("utf-32-be", 4, True)}


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    return name


# ---- groups -----------------------------------------------------------------------------------

def group_validate(d):
    rng = random.Random(11)
    good = random_text(rng, 200)
    expect(run(["validate", write(d, "good.txt", good)], cwd=d), 0, b"", b"", "valid file")
    expect(run(["validate"], good), 0, b"", b"", "valid stdin")
    expect(run(["validate", "-"], b""), 0, b"", b"", "empty stdin")
    expect(run(["validate", write(d, "empty.txt", b"")], cwd=d), 0, b"", b"", "empty file")
    # every error kind, at the start, in the middle of a line, after lines, at the end
    for kind, sample in list(ERROR_SAMPLES.items()) + [("incomplete", b"\xf0\x9f\x98")]:
        for before, after in [(b"", b""), (b"ab\xc3\xa9", b"x"), (b"l1\nl\xc3\xa92\n\xe2\x82\xac ", b"\nz")]:
            data = before + sample + (after if kind != "incomplete" else b"")
            assert checked_first_error(data)[2] == kind, (kind, data)
            name = write(d, f"{kind}.txt", data)
            expect(run(["validate", name], cwd=d), 1, b"", utf8_message(name, data), f"{kind} in a file")
            expect(run(["validate"], data), 1, b"", utf8_message("<stdin>", data), f"{kind} on stdin")
    # random corrupted text: message from the reference, same for every chunk size
    for i in range(60):
        data = corrupt(rng, random_text(rng, rng.randrange(1, 40)))
        e = checked_first_error(data)
        name = write(d, f"r{i}.txt", data)
        expect(run(["validate", name], cwd=d), 1 if e else 0, b"", utf8_message(name, data) if e else b"",
               f"random input {data!r}")
    # several inputs: every one is checked and reported, in order; a missing one does not stop it
    bad1, bad2 = b"ok\n\xff", b"\xe2\x28\xa1"
    names = [write(d, "a.txt", good), write(d, "b.txt", bad1), "missing.txt", "-", write(d, "c.txt", bad2)]
    want = (utf8_message("b.txt", bad1) + b"utf8tool: missing.txt: No such file or directory\n" +
            utf8_message("<stdin>", bad1) + utf8_message("c.txt", bad2))
    expect(run(["validate"] + names, bad1, cwd=d), 1, b"", want, "several inputs")
    expect(run(["validate", "good.txt", "-", "good.txt"], good, cwd=d), 0, b"", b"", "several good inputs")
    expect(run(["validate", "missing.txt"], cwd=d), 1, b"", b"utf8tool: missing.txt: No such file or directory\n",
           "missing file")
    os.mkdir(os.path.join(d, "dir"))
    rc, out, err = run(["validate", "dir"], cwd=d)
    expect((rc, out, b""), 1, b"", b"", "a directory")
    assert err.startswith(b"utf8tool: dir: "), err
    expect(run(["validate", "--", "-"], good), 0, b"", b"", "'--' then '-'")


def group_sanitize(d):
    rng = random.Random(12)
    for i in range(150):
        kind = i % 3
        data = (random_bytes(rng, rng.randrange(0, 60)) if kind == 0 else
                corrupt(rng, random_text(rng, rng.randrange(1, 40))) if kind == 1 else random_text(rng, 30))
        want = data.decode("utf-8", "replace").encode("utf-8")
        expect(run(["sanitize"], data), 0, want, b"", f"sanitize stdin {data!r}")
    data = b"\xef\xbb\xbfBOM kept \xc0\xaf \xed\xa0\x80 \xf0\x9f\x98"
    want = data.decode("utf-8", "replace").encode("utf-8")
    assert want.startswith(b"\xef\xbb\xbf")
    expect(run(["sanitize", write(d, "s.txt", data)], cwd=d), 0, want, b"", "sanitize file, BOM kept")
    expect(run(["sanitize", "-"], b""), 0, b"", b"", "sanitize empty")
    # --skip: each maximal ill-formed subpart dropped (Python's errors="ignore" drops the same ones).
    for i in range(20):
        data = random_bytes(rng, rng.randrange(0, 60)) if i % 2 else corrupt(rng, random_text(rng, 30))
        want = data.decode("utf-8", "ignore").encode("utf-8")
        expect(run(["sanitize", "--skip"], data), 0, want, b"", f"sanitize --skip stdin {data!r}")
    data = b"\xef\xbf\xbd kept, \xc0\xaf \xed\xa0\x80 \xe2\x82A \xf0\x9f\x98"
    expect(run(["sanitize", "--skip", write(d, "k.txt", data)], cwd=d), 0, "\ufffd kept,   A ".encode(), b"",
           "sanitize --skip file: a U+FFFD of the input is kept")
    expect(run(["sanitize", "--dialect", "cesu8", "--skip"], b"\xed\xa0\x80A\xf0"), 0, b"A", b"",
           "sanitize --skip CESU-8")
    expect(run(["sanitize", "missing.txt"], cwd=d), 1, b"", b"utf8tool: missing.txt: No such file or directory\n",
           "sanitize missing file")


def group_count(d):
    rng = random.Random(13)
    for i in range(40):
        data = random_text(rng, rng.randrange(0, 80))
        want = f"{len(data.decode('utf-8'))}\n".encode()
        expect(run(["count"], data), 0, want, b"", "count stdin")
    data = b"\xef\xbb\xbfa\xc3\xa9\n"
    expect(run(["count", write(d, "bom.txt", data)], cwd=d), 0, b"4\n", b"", "count: the BOM counts")
    for i in range(20):
        data = corrupt(rng, random_text(rng, rng.randrange(1, 30)))
        if checked_first_error(data):
            expect(run(["count"], data), 1, b"", utf8_message("<stdin>", data), "count ill-formed")


def group_convert(d):
    rng = random.Random(14)
    samples = [random_text(rng, rng.randrange(0, 60)) for _ in range(8)] + [b"\xef\xbb\xbf\xf0\x9f\x98\x80"]
    for enc, (codec, width, big) in WIDE.items():
        for data in samples:
            wide = data.decode("utf-8").encode(codec)  # BOM kept as data, none added
            expect(run(["convert", "--to", enc], data), 0, wide, b"", f"utf8 -> {enc}")
            expect(run(["convert", "--to", enc, "--replace"], data), 0, wide, b"", f"utf8 -> {enc} --replace")
            expect(run(["convert", "--from", enc, "--to", "utf8"], wide), 0, data, b"", f"{enc} -> utf8")
            expect(run(["convert", f"--from={enc}", "--replace"], wide), 0, data, b"", f"{enc} -> utf8 --replace")
        # ill-formed UTF-8 in: strict keeps what precedes the error, --replace follows Python
        for i in range(8):
            data = corrupt(rng, random_text(rng, rng.randrange(1, 30)))
            e = checked_first_error(data)
            if not e:
                continue
            name = write(d, "bad.txt", data)
            prefix = data[:e[0]].decode("utf-8").encode(codec)
            expect(run(["convert", "--to", enc, name], cwd=d), 1, prefix, utf8_message(name, data),
                   f"utf8 -> {enc} strict {data!r}")
            lossy = data.decode("utf-8", "replace").encode(codec)
            expect(run(["convert", "--replace", "--to", enc, name], cwd=d), 0, lossy, b"", f"utf8 -> {enc} lossy")
        # ill-formed UTF-16/32 in: random units (surrogates, values above 0x10FFFF), odd lengths
        for i in range(25):
            units = []
            for _ in range(rng.randrange(0, 8)):
                pick = rng.randrange(6)
                units.append([rng.randrange(0xD800, 0xDC00), rng.randrange(0xDC00, 0xE000), rng.randrange(0x80),
                              rng.randrange(0xE000, 0x10000), rng.randrange(0x10000, 0x110000) if width == 4 else 0x41,
                              rng.randrange(0x110000, 0x200000) if width == 4 else 0xDBFF][pick])
            raw = b"".join(u.to_bytes(width, "big" if big else "little") for u in units)
            raw += bytes(rng.randrange(256) for _ in range(rng.randrange(width) if rng.random() < 0.4 else 0))
            lossy, prefix, err = decode_wide(raw, width, big)
            if err is None:
                assert raw.decode(codec) == lossy
            expect(run(["convert", "--from", enc, "--to", "utf8", "--replace"], raw), 0, lossy.encode("utf-8"), b"",
                   f"{enc} -> utf8 --replace {raw!r}")
            msg = (f"<stdin>: invalid {enc[:3].upper()}-{enc[3:5]}{enc[5:].upper()} at byte {err[0]}: {err[1]}\n"
                   .encode() if err else b"")
            expect(run(["convert", "--from", enc, "--to", "utf8"], raw), 1 if err else 0, prefix.encode("utf-8"), msg,
                   f"{enc} -> utf8 strict {raw!r}")
    # encoding names ignore case, '-' and '_'
    sample = "x\u00e9\U0001F600".encode()
    expect(run(["convert", "--to", "UTF-16BE"], sample), 0, sample.decode().encode("utf-16-be"), b"", "UTF-16BE")
    expect(run(["convert", "--from", "utf_32le", "--to", "UTF-8"], sample.decode().encode("utf-32-le")), 0, sample,
           b"", "utf_32le")
    # the end-of-input rule: a waiting high surrogate plus an odd byte give ONE U+FFFD
    expect(run(["convert", "--from", "utf16le", "--replace"], b"A\x00\x3d\xd8\x00"), 0, "A\ufffd".encode(), b"",
           "high surrogate + odd byte at the end")
    expect(run(["convert", "--from", "utf16be", "--replace"], b"\xd8\x3d\x00A\x00"), 0, "\ufffdA\ufffd".encode(),
           b"", "unpaired high surrogate, then an odd byte")
    expect(run(["convert", "--from", "utf32le", "--replace"], b"A\x00\x00\x00\x00\xd8"), 0, "A\ufffd".encode(),
           b"", "two leftover UTF-32 bytes")


def group_usage(d):
    usage_errors = [[], ["frobnicate"], ["validate", "--bogus"], ["sanitize", "a", "b"], ["count", "a", "b"],
                    ["convert"], ["convert", "--to"], ["convert", "--to", "ebcdic"], ["convert", "--to", "utf8"],
                    ["convert", "--from", "utf16le", "--to", "utf32le"], ["convert", "--to", "utf16le", "a", "b"],
                    ["convert", "--to", "utf16le", "--strange"], ["sanitize", "-x"], ["validate", "--skip"],
                    ["count", "--skip"],
                    ["convert", "--from", "auto", "--to", "utf16le"], ["convert", "--from", "latin1", "--to", "utf16be"],
                    ["convert", "--from", "utf32le", "--to", "latin1"], ["convert", "--to", "auto"]]
    for args in usage_errors:
        rc, out, err = run(args, chunks=())
        expect((rc, out, b""), 2, b"", b"", f"usage error {args}")
        assert b"usage: utf8tool" in err and err.startswith(b"utf8tool: "), (args, err)
    for bad in ["0", "x", "-1", "12k", "", "16777217"]:
        env_run = subprocess.run(TOOL + ["validate"], input=b"", capture_output=True,
                                 env=dict(os.environ, UTF8TOOL_CHUNK_SIZE=bad))
        expect((env_run.returncode, env_run.stdout, b""), 2, b"", b"", f"UTF8TOOL_CHUNK_SIZE={bad!r}")
    rc, out, err = run(["--help"], chunks=())
    expect((rc, b"", err), 0, b"", b"", "--help")
    assert out.startswith(b"usage: utf8tool") and b"Exit status" in out


def group_io(d):
    rng = random.Random(15)
    data = random_text(rng, 5000)
    name = write(d, "big.txt", data)
    # output that cannot be written: exit 1 with a message, for every command that writes
    if os.path.exists("/dev/full"):
        for args in (["sanitize", name], ["convert", "--to", "utf32be", name], ["count", name],
                     ["convert", "--from", "utf16le", write(d, "w.bin", data.decode().encode("utf-16-le"))]):
            with open("/dev/full", "wb") as full:
                p = subprocess.run(TOOL + args, stdout=full, stderr=subprocess.PIPE, cwd=d)
            expect((p.returncode, b"", p.stderr), 1, b"", b"utf8tool: write error: No space left on device\n",
                   f"disk full {args}")
    # (Node, which runs the WebAssembly build, opens /dev/null for a closed standard descriptor
    # before the program starts: the program never sees it closed.)
    if not (EMULATOR and os.path.basename(EMULATOR[0]).startswith("node")):
        p = subprocess.run(f'{shlex.join(TOOL)} sanitize {name} >&-', shell=True, stderr=subprocess.PIPE, cwd=d)
        expect((p.returncode, b"", p.stderr[:21]), 1, b"", b"utf8tool: write error", "stdout closed")
    else:
        print("stdout closed: skipped under Node (it reopens closed standard descriptors on /dev/null)")
    # a pipe is processed as data arrives: output for the first line comes before the input ends
    for args, first, rest, want1, want2 in (
            (["sanitize"], b"first \xff line\n\xe2\x82", b"\xac end\n", "first \ufffd line\n".encode(),
             "\u20ac end\n".encode()),
            (["convert", "--from", "utf16le"], "ab\U0001F600".encode("utf-16-le")[:-2], b"\x00\xde",
             b"ab", "\U0001F600".encode())):
        p = subprocess.Popen(TOOL + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        p.stdin.write(first)
        p.stdin.flush()
        got = b""
        while len(got) < len(want1) and select.select([p.stdout], [], [], 20)[0]:
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            got += chunk
        assert got == want1, f"pipe {args}: {got!r} before the end of the input, expected {want1!r}"
        p.stdin.write(rest)
        p.stdin.close()
        got += p.stdout.read()
        expect((p.wait(), got, b""), 0, want1 + want2, b"", f"pipe {args}")
    # the default chunk size (65536): characters and errors straddling the first chunk boundaries
    for shift in range(-4, 4):
        for piece in (b"\xf0\x9f\x98\x80", b"\xe2\x82\xac", b"\xe2\x82", b"\xf0\x9f\x98" + b"A", b"\xed\xa0\x80"):
            data = b"a" * (65536 + shift) + piece + b"\n" + b"b" * 65536 + piece
            name = write(d, "edge.txt", data)
            e = checked_first_error(data)
            expect(run1(["validate", name], b"", None, d), 1 if e else 0, b"",
                   utf8_message(name, data) if e else b"", f"boundary {shift} {piece!r}")
            expect(run1(["sanitize", name], b"", None, d), 0, data.decode("utf-8", "replace").encode(), b"",
                   f"boundary sanitize {shift} {piece!r}")
            lossy = data.decode("utf-8", "replace").encode("utf-16-be")
            expect(run1(["convert", "--to", "utf16be", "--replace", name], b"", None, d), 0, lossy, b"",
                   f"boundary convert {shift} {piece!r}")
            prefix = data[:e[0] if e else len(data)].decode().encode("utf-32-le")
            expect(run1(["convert", "--to", "utf32le", name], b"", None, d), 1 if e else 0, prefix,
                   utf8_message(name, data) if e else b"", f"boundary strict convert {shift} {piece!r}")
    for shift in range(-3, 3):  # a surrogate pair (or a lone high surrogate) across the boundary
        for tail in ("\U0001F600", "\U0001F600x"):
            text = "a" * (32768 + shift) + tail
            for raw in (text.encode("utf-16-le"), text.encode("utf-16-le")[:-2]):
                lossy, _, err = decode_wide(raw, 2, False)
                expect(run1(["convert", "--from", "utf16le", "--replace", write(d, "w16.bin", raw)], b"", None, d),
                       0, lossy.encode(), b"", f"utf16 boundary {shift} {tail!r}")
    # a non-blocking stdin (inherited O_NONBLOCK) is waited on, not reported as a read error
    try:
        import fcntl
        r, w = os.pipe()
        fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
        p = subprocess.Popen(TOOL + ["sanitize"], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(r)
        time.sleep(0.2)
        os.write(w, b"ab\xff\n")
        time.sleep(0.2)
        os.write(w, b"cd\n")
        os.close(w)
        out, err = p.communicate(timeout=60)
        expect((p.returncode, out, err), 0, "ab\ufffd\ncd\n".encode(), b"", "non-blocking stdin")
    except ImportError:
        pass
    # binary-safe: NUL, CR LF and every byte value survive sanitize when well-formed
    raw = bytes(range(128)) + b"\r\n" + "\u00ff\u0800\uffff\U0010ffff".encode()
    expect(run(["sanitize"], raw), 0, raw, b"", "binary-safe")


def group_memory(d):
    """Constant memory: 48 MiB through a pipe must not grow the process beyond a few chunk buffers.
    The peak (VmHWM) is read from /proc while the tool waits for the end of its input."""
    if not os.path.exists(f"/proc/{os.getpid()}/status"):
        print("no /proc: skipped")
        sys.exit(SKIP)
    if EMULATOR:
        print("under an emulator (the peak RSS would be the emulator's): skipped")
        sys.exit(SKIP)
    # A sanitized build carries its runtime's shadow memory and quarantine: CMake raises the bound.
    limit_kib = int(os.environ.get("UTF8TOOL_MAX_RSS_KIB", 12 * 1024))
    rng = random.Random(16)
    block = random_text(rng, 20000)
    reps = (48 << 20) // len(block) + 1
    for args in (["sanitize"], ["convert", "--to", "utf16le"], ["validate"], ["count"]):
        p = subprocess.Popen(TOOL + args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(reps):
            p.stdin.write(block)
        p.stdin.flush()
        with open(f"/proc/{p.pid}/status") as f:
            peak_kib = int(next(line for line in f if line.startswith("VmHWM:")).split()[1])
        p.stdin.close()
        err = p.stderr.read()
        expect((p.wait(), b"", err), 0, b"", b"", f"large input {args}")
        print(f"peak RSS of utf8tool {' '.join(args)} after 48 MiB: {peak_kib} KiB")
        assert peak_kib < limit_kib, (peak_kib, limit_kib)


def group_corpora(d):
    """Round trips of the shared seeds and corpora, when present (skipped otherwise)."""
    files = []
    for sub in ("seeds", "corpora"):
        root = os.path.join(SHARED or "", sub)
        for dirpath, _, names in os.walk(root):
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".txt")]
    if not files:
        print("no shared seeds or corpora found: skipped")
        sys.exit(SKIP)
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        e = checked_first_error(data)
        rc, out, err = run1(["validate", path], b"", None, None)
        expect((rc, out, err), 1 if e else 0, b"", utf8_message(path, data) if e else b"", f"validate {path}")
        expect(run1(["sanitize", path], b"", 4093, None), 0, data.decode("utf-8", "replace").encode(), b"",
               f"sanitize {path}")
        if e:
            continue
        expect(run1(["count", path], b"", None, None), 0, f"{len(data.decode())}\n".encode(), b"", f"count {path}")
        for enc, (codec, _, _) in WIDE.items():
            wide = data.decode().encode(codec)
            for chunk in (None, 1021):  # an odd size: UTF-16/32 units split across chunks
                expect(run1(["convert", "--to", enc, path], b"", chunk, None), 0, wide, b"", f"{path} -> {enc}")
                expect(run1(["convert", "--from", enc], wide, chunk, None), 0, data, b"", f"{path} <- {enc}")
    print(f"{len(files)} shared files")


def group_stream_file(d):
    """examples/stream_file: its summary line against Python's lossy decode, on files and stdin."""
    if not STREAM_FILE:
        print("stream_file not built: skipped")
        sys.exit(SKIP)
    rng = random.Random(17)
    inputs = [b"", b"\xef\xbb\xbf", random_text(rng, 3000)]
    inputs += [corrupt(rng, random_text(rng, rng.randrange(1, 3000))) for _ in range(20)]
    inputs += [random_bytes(rng, rng.randrange(1, 9000)) for _ in range(10)]
    for i, data in enumerate(inputs):
        text = data.decode("utf-8", "replace")
        want = (f"{len(text)} code points, {text.count(chr(10))} lines, {sum(c >= chr(0x80) for c in text)} "
                f"outside ASCII, {text.count(chr(0xFFFD))} replaced\n")
        e = checked_first_error(data)
        if e:
            want += f"first ill-formed subpart: byte {e[0]}, {e[1]} byte(s), {e[2]}\n"
        name = write(d, f"in{i}.txt", data)
        for args, stdin in (([name], b""), ([], data)):
            p = run_program(EMULATOR + [STREAM_FILE] + args, stdin, cwd=d)
            expect((p.returncode, p.stdout, p.stderr), 1 if e else 0, want.encode(), b"", f"stream_file {data[:40]!r}")


def windows_path(path):
    """An absolute POSIX path as a Windows program under wine sees it: drive Z: is the root."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def group_platform(d):
    """CR LF text (files and stdin: bytes in, bytes out, no newline translation; lines counted by LF),
    and, for a Windows program (TOOL ends in .exe: run under wine, drive Z: mapping /), Windows
    paths: drive letters, backslashes, both separators mixed."""
    rng = random.Random(18)
    lines = [random_text(rng, 30).replace(b"\n", b"") for _ in range(6)]
    crlf = b"\r\n".join(lines) + b"\r\n"
    name = write(d, "crlf.txt", crlf)
    expect(run(["validate", name], cwd=d), 0, b"", b"", "CR LF file valid")
    expect(run(["sanitize", name], cwd=d), 0, crlf, b"", "CR LF file sanitized unchanged")
    expect(run(["sanitize"], crlf), 0, crlf, b"", "CR LF stdin sanitized unchanged")
    expect(run(["count", name], cwd=d), 0, f"{len(crlf.decode())}\n".encode(), b"", "CR LF counted (CR is a character)")
    text = crlf.decode()
    for enc in ("utf16le", "utf32be"):
        codec = {"utf16le": "utf-16-le", "utf32be": "utf-32-be"}[enc]
        wide = text.encode(codec)
        expect(run(["convert", "--to", enc, name], cwd=d), 0, wide, b"", f"CR LF to {enc}")
        expect(run(["convert", "--from", enc], wide), 0, crlf, b"", f"CR LF from {enc} on stdin")
    # an error after CR LF lines: line and column count LF only (CR is the last column of a line)
    bad = b"one\r\ntwo\r\nth\xffree\r\n"
    badname = write(d, "crlf_bad.txt", bad)
    expect(run(["validate", badname], cwd=d), 1, b"", utf8_message(badname, bad), "CR LF then an error")
    assert utf8_message(badname, bad).startswith(b"crlf_bad.txt:3:3:")
    expect(run(["sanitize"], bad), 0, bad.decode("utf-8", "replace").encode(), b"", "CR LF sanitize with an error")
    # Ctrl-Z (0x1A) and a lone CR are bytes like any other (a text-mode stdin would stop at Ctrl-Z)
    raw = b"a\x1ab\rc\r\n\x1a"
    expect(run(["sanitize"], raw), 0, raw, b"", "Ctrl-Z and CR on stdin")
    expect(run(["convert", "--to", "utf16le"], raw), 0, raw.decode().encode("utf-16-le"), b"", "Ctrl-Z to UTF-16")
    if not (TOOL[-1].lower().endswith(".exe")):
        print("not a Windows program: the Windows path checks skipped")
        return
    os.mkdir(os.path.join(d, "sub dir"))
    inner = write(d, os.path.join("sub dir", "in.txt"), crlf)
    full = windows_path(os.path.join(d, inner))
    assert full.startswith("Z:\\") and "/" not in full, full
    expect(run(["sanitize", full]), 0, crlf, b"", "absolute Windows path")
    expect(run(["sanitize", "sub dir\\in.txt"], cwd=d), 0, crlf, b"", "relative path, backslash")
    expect(run(["sanitize", "sub dir/in.txt"], cwd=d), 0, crlf, b"", "relative path, slash")
    mixed = full[:full.rindex("\\")] + "/in.txt"
    expect(run(["count", mixed]), 0, f"{len(text)}\n".encode(), b"", "mixed separators")
    expect(run(["validate", full.lower()[:2] + full[2:]]), 0, b"", b"", "lower-case drive letter")
    # messages name the file as given
    badfull = windows_path(os.path.join(d, badname))
    expect(run(["validate", badfull]), 1, b"", utf8_message(badfull, bad), "error message with a Windows path")
    missing = windows_path(os.path.join(d, "missing.txt"))
    expect(run(["validate", missing]), 1, b"", f"utf8tool: {missing}: No such file or directory\n".encode(),
           "missing file, Windows path")


# ---- dialects ---------------------------------------------------------------------------------

def code_point_bytes(c):
    """The 1-3 (or 4) byte UTF-8 bit pattern of any code point, surrogates included."""
    return chr(c).encode("utf-8", "surrogatepass")


def wtf8_encode(units):
    """WTF-8 of a list of UTF-16 code units: pairs joined, unpaired surrogates as 3 bytes."""
    out, i = b"", 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            out += code_point_bytes(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00))
            i += 2
        else:
            out += code_point_bytes(u)
            i += 1
    return out


def cesu8_encode(text, modified=False):
    """CESU-8 (UTR #26): each UTF-16 code unit's 3-byte pattern; MUTF-8 also writes U+0000 as C0 80."""
    out = b""
    for ch in text:
        c = ord(ch)
        if modified and c == 0:
            out += b"\xc0\x80"
        elif c >= 0x10000:
            out += code_point_bytes(0xD800 + ((c - 0x10000) >> 10)) + code_point_bytes(0xDC00 + ((c - 0x10000) & 0x3FF))
        else:
            out += ch.encode("utf-8")
    return out


def random_units(rng, n):
    pool = [0x41, 0x0A, 0xE9, 0x20AC, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0xFFFD]
    return [rng.choice(pool) if rng.random() < 0.6 else rng.randrange(0x10000) for _ in range(n)]


DIALECT_NAMES = {"utf8": "UTF-8", "wtf8": "WTF-8", "cesu8": "CESU-8", "mutf8": "MUTF-8", "legacy": "legacy UTF-8"}

# (dialect, bytes, offset of the first error, kind), worked out by hand from each dialect's grammar.
DIALECT_ERRORS = [
    ("wtf8", b"a\xed\xa0\x80\xed\xb0\x80b", 4, "surrogate"),  # a lead then a trail surrogate: the pair
    ("wtf8", b"\xf4\x90\x80\x80", 0, "too_large"),
    ("wtf8", b"x\n\xed\xa0", 2, "incomplete"),
    ("cesu8", b"\xf0\x9f\x98\x80", 0, "invalid_byte"),  # no 4-byte forms
    ("cesu8", b"ab\xed\xa0\x80c", 2, "surrogate"),  # an unpaired lead surrogate
    ("cesu8", b"\xed\xb0\x80", 0, "surrogate"),  # an unpaired trail surrogate
    ("cesu8", b"\xc0\x80", 0, "invalid_byte"),
    ("mutf8", b"a\x00b", 1, "invalid_byte"),
    ("mutf8", b"a\nb\xc0\x81", 3, "overlong"),
    ("mutf8", b"\xed\xa0\x80\xed\x80", 0, "surrogate"),
    ("legacy", b"\xf8\x87\xbf\xbf\xbf", 0, "overlong"),
    ("legacy", b"ok\xfe", 2, "invalid_byte"),
    ("legacy", b"\xfd\xbf\xbf", 0, "incomplete"),
    ("utf8", b"\xed\xa0\x80", 0, "surrogate"),
]


def dialect_chars(dialect, b):
    """Code points in well-formed bytes of the dialect: lead bytes, less the second lead of each pair."""
    leads = sum(1 for x in b if x & 0xC0 != 0x80)
    if dialect in ("cesu8", "mutf8"):
        leads -= sum(1 for i in range(3, len(b)) if b[i] == 0xED and b[i - 3] == 0xED and 0xA0 <= b[i - 2] <= 0xAF)
    return leads


def group_dialect(d):
    rng = random.Random(15)
    # Errors: the message names the dialect; LINE and COLUMN count its characters.
    for dialect, data, off, kind in DIALECT_ERRORS:
        head = data[:off]
        line = head.count(b"\n") + 1
        col = dialect_chars(dialect, head[head.rfind(b"\n") + 1:]) + 1
        msg = f"<stdin>:{line}:{col}: invalid {DIALECT_NAMES[dialect]} at byte {off}: {kind}\n".encode()
        expect(run(["validate", "--dialect", dialect], data), 1, b"", msg, f"{dialect} error {data!r}")
        expect(run(["count", f"--dialect={dialect}"], data), 1, b"", msg, f"{dialect} count error {data!r}")
    # CESU-8 and MUTF-8 of random text (U+0000 included: 00 in CESU-8, C0 80 in MUTF-8): valid,
    # counted, converted both ways, sanitized unchanged.
    for i in range(30):
        text = random_text(rng, rng.randrange(0, 40)).decode("utf-8") + ("\0" if i % 3 == 0 else "")
        for dialect, data in (("cesu8", cesu8_encode(text)), ("mutf8", cesu8_encode(text, True))):
            expect(run(["validate", "--dialect", dialect], data), 0, b"", b"", f"{dialect} valid")
            expect(run(["count", "--dialect", dialect], data), 0, f"{len(text)}\n".encode(), b"", f"{dialect} count")
            expect(run(["convert", "--dialect", dialect, "--to", "utf16le"], data), 0, text.encode("utf-16-le"), b"",
                   f"{dialect} to UTF-16")
            expect(run(["convert", "--dialect", dialect, "--to", "utf32be"], data), 0, text.encode("utf-32-be"), b"",
                   f"{dialect} to UTF-32")
            expect(run(["convert", "--from", "utf16be", "--dialect", dialect], text.encode("utf-16-be")), 0, data, b"",
                   f"UTF-16 to {dialect}")
            expect(run(["sanitize", "--dialect", dialect], data), 0, data, b"", f"{dialect} sanitize")
    # WTF-8: UTF-16 with unpaired surrogates, losslessly both ways.
    for i in range(40):
        units = random_units(rng, rng.randrange(0, 20))
        u16 = b"".join(u.to_bytes(2, "little") for u in units)
        w = wtf8_encode(units)
        expect(run(["convert", "--from", "utf16le", "--dialect", "wtf8"], u16), 0, w, b"", f"UTF-16 {units} to WTF-8")
        expect(run(["convert", "--dialect", "wtf8", "--to", "utf16le"], w), 0, u16, b"", f"WTF-8 {w!r} to UTF-16")
        expect(run(["validate", "--dialect", "wtf8"], w), 0, b"", b"", "WTF-8 valid")
        expect(run(["count", "--dialect", "wtf8"], w), 0, f"{dialect_chars('wtf8', w)}\n".encode(), b"", "WTF-8 count")
    # Legacy: values above 10FFFF are read, and refused by UTF-16 (too_large).
    big = b"a\xf8\x88\x80\x80\x80\xfd\xbf\xbf\xbf\xbf\xbf"
    expect(run(["validate", "--dialect", "legacy"], big), 0, b"", b"", "legacy 5 and 6 bytes")
    expect(run(["count", "--dialect", "legacy"], big), 0, b"3\n", b"", "legacy count")
    expect(run(["convert", "--dialect", "legacy", "--to", "utf32le"], big), 0,
           b"".join(v.to_bytes(4, "little") for v in (0x61, 0x200000, 0x7FFFFFFF)), b"", "legacy to UTF-32: as read")
    expect(run(["convert", "--dialect", "legacy", "--to", "utf16le"], big), 1, b"a\x00",
           b"<stdin>:1:2: invalid legacy UTF-8 at byte 1: too_large\n", "legacy to UTF-16")
    expect(run(["convert", "--dialect", "legacy", "--to", "utf16le", "--replace"], big), 0,
           "a\ufffd\ufffd".encode("utf-16-le"), b"", "legacy to UTF-16, replaced")
    # Sanitize keeps each dialect's well-formed bytes and replaces the rest.
    expect(run(["sanitize", "--dialect", "cesu8"], b"\xed\xa0\x80A\xf0"), 0, b"\xef\xbf\xbdA\xef\xbf\xbd", b"",
           "sanitize CESU-8")
    expect(run(["sanitize", "--dialect", "wtf8"], b"\xed\xa0\x80\xed\xb0\x80"), 0,
           b"\xed\xa0\x80\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", b"", "sanitize WTF-8: no pair")
    expect(run(["sanitize", "--dialect", "mutf8"], b"\x00\xc0\x80"), 0, b"\xef\xbf\xbd\xc0\x80", b"", "sanitize MUTF-8")
    # The default dialect is utf8; an unknown one is a usage error.
    expect(run(["validate", "--dialect", "utf8"], b"\xed\xa0\x80"), 1, b"",
           b"<stdin>:1:1: invalid UTF-8 at byte 0: surrogate\n", "--dialect utf8")
    rc, out, err = run(["validate", "--dialect", "latin1"], b"")
    expect((rc, out, b""), 2, b"", b"", "unknown dialect")
    assert err.startswith(b"utf8tool: unknown dialect 'latin1'"), err
    rc, out, err = run(["count", "--dialect"], b"")
    expect((rc, out, b""), 2, b"", b"", "--dialect without a value")


# ---- Latin-1 and --from auto -------------------------------------------------------------------

def latin1_strict(data):
    """(exit code, stdout, offset and kind of the error or None) of strict UTF-8 -> Latin-1 on data."""
    e = checked_first_error(data)
    text = data[:e[0] if e else len(data)].decode("utf-8")
    for k, c in enumerate(text):
        if ord(c) > 0xFF:
            return 1, text[:k].encode("latin-1"), (len(text[:k].encode()), "unrepresentable")
    return (1, text.encode("latin-1"), (e[0], e[2])) if e else (0, text.encode("latin-1"), None)


def group_encodings(d):
    rng = random.Random(18)
    # --from latin1: every byte value is the character of that value; nothing fails.
    every = bytes(range(256))
    for args in (["--from", "latin1"], ["--from", "ISO-8859-1", "--to", "utf8"], ["--from=latin1", "--replace"]):
        expect(run(["convert"] + args, every), 0, every.decode("latin-1").encode(), b"", f"latin1 -> utf8 {args}")
    expect(run(["convert", "--from", "latin1", write(d, "l1.txt", every)], cwd=d), 0, every.decode("latin-1").encode(),
           b"", "latin1 file -> utf8")
    expect(run(["convert", "--from", "latin1"], b""), 0, b"", b"", "latin1 empty")
    text = every.decode("latin-1")
    expect(run(["convert", "--from", "latin1", "--dialect", "mutf8"], every), 0, cesu8_encode(text, True), b"",
           "latin1 -> MUTF-8 (U+0000 as C0 80)")
    expect(run(["convert", "--from", "latin1", "--dialect", "cesu8"], every), 0, text.encode(), b"", "latin1 -> CESU-8")
    # --to latin1: text up to U+00FF round-trips; above it, strict stops with its offset, --replace writes '?'.
    for i in range(16):
        if i < 4:
            data = "".join(chr(rng.randrange(0x100)) for _ in range(rng.randrange(0, 50))).encode()
        elif i < 10:
            data = random_text(rng, rng.randrange(0, 40))
        else:
            data = corrupt(rng, random_text(rng, rng.randrange(1, 40)))
        code, out, err = latin1_strict(data)
        msg = b""
        if err:
            line, col = position(data, err[0])
            msg = f"<stdin>:{line}:{col}: invalid UTF-8 at byte {err[0]}: {err[1]}\n".encode()
        name = write(d, "to_l1.txt", data)
        expect(run(["convert", "--to", "latin1", name], cwd=d), code, out, msg.replace(b"<stdin>", name.encode()),
               f"utf8 -> latin1 {data!r}")
        lossy = "".join(c if ord(c) <= 0xFF else "?" for c in data.decode("utf-8", "replace")).encode("latin-1")
        expect(run(["convert", "--to", "Latin1", "--replace"], data), 0, lossy, b"", f"utf8 -> latin1 lossy {data!r}")
    expect(run(["convert", "--to", "latin1"], "l1\n\u00e9\u20ac".encode()), 1, "l1\n\u00e9".encode("latin-1"),
           b"<stdin>:2:2: invalid UTF-8 at byte 5: unrepresentable\n", "a character above U+00FF")
    # In a dialect: its characters above U+00FF, and what UTF-32 holds but no Unicode text does.
    for dialect, data, out, off, kind in (
            ("cesu8", b"x\n\xed\xa0\xbd\xed\xb8\x80", b"x\n", 2, "unrepresentable"),  # U+1F600 as a pair
            ("mutf8", b"\xc0\x80\xc3\xbf\xc4\x80", b"\x00\xff", 4, "unrepresentable"),
            ("wtf8", b"ab\xed\xa0\x80", b"ab", 2, "surrogate"),
            ("legacy", b"\xc3\xa9\xf8\x88\x80\x80\x80", b"\xe9", 2, "too_large")):
        head = data[:off]
        col = dialect_chars(dialect, head[head.rfind(b"\n") + 1:]) + 1
        line = head.count(b"\n") + 1
        msg = f"<stdin>:{line}:{col}: invalid {DIALECT_NAMES[dialect]} at byte {off}: {kind}\n"
        expect(run(["convert", "--to", "latin1", "--dialect", dialect], data), 1, out, msg.encode(),
               f"{dialect} -> latin1")
        rc, lossy, _ = run(["convert", "--to", "latin1", "--dialect", dialect, "--replace"], data)
        expect((rc, lossy, b""), 0, out + b"?", b"", f"{dialect} -> latin1 lossy")
    # --from auto: the BOM decides (and is dropped), else UTF-8.
    boms = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff",
            "utf-32-le": b"\xff\xfe\x00\x00", "utf-32-be": b"\x00\x00\xfe\xff"}
    samples = [random_text(rng, rng.randrange(0, 30)).decode() for _ in range(2)] + ["", "\x00", "\ufeffx"]
    for codec, bom in boms.items():
        for text in samples:
            data = bom + text.encode(codec)
            if data.startswith(boms["utf-32-le"]) and codec == "utf-16-le":
                continue  # UTF-16LE's mark and U+0000 are UTF-32LE's mark (below)
            expect(run(["convert", "--from", "auto"], data), 0, text.encode(), b"", f"auto {codec} {text!r}")
            expect(run(["convert", "--from=auto", "--to", "utf8", "--replace"], data), 0, text.encode(), b"",
                   f"auto {codec} --replace")
    for text in samples:  # no BOM: UTF-8, copied (a sample may start with U+FEFF: its BOM)
        want = text.encode()[3:] if text.startswith("\ufeff") else text.encode()
        expect(run(["convert", "--from", "auto"], text.encode()), 0, want, b"", f"auto UTF-8 {text!r}")
    # Errors: offsets count the BOM's bytes, COLUMN does not count it.
    for i in range(6):
        rest = corrupt(rng, random_text(rng, rng.randrange(1, 30)))
        if rest.startswith(b"\xef\xbb\xbf") or rest.startswith(b"\xff\xfe") or rest.startswith(b"\xfe\xff"):
            continue
        for bom in (b"", b"\xef\xbb\xbf"):
            e = checked_first_error(rest)
            msg = b""
            if e:
                line, col = position(rest, e[0])
                msg = f"<stdin>:{line}:{col}: invalid UTF-8 at byte {len(bom) + e[0]}: {e[2]}\n".encode()
            expect(run(["convert", "--from", "auto"], bom + rest), 1 if e else 0, rest[:e[0] if e else len(rest)], msg,
                   f"auto UTF-8 strict {bom + rest!r}")
            expect(run(["convert", "--from", "auto", "--replace"], bom + rest), 0,
                   rest.decode("utf-8", "replace").encode(), b"", f"auto UTF-8 lossy {bom + rest!r}")
    for enc, (codec, width, big) in WIDE.items():
        bom = boms[codec]
        # a lone surrogate after a pair and before 'A'; an odd byte at the end
        for raw in ("ok\U0001F600".encode(codec) + (0xD800).to_bytes(width, "big" if big else "little") +
                    "A".encode(codec), "a".encode(codec) + b"\x00"):
            lossy, prefix, err = decode_wide(raw, width, big)
            msg = f"<stdin>: invalid {display(enc)} at byte {len(bom) + err[0]}: {err[1]}\n".encode() if err else b""
            expect(run(["convert", "--from", "auto"], bom + raw), 1 if err else 0, prefix.encode(), msg,
                   f"auto {enc} strict {raw!r}")
            expect(run(["convert", "--from", "auto", "--replace"], bom + raw), 0, lossy.encode(), b"",
                   f"auto {enc} lossy {raw!r}")
    # Marks cut short are UTF-8 (EF BB then 41: one ill-formed subpart, then 'A'); FF FE 00 is UTF-16LE
    # with an odd byte left; a mark alone is empty text.
    expect(run(["convert", "--from", "auto"], b"\xef\xbbA"), 1, b"",
           b"<stdin>:1:1: invalid UTF-8 at byte 0: too_short\n", "EF BB 41")
    expect(run(["convert", "--from", "auto", "--replace"], b"\xef\xbbA"), 0, "\ufffdA".encode(), b"", "EF BB 41 lossy")
    expect(run(["convert", "--from", "auto", "--replace"], b"\xef\xbb"), 0, "\ufffd".encode(), b"", "EF BB")
    expect(run(["convert", "--from", "auto"], b"\xff\xfe\x00"), 1, b"",
           b"<stdin>: invalid UTF-16LE at byte 2: incomplete\n", "FF FE 00")
    expect(run(["convert", "--from", "auto", "--replace"], b"\xff\xfeA"), 0, "\ufffd".encode(), b"", "FF FE 41")
    for bom in boms.values():
        expect(run(["convert", "--from", "auto"], bom), 0, b"", b"", f"only a BOM {bom!r}")
    expect(run(["convert", "--from", "auto"], b"\xff\xfe\x00\x00A\x00\x00\x00"), 0, b"A", b"", "FF FE 00 00 is UTF-32LE")
    expect(run(["convert", "--from", "auto"], b"\xff\xfe\x00\x00A\x00"), 1, b"",
           b"<stdin>: invalid UTF-32LE at byte 4: incomplete\n", "FF FE 00 00 then 2 bytes")
    # In a dialect: UTF-16 with an unpaired surrogate to WTF-8; CESU-8 after its BOM.
    expect(run(["convert", "--from", "auto", "--dialect", "wtf8"], b"\xfe\xff\xd8\x00\x00A"), 0, b"\xed\xa0\x80A",
           b"", "auto UTF-16BE -> WTF-8")
    cesu = cesu8_encode("\U0001F600x")
    expect(run(["convert", "--from", "auto", "--dialect", "cesu8"], b"\xef\xbb\xbf" + cesu), 0, cesu, b"",
           "auto CESU-8")


def display(enc):
    return f"{enc[:3].upper()}-{enc[3:5]}{enc[5:].upper()}"


GROUPS = {n[len("group_"):]: f for n, f in globals().items() if n.startswith("group_")}


def main():
    global TOOL, SHARED, STREAM_FILE, EMULATOR
    args = sys.argv[1:]
    if "--emulator" in args:
        i = args.index("--emulator")
        EMULATOR = shlex.split(args[i + 1])
        del args[i:i + 2]
    if "--stream-file" in args:
        i = args.index("--stream-file")
        STREAM_FILE = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    if "--shared" in args:
        i = args.index("--shared")
        SHARED = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2 or args[1] not in GROUPS:
        print(f"usage: run_tests.py TOOL {{{'|'.join(GROUPS)}}} [--shared DIR] [--stream-file PATH] [--emulator CMD]", file=sys.stderr)
        return 2
    TOOL = EMULATOR + [os.path.abspath(args[0])]
    with tempfile.TemporaryDirectory() as d:
        GROUPS[args[1]](d)
    print(f"utf8tool {args[1]}: {CHECKS} checks passed (each run with chunk sizes default and 1-4 unless noted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
