#!/usr/bin/env python3
"""Turn utf8dfa_bench JSON output into the README tables, the issue's ratio lines and plots.

    utf8dfa_bench --benchmark_format=json > run.json      (or --benchmark_out=run.json)
    bench/report.py run.json [--out-dir docs/bench] [--command "the exact command"] [--no-plot]

    bench/report.py run.json --simdutf          (only the utf8dfa / simdutf tables, Markdown, to stdout)

Writes OUT_DIR/results.md (context, geometric means, ratios, one table per operation) and the plots
OUT_DIR/summary.png and OUT_DIR/<operation>.png (SVG, written by hand, when matplotlib is missing).
Speeds are GB/s (10^9 input bytes per second, CPU time; wall-clock time for the operations timed in
alternation with their conversion, whose counter vs_conversion gives their ratio); with repetitions,
the median is used.
"""

import argparse
import json
import math
import os
import statistics
import sys

OPERATIONS = ["validate", "utf8_to_utf32", "utf8_to_utf16", "utf16_to_utf8", "utf32_to_utf8", "count"]
# The output-length helpers and the allocating conversions (utf8dfa only), each measured against the
# pointer conversion in the same direction: (operation, conversion, minimum ratio).
RELATIVE = [
    ("utf16_length_from_utf8", "utf8_to_utf16", 3.0),
    ("utf32_length_from_utf8", "utf8_to_utf32", 3.0),
    ("utf8_length_from_utf16", "utf16_to_utf8", 3.0),
    ("utf8_length_from_utf32", "utf32_to_utf8", 3.0),
    ("to_utf16", "utf8_to_utf16", 0.8),
    ("to_utf32", "utf8_to_utf32", 0.8),
    ("to_utf8_from_utf16", "utf16_to_utf8", 0.8),
    ("to_utf8_from_utf32", "utf32_to_utf8", 0.8),
    ("utf8_to_utf16_bounded", "utf8_to_utf16", 0.9),
    ("utf16_to_utf8_bounded", "utf16_to_utf8", 0.9),
]
OPERATIONS += [op for op, _, _ in RELATIVE]
# Latin-1 and UTF-16 / UTF-32 input in its own right (issue 16).
OPERATIONS += ["latin1_to_utf8", "utf8_to_latin1", "validate_utf16", "utf16_to_utf32", "utf32_to_utf16",
               "to_well_formed_utf16"]
# Issue 29: against simdutf (the error's position, input known to be valid).
OPERATIONS += ["validate_with_errors", "utf8_to_utf16_assume_valid", "utf16_length_from_utf8_assume_valid",
               "utf32_length_from_utf8_assume_valid", "utf8_length_from_utf16_assume_valid",
               "utf8_length_from_utf32_assume_valid"]
# Issue 33: the UTF-16/UTF-32/Latin-1 operations with kernels of their own (UTF-16BE: byte-swapped input).
OPERATIONS += ["count_utf16", "utf16_to_latin1", "utf32_to_latin1", "validate_utf32", "latin1_to_utf16",
               "latin1_to_utf32", "utf16be_to_utf8", "utf8_to_utf16be", "validate_utf16be", "change_endianness_utf16"]
# In place: the output over the input.
OPERATIONS += ["to_well_formed_utf16_in_place", "change_endianness_utf16_in_place"]
LIBRARIES = ["utf8dfa", "utf8dfa_scalar", "simdutf", "simdjson", "utfcpp", "icu", "iconv", "memcpy", "read",
             "utf8dfa_avx512", "utf8dfa_avx2", "utf8dfa_sse4", "utf8dfa_neon",  # these: --all-kernels
             "simdutf_icelake", "simdutf_haswell", "simdutf_westmere", "simdutf_arm64", "simdutf_fallback"]
INPUT_OF = {"utf16_to_utf8": "UTF-16", "utf32_to_utf8": "UTF-32", "utf8_length_from_utf16": "UTF-16",
            "utf8_length_from_utf32": "UTF-32", "to_utf8_from_utf16": "UTF-16", "to_utf8_from_utf32": "UTF-32",
            "utf16_to_utf8_bounded": "UTF-16", "latin1_to_utf8": "Latin-1", "utf8_to_latin1": "UTF-8 of Latin-1",
            "validate_utf16": "UTF-16", "utf16_to_utf32": "UTF-16", "utf32_to_utf16": "UTF-32",
            "to_well_formed_utf16": "UTF-16", "utf8_length_from_utf16_assume_valid": "UTF-16",
            "utf8_length_from_utf32_assume_valid": "UTF-32", "count_utf16": "UTF-16",
            "utf16_to_latin1": "UTF-16 of Latin-1", "utf32_to_latin1": "UTF-32 of Latin-1", "validate_utf32": "UTF-32",
            "latin1_to_utf16": "Latin-1", "latin1_to_utf32": "Latin-1", "utf16be_to_utf8": "UTF-16BE",
            "validate_utf16be": "UTF-16BE", "change_endianness_utf16": "UTF-16",
            "to_well_formed_utf16_in_place": "UTF-16", "change_endianness_utf16_in_place": "UTF-16"}

# Issue 4, section 3: (operation, library, peer, minimum ratio of library over peer).
TARGETS = [
    ("validate", "utf8dfa", "simdjson", 1.2),
    ("validate", "utf8dfa_scalar", "utfcpp", 2.3),
    ("utf8_to_utf16", "utf8dfa", "icu", 6.8),
    ("utf8_to_utf32", "utf8dfa", "utfcpp", 4.9),
    ("utf16_to_utf8", "utf8dfa", "icu", 8.2),
    ("utf32_to_utf8", "utf8dfa", "utfcpp", 5.0),
    ("count", "utf8dfa", "read", 0.9),
    # Issue 16, item 8.
    ("latin1_to_utf8", "utf8dfa", "icu", 10.0),
    ("validate_utf16", "utf8dfa", "read", 0.5),
]


def load(paths):
    """The context of the first file, {(op, lib, corpus): GB/s} over all files, the errors, and
    {(op, lib, corpus): ratio} of the benchmarks timed in alternation with the conversion they are
    held against (their counter vs_conversion: the length helpers, allocating and bounded conversions)."""
    context, samples, errors, paired = {}, {}, {}, {}
    versus = VERSUS  # utf8dfa_vs_simdutf counters, {(op, lib, corpus): [ratios]}
    versus.clear()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Console output may precede the JSON when stdout and stderr were mixed: start at the brace.
        data = json.loads(text[text.index("{"):])
        context = context or data.get("context", {})
        for b in data.get("benchmarks", []):
            name = b.get("run_name", b["name"])
            for suffix in ("/manual_time", "/real_time"):  # the timing mode is not part of the name
                if name.endswith(suffix):
                    name = name[: -len(suffix)]
            parts = name.split("/", 2)
            if len(parts) != 3:
                continue
            key = tuple(parts)
            if b.get("error_occurred"):
                errors[key] = b.get("error_message", "error")
                continue
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") != "median":
                    continue
                samples[key] = [b["bytes_per_second"]]  # the median wins over single runs
                samples[key + ("median",)] = True
                if "vs_conversion" in b:
                    paired[key] = [b["vs_conversion"]]
                if "utf8dfa_vs_simdutf" in b:
                    versus[key] = [b["utf8dfa_vs_simdutf"]]
            elif (key + ("median",)) not in samples and "bytes_per_second" in b:
                samples.setdefault(key, []).append(b["bytes_per_second"])
                if "vs_conversion" in b:
                    paired.setdefault(key, []).append(b["vs_conversion"])
                if "utf8dfa_vs_simdutf" in b:
                    versus.setdefault(key, []).append(b["utf8dfa_vs_simdutf"])
    speeds = {k: statistics.median(v) / 1e9 for k, v in samples.items() if len(k) == 3}
    paired = {k: statistics.median(v) for k, v in paired.items() if k in speeds}
    for k in list(versus):
        if k in speeds:
            versus[k] = statistics.median(versus[k])
        else:
            del versus[k]
    return context, speeds, errors, paired


# The utf8dfa_vs_simdutf counters of the last load(): utf8dfa's speed over simdutf's, per simdutf row.
VERSUS = {}

# Issue 29: each operation against simdutf's with the same contract (what the simdutf row calls).
SIMDUTF_OPS = [
    ("validate", "validate_utf8"),
    ("validate_with_errors", "validate_utf8_with_errors"),
    ("utf8_to_utf16", "convert_utf8_to_utf16le"),
    ("utf8_to_utf16_assume_valid", "convert_valid_utf8_to_utf16le"),
    ("utf8_to_utf32", "convert_utf8_to_utf32"),
    ("utf16_to_utf8", "convert_utf16le_to_utf8"),
    ("utf32_to_utf8", "convert_utf32_to_utf8"),
    ("count", "count_utf8"),
    ("latin1_to_utf8", "convert_latin1_to_utf8"),
    ("utf8_to_latin1", "convert_utf8_to_latin1"),
    ("validate_utf16", "validate_utf16le"),
    ("utf16_to_utf32", "convert_utf16le_to_utf32"),
    ("utf32_to_utf16", "convert_utf32_to_utf16le"),
    ("to_well_formed_utf16", "to_well_formed_utf16le"),
    ("to_utf16", "validate, utf16_length_from_utf8, u16string, convert_valid"),
    ("to_utf32", "validate, utf32_length_from_utf8, u32string, convert_valid"),
    ("to_utf8_from_utf16", "validate_utf16le, utf8_length_from_utf16le, string, convert_valid"),
    ("to_utf8_from_utf32", "validate_utf32, utf8_length_from_utf32, string, convert_valid"),
    ("utf16_length_from_utf8", "validate_utf8 + utf16_length_from_utf8"),
    ("utf32_length_from_utf8", "validate_utf8 + utf32_length_from_utf8"),
    ("utf8_length_from_utf16", "utf8_length_from_utf16le_with_replacement"),
    ("utf8_length_from_utf32", "validate_utf32 + utf8_length_from_utf32"),
    ("utf16_length_from_utf8_assume_valid", "utf16_length_from_utf8"),
    ("utf32_length_from_utf8_assume_valid", "utf32_length_from_utf8"),
    ("utf8_length_from_utf16_assume_valid", "utf8_length_from_utf16le"),
    ("utf8_length_from_utf32_assume_valid", "utf8_length_from_utf32"),
    # Issue 33.
    ("count_utf16", "count_utf16le"),
    ("utf16_to_latin1", "convert_utf16le_to_latin1"),
    ("utf32_to_latin1", "convert_utf32_to_latin1"),
    ("validate_utf32", "validate_utf32"),
    ("latin1_to_utf16", "convert_latin1_to_utf16le"),
    ("latin1_to_utf32", "convert_latin1_to_utf32"),
    ("utf16be_to_utf8", "convert_utf16be_to_utf8"),
    ("utf8_to_utf16be", "convert_utf8_to_utf16be"),
    ("validate_utf16be", "validate_utf16be"),
    ("change_endianness_utf16", "change_endianness_utf16"),
    ("to_well_formed_utf16_in_place", "to_well_formed_utf16le"),
    ("change_endianness_utf16_in_place", "change_endianness_utf16"),
]
# The simdutf rows and the utf8dfa kernel each one is paired with ("simdutf": the dispatched kernel).
SIMDUTF_LIBS = [("simdutf_icelake", "avx512"), ("simdutf_haswell", "avx2"), ("simdutf_westmere", "sse4"),
                ("simdutf_arm64", "neon"), ("simdutf_fallback", "scalar"), ("simdutf", None)]
SIZE_ORDER = ["@16B", "@64B", "@256B", "@1024B", "", "@32M"]


def size_label(size):
    return {"": "~100 KB", "@16B": "16 B", "@64B": "64 B", "@256B": "256 B", "@1024B": "1 KiB"}.get(
        size, size[1:].replace("M", " MiB"))


def simdutf_target(size, ratio, worst):
    """Issue 29's targets: 1.2x geometric mean and no corpus below 0.9x, except at 32 MiB: 1.0x
    (within 5% where both run at the read bandwidth: 0.95x flagged 'within 5%')."""
    if ratio is None:
        return ""
    if size.startswith("@") and size.endswith("M"):
        return "met" if ratio >= 1.0 else ("within 5%" if ratio >= 0.95 else "missed")
    return "met" if ratio >= 1.2 and worst >= 0.9 else "missed"


def simdutf_cells(speeds, versus, lib, size):
    """{op: (geomean ratio, worst ratio, worst corpus, utf8dfa GB/s, simdutf GB/s)} over the real corpora."""
    cells = {}
    for op, _ in SIMDUTF_OPS:
        pairs = {c: r for (o, l, c), r in versus.items()
                 if o == op and l == lib and is_real(c) and size_class(c) == size and r > 0}
        if not pairs:
            continue
        worst = min(pairs, key=pairs.get)
        theirs = [speeds[(op, lib, c)] for c in pairs]
        ours = [speeds[(op, lib, c)] * pairs[c] for c in pairs]
        cells[op] = (geomean(list(pairs.values())), pairs[worst], worst, geomean(ours), geomean(theirs), len(pairs))
    return cells


def simdutf_summary(speeds, versus, sizes=("", "@64B")):
    """Markdown: one table, each operation's ratio utf8dfa / simdutf (geometric mean over the real
    corpora [worst corpus]) per kernel pair and size (the README's summary)."""
    libs = [(l, k) for l, k in SIMDUTF_LIBS if k and any(ll == l and is_real(c) for (_, ll, c) in versus)]
    cols = [(l, k, z) for l, k in libs for z in sizes]
    cells = {(l, z): simdutf_cells(speeds, versus, l, z) for l, _, z in cols}
    cols = [(l, k, z) for l, k, z in cols if cells[(l, z)]]
    if not cols:
        return []
    out = ["| operation | " + " | ".join(f"{k} {size_label(z)}" for _, k, z in cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for op, _ in SIMDUTF_OPS:
        row = []
        for l, _, z in cols:
            cell = cells[(l, z)].get(op)
            row.append("" if cell is None else f"{cell[0]:.2f} [{cell[1]:.2f}]")
        if any(row):
            out.append(f"| {op} | " + " | ".join(row) + " |")
    return out


def simdutf_tables(speeds, versus, detailed=True):
    """Markdown: per kernel pair, a matrix of the ratios utf8dfa / simdutf (geometric mean over the
    real corpora [worst corpus]) by size, then per size the GB/s, the worst corpus and the verdict."""
    out = []
    libs = [(l, k) for l, k in SIMDUTF_LIBS if any(ll == l and is_real(c) for (_, ll, c) in versus)]
    # "simdutf" (the dispatched pair) only when no --all-kernels row covers it.
    if any(l != "simdutf" for l, _ in libs):
        libs = [(l, k) for l, k in libs if l != "simdutf"]
    for lib, kernel in libs:
        present = {size_class(c) for (_, ll, c) in versus if ll == lib and is_real(c)}
        sizes = [z for z in SIZE_ORDER if z in present] + sorted(present - set(SIZE_ORDER))
        per_size = {z: simdutf_cells(speeds, versus, lib, z) for z in sizes}
        name = f"utf8dfa {kernel} / simdutf {lib[len('simdutf_'):]}" if kernel else "utf8dfa / simdutf (dispatched)"
        out += [f"#### {name}", "",
                "Ratio of speeds, utf8dfa over simdutf: geometric mean over the real corpora [worst corpus]; "
                "`*` marks a missed target.", "",
                "| operation | " + " | ".join(size_label(z) for z in sizes) + " |",
                "|---|" + "---:|" * len(sizes)]
        for op, _ in SIMDUTF_OPS:
            row = []
            for z in sizes:
                cell = per_size[z].get(op)
                if cell is None:
                    row.append("")
                    continue
                mark = "*" if simdutf_target(z, cell[0], cell[1]) == "missed" else ""
                row.append(f"{cell[0]:.2f} [{cell[1]:.2f}]{mark}")
            if any(row):
                out.append(f"| {op} | " + " | ".join(row) + " |")
        out.append("")
        if not detailed:
            continue
        for z in sizes:
            out += [f"##### {name}, {size_label(z)}", "",
                    "| operation | utf8dfa GB/s | simdutf GB/s | ratio | worst corpus | read GB/s | target |",
                    "|---|---:|---:|---:|---|---:|---|"]
            for op, _ in SIMDUTF_OPS:
                cell = per_size[z].get(op)
                if cell is None:
                    continue
                reads = [v for (o, l, c), v in speeds.items() if o == op and l == "read" and is_real(c) and size_class(c) == z]
                out.append(f"| {op} | {fmt(cell[3])} | {fmt(cell[4])} | {cell[0]:.2f}x | {cell[1]:.2f}x {cell[2]} | "
                           f"{fmt(geomean(reads)) if reads else ''} | {simdutf_target(z, cell[0], cell[1])} |")
            out.append("")
    if libs:
        out += ["What the simdutf rows call (through the implementation object of the paired instruction set):", ""]
        out += [f"- {op}: `{call}`" for op, call in SIMDUTF_OPS]
        out.append("")
    return out


def relative(speeds, paired, op, ref, lib, corpus):
    """The speed of op over the speed of ref (same library and corpus): the paired counter when op
    was timed in alternation with ref, else the ratio of the two benchmarks; None when missing."""
    if (op, lib, corpus) in paired:
        return paired[(op, lib, corpus)]
    if (op, lib, corpus) in speeds and (ref, lib, corpus) in speeds:
        return speeds[(op, lib, corpus)] / speeds[(ref, lib, corpus)]
    return None


def is_real(corpus):
    return not corpus.startswith("gen.") and "+errors" not in corpus


def size_class(corpus):
    return corpus[corpus.index("@"):] if "@" in corpus else ""


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def ordered(items, order):
    known = [x for x in order if x in items]
    return known + sorted(x for x in items if x not in order)


def corpus_order(corpora):
    def key(c):
        return (size_class(c), "+errors" in c, is_real(c), c)

    return sorted(corpora, key=key)


def fmt(v):
    if v is None:
        return ""
    return f"{v:.2f}" if v < 100 else f"{v:.0f}"


def summarize(speeds):
    """{size: {op: {lib: geomean over the real corpora}}} and the ratio lines per size."""
    sizes = sorted({size_class(c) for (_, _, c) in speeds if is_real(c)})
    geo, ratios = {}, {}
    for size in sizes:
        geo[size] = {}
        for op in OPERATIONS:
            libs = {l for (o, l, c) in speeds if o == op and is_real(c) and size_class(c) == size}
            geo[size][op] = {
                l: geomean([v for (o, ll, c), v in speeds.items() if o == op and ll == l and is_real(c) and size_class(c) == size])
                for l in libs
            }
        lines = []
        for op, lib, peer, target in TARGETS:
            pairs = [
                speeds[(op, lib, c)] / speeds[(op, peer, c)]
                for (o, l, c) in speeds
                if o == op and l == lib and is_real(c) and size_class(c) == size and (op, peer, c) in speeds
            ]
            ratio = geomean(pairs)
            lines.append((op, lib, peer, target, ratio, len(pairs)))
        ratios[size] = lines
    return geo, ratios


def relative_lines(speeds, size, paired=None):
    """Each length helper and allocating conversion against its conversion, per utf8dfa library:
    the geometric mean of the per-corpus ratios over the real corpora and the worst corpus."""
    lines = []
    paired = paired or {}
    for op, ref, target in RELATIVE:
        libs = ordered({l for (o, l, c) in speeds if o == op and is_real(c) and size_class(c) == size}, LIBRARIES)
        for lib in libs:
            pairs = {
                c: relative(speeds, paired, op, ref, lib, c)
                for (o, l, c) in speeds
                if o == op and l == lib and is_real(c) and size_class(c) == size
            }
            pairs = {c: r for c, r in pairs.items() if r is not None}
            if not pairs:
                continue
            ratio = geomean(list(pairs.values()))
            worst = min(pairs, key=pairs.get)
            verdict = "met" if ratio >= target else "missed"
            lines.append(f"- {op} / {ref}, {lib}: **{ratio:.2f}x** (target >= {target}x, {verdict}); "
                         f"worst {pairs[worst]:.2f}x ({worst}); {len(pairs)} corpora")
    return lines


# Issue 15: what every x86 kernel is held to, against peers in the same run (the multiples simdutf's
# AVX2 kernel reaches on this machine): (operation, peer, minimum ratio of the kernel over the peer).
KERNEL_TARGETS = [
    ("validate", "simdjson", 1.3),
    ("utf8_to_utf16", "icu", 2.5),
    ("utf8_to_utf32", "icu", 2.4),
    ("utf16_to_utf8", "icu", 5.7),
    ("utf32_to_utf8", "icu", 4.3),
    ("count", "read", 0.9),
]
KERNELS = ["utf8dfa_avx512", "utf8dfa_avx2", "utf8dfa_sse4", "utf8dfa_neon", "utf8dfa_scalar"]


def kernel_tables(speeds, size="", paired=None):
    """Markdown: one table per kernel (from an --all-kernels run): GB/s per operation, the ratio to
    the peer of KERNEL_TARGETS or to the conversion in the same direction (RELATIVE), and the worst
    corpus, all over the real corpora in cache."""
    out = []
    paired = paired or {}
    real = {c for (_, _, c) in speeds if is_real(c) and size_class(c) == size}
    kernels = [k for k in KERNELS if any(l == k for (_, l, _) in speeds)]
    for lib in kernels:
        out += [f"#### {lib[len('utf8dfa_'):]}", "",
                "| operation | GB/s | compared with | ratio | target | worst corpus |",
                "|---|---:|---|---:|---:|---|"]
        against = {op: (peer, target, False) for op, peer, target in KERNEL_TARGETS}
        against.update({op: (ref, target, True) for op, ref, target in RELATIVE})
        for op in OPERATIONS:
            own = {c: speeds[(op, lib, c)] for c in real if (op, lib, c) in speeds}
            if not own:
                continue
            peer, target, same_lib = against.get(op, (None, None, False))
            other = lib if same_lib else peer
            if not peer:
                pairs = {}
            elif same_lib:
                pairs = {c: relative(speeds, paired, op, peer, lib, c) for c in own}
                pairs = {c: r for c, r in pairs.items() if r is not None}
            else:
                pairs = {c: v / speeds[(op, other, c)] for c, v in own.items() if (op, other, c) in speeds}
            ratio = geomean(list(pairs.values())) if pairs else None
            worst = min(pairs, key=pairs.get) if pairs else None
            what = ("its " + peer if same_lib else peer) if peer else ""
            verdict = "" if ratio is None else (" (met)" if ratio >= target else " (missed)")
            out.append(f"| {op} | {fmt(geomean(list(own.values())))} | {what} | "
                       f"{'' if ratio is None else f'{ratio:.2f}x'} | "
                       f"{'' if target is None else f'>= {target}x{verdict}'} | "
                       f"{'' if worst is None else f'{pairs[worst]:.2f}x {worst}'} |")
        out.append("")
    return out


def ratio_line(op, lib, peer, target, ratio, n):
    if ratio is None:
        return f"- {op}: {lib} vs {peer}: no data (peer missing?) (target >= {target}x)"
    verdict = "met" if ratio >= target else f"missed by a factor {target / ratio:.2f}"
    what = "within 10% of" if peer == "read" and target >= 0.9 else "vs"
    return f"- {op}: {lib} {what} {peer}: **{ratio:.2f}x** (target >= {target}x, {verdict}; {n} corpora)"


def markdown(context, speeds, errors, command, notes=(), paired=None):
    geo, ratios = summarize(speeds)
    out = ["# utf8dfa benchmark results", ""]
    ctx = [
        ("date", context.get("date")),
        ("CPU", context.get("cpu_model")),
        ("logical CPUs", context.get("num_cpus")),
        ("MHz", context.get("mhz_per_cpu")),
        ("load average at start", ", ".join(f"{x:.2f}" for x in context.get("load_avg", [])) or None),
        ("compiler", context.get("compiler")),
        ("utf8dfa kernel (dispatched)", context.get("utf8dfa_kernel")),
        ("peers", context.get("peers")),
        ("real corpora", context.get("real_corpora")),
    ]
    for k, v in ctx:
        if v not in (None, ""):
            out.append(f"- {k}: {v}")
    if command:
        out.append(f"- command: `{command}`")
    out += [f"- {n}" for n in notes]
    out += [
        "",
        "GB/s = 10^9 input bytes per second of CPU time (wall-clock time for the length helpers, allocating and "
        "bounded conversions, timed in alternation with their conversion) (UTF-8 bytes, except UTF-16/UTF-32 bytes for "
        "utf16_to_utf8/utf32_to_utf8 and the other operations on UTF-16/UTF-32 input); medians when the run had repetitions. `memcpy` copies the input "
        "(the bandwidth ceiling); `read` sums it as 8-byte words.",
        "",
    ]
    for size in geo:
        label = "in cache (natural size)" if size == "" else f"repeated to {size[1:]}"
        out += [f"## Geometric mean over the real corpora, {label}", ""]
        libs = ordered({l for op in geo[size] for l in geo[size][op]}, LIBRARIES)
        out.append("| operation | " + " | ".join(libs) + " |")
        out.append("|---|" + "---:|" * len(libs))
        for op in OPERATIONS:
            if not geo[size][op]:
                continue
            out.append(f"| {op} | " + " | ".join(fmt(geo[size][op].get(l)) for l in libs) + " |")
        out += ["", "Issue 4 targets (geometric mean of the per-corpus ratios):", ""]
        out += [ratio_line(*r) for r in ratios[size]]
        if size == "" and any(l in KERNELS[:-1] for (_, l, _) in speeds):
            out += ["", "### Per kernel (`--all-kernels`): issue 15's targets and the helpers against the conversions", ""]
            out += kernel_tables(speeds, size, paired)
        rel = relative_lines(speeds, size, paired)
        if rel:
            out += ["", "Length helpers and allocating conversions against the conversion in the same direction "
                    "(geometric mean of the per-corpus ratios, worst corpus):", ""]
            out += rel
        out.append("")
    if VERSUS:
        out += ["## utf8dfa against simdutf (paired timing)", ""]
        out += simdutf_tables(speeds, VERSUS)
    for op in OPERATIONS:
        rows = corpus_order({c for (o, _, c) in speeds if o == op})
        if not rows:
            continue
        libs = ordered({l for (o, l, _) in speeds if o == op}, LIBRARIES)
        unit = INPUT_OF.get(op, "UTF-8")
        out += [f"## {op} (GB/s of {unit} input)", ""]
        out.append("| corpus | " + " | ".join(libs) + " |")
        out.append("|---|" + "---:|" * len(libs))
        for c in rows:
            out.append(f"| {c} | " + " | ".join(fmt(speeds.get((op, l, c))) for l in libs) + " |")
        out.append("")
    if errors:
        out += ["## Not timed", ""]
        out += [f"- {'/'.join(k)}: {msg}" for k, msg in sorted(errors.items())]
        out.append("")
    return "\n".join(out), geo, ratios


# ---- plots --------------------------------------------------------------------------------------

COLORS = ["#1f77b4", "#aec7e8", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#7f7f7f", "#bcbd22",
          "#17becf", "#393b79", "#6b6ecf", "#e377c2", "#8c564b"]


def color(series_name):
    """One colour per library, the same in every chart."""
    k = LIBRARIES.index(series_name) if series_name in LIBRARIES else len(LIBRARIES)
    return COLORS[k % len(COLORS)]


def chart_data_summary(geo):
    size = "" if "" in geo else next(iter(geo))
    groups = [op for op in OPERATIONS if geo[size].get(op)]
    series = ordered({l for op in groups for l in geo[size][op]}, LIBRARIES)
    values = {(g, s): geo[size][g].get(s) for g in groups for s in series}
    return groups, series, values


def chart_data_op(speeds, op):
    groups = [c for c in corpus_order({c for (o, _, c) in speeds if o == op}) if size_class(c) == "" and "+errors" not in c]
    series = ordered({l for (o, l, c) in speeds if o == op and c in groups}, LIBRARIES)
    values = {(g, s): speeds.get((op, s, g)) for g in groups for s in series}
    return groups, series, values


def plot_matplotlib(path, title, groups, series, values):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    height = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(11, 1.0 + 0.12 * len(groups) * max(3, len(series))))
    for k, s in enumerate(series):
        ys = [i + k * height for i in range(len(groups))]
        xs = [values.get((g, s)) or 0 for g in groups]
        ax.barh(ys, xs, height=height, label=s, color=color(s))
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(groups))])
    ax.set_yticklabels(groups, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("GB/s (log scale)")
    ax.set_title(title)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_svg(path, title, groups, series, values):
    """The same horizontal grouped bar chart on a log axis, as plain SVG."""
    bar, gap, left, right, top = 7, 8, 190, 30, 40
    width = 900
    plot_w = width - left - right
    group_h = bar * len(series) + gap
    height = top + group_h * len(groups) + 60 + 14 * len(series)
    present = [v for v in values.values() if v]
    lo = 10 ** math.floor(math.log10(min(present))) if present else 0.1
    hi = 10 ** math.ceil(math.log10(max(present))) if present else 100

    def x(v):
        return left + plot_w * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="10">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>']
    decade = lo
    while decade <= hi * 1.0001:
        xx = x(decade)
        svg.append(f'<line x1="{xx:.1f}" y1="{top}" x2="{xx:.1f}" y2="{top + group_h * len(groups)}" stroke="#ccc"/>')
        svg.append(f'<text x="{xx:.1f}" y="{top + group_h * len(groups) + 14}" text-anchor="middle">{decade:g}</text>')
        decade *= 10
    svg.append(f'<text x="{left + plot_w / 2}" y="{top + group_h * len(groups) + 30}" text-anchor="middle">GB/s (log scale)</text>')
    for i, g in enumerate(groups):
        y0 = top + i * group_h
        svg.append(f'<text x="{left - 6}" y="{y0 + group_h / 2 + 3}" text-anchor="end">{g}</text>')
        for k, s in enumerate(series):
            v = values.get((g, s))
            if not v:
                continue
            svg.append(f'<rect x="{left}" y="{y0 + k * bar}" width="{max(0.5, x(v) - left):.1f}" height="{bar - 1}" '
                       f'fill="{color(s)}"><title>{s}: {v:.2f} GB/s</title></rect>')
    ly = top + group_h * len(groups) + 44
    for k, s in enumerate(series):
        svg.append(f'<rect x="{left}" y="{ly + 14 * k - 8}" width="10" height="10" fill="{color(s)}"/>')
        svg.append(f'<text x="{left + 16}" y="{ly + 14 * k + 1}">{s}</text>')
    svg.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")


def plot(out_dir, speeds, geo, force_svg):
    try:
        if force_svg:
            raise ImportError
        import matplotlib  # noqa: F401

        draw, ext = plot_matplotlib, "png"
    except ImportError:
        draw, ext = plot_svg, "svg"
    written = []
    if geo:
        groups, series, values = chart_data_summary(geo)
        path = os.path.join(out_dir, f"summary.{ext}")
        draw(path, "utf8dfa: geometric mean over the real corpora (in cache)", groups, series, values)
        written.append(path)
    for op in OPERATIONS:
        groups, series, values = chart_data_op(speeds, op)
        if groups:
            path = os.path.join(out_dir, f"{op}.{ext}")
            draw(path, f"{op}: GB/s per corpus (in cache)", groups, series, values)
            written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+", help="utf8dfa_bench --benchmark_format=json output file(s)")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "bench"))
    ap.add_argument("--command", default="", help="the exact command that produced the JSON, for the report")
    ap.add_argument("--note", action="append", default=[], help="a line to add to the context (repeatable)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--kernels", action="store_true", help="print only the per-kernel tables (Markdown) and exit")
    ap.add_argument("--svg", action="store_true", help="write SVG plots even when matplotlib is available")
    ap.add_argument("--simdutf", action="store_true", help="print only the utf8dfa / simdutf tables (Markdown) and exit")
    ap.add_argument("--summary", action="store_true", help="with --simdutf: only the ratio matrices")
    ap.add_argument("--readme", action="store_true",
                    help="print only the README's summary: utf8dfa / simdutf per kernel at ~100 KB and 64 B")
    args = ap.parse_args()

    context, speeds, errors, paired = load(args.json)
    if not speeds:
        sys.exit("report.py: no benchmark results in " + ", ".join(args.json))
    if args.kernels:
        print("\n".join(kernel_tables(speeds, "", paired)))
        return 0
    if args.readme:
        print("\n".join(simdutf_summary(speeds, VERSUS)))
        return 0
    if args.simdutf:
        print("\n".join(simdutf_tables(speeds, VERSUS, detailed=not args.summary)))
        return 0
    text, geo, ratios = markdown(context, speeds, errors, args.command, args.note, paired)
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "results.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.join(args.out_dir, 'results.md')} ({len(speeds)} results)")
    if not args.no_plot:
        for path in plot(args.out_dir, speeds, geo, args.svg):
            print(f"wrote {path}")
    for size, lines in ratios.items():
        print(f"ratios ({'in cache' if size == '' else size}):")
        for r in lines:
            print("  " + ratio_line(*r)[2:].replace("**", ""))
    if errors:
        print(f"{len(errors)} benchmarks not timed (see results.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
