#!/usr/bin/env python3
"""Checks that the AVX2 and AVX-512 kernels clear the upper halves of the vector registers
(vzeroupper) before every call into code compiled without AVX.

Code built for the x86-64 baseline uses the legacy (non-VEX) SSE encoding. Run while a ymm or zmm
register's upper half is dirty, each such instruction waits on the whole register on many Intel
cores: a 32-unit conversion that took 28 ns took 530 ns. g++ does not always insert the vzeroupper
itself on the way from a target("avx2") function into baseline code, so the kernels do
(UTF8DFA_LEAVE_AVX, detail/simd/target.hpp); this check finds a call site that forgot it.

  check_transitions.py OBJDUMP FILE     FILE: an object file, archive or program holding the kernels

For each function in a kernel namespace (::avx2::, ::avx512::), a forward data-flow pass over its
control-flow graph tracks whether an upper half may be dirty: any instruction naming a ymm or zmm
register may dirty it, vzeroupper and vzeroall clean it, and so does a return from a call (compilers
clean before returning); the function is entered clean (the dispatcher calls kernels from baseline
code). A call, or a jump out of the function (a tail call),
to anything but another kernel function, the C library's memory functions (which pick AVX code on
AVX machines) or the sanitizer runtimes must find it clean on every path. Fails (exit 1) with the
function and the call target for each such call, and also when the file holds no kernel function
with wide registers (the check would be blind).
"""
import re
import subprocess
import sys

KERNEL_NAMESPACES = ("::avx2::", "::avx512::")
# Callees that are AVX-aware, never return, or belong to a sanitizer runtime.
ALLOWED = re.compile(r"^(memcpy|memmove|memset|memcmp|__memcpy_chk|__memmove_chk|__memset_chk|"
                     r"__stack_chk_fail|__asan_|__ubsan_|__sanitizer_|__msan_|__tsan_|abort|"
                     r"std::terminate|__cxa_|_Unwind_)")
WIDE = re.compile(r"%[yz]mm\d+")
FUNC = re.compile(r"^([0-9a-f]+) <(.*)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
RELOC = re.compile(r"^\s*[0-9a-f]+: (?:R_X86_64_|IMAGE_REL_AMD64_)\w+\s+(.*)$")
SECTION = re.compile(r"^Disassembly of section (\S+):$")
SECTION_REF = re.compile(r"^(\.[\w.$]+)([-+]0x[0-9a-f]+)?$")
ADDEND = re.compile(r"[-+]0x[0-9a-f]+$")
PREFIXES = ("notrack", "bnd", "rep", "repz", "repnz", "lock", "data16", "cs", "ds")
TARGET = re.compile(r"^([0-9a-f]+) <(.*)>$")


def is_kernel(name):
    return any(ns in name for ns in KERNEL_NAMESPACES)


def callee_name(name):
    name = re.sub(r"@plt$", "", name)
    name = re.sub(r"\+0x[0-9a-f]+$", "", name)
    return name


def parse(disassembly):
    """[(function name, [(address, mnemonic, operands, call or jump target from a relocation)])]."""
    functions, starts, section, func, insns = [], {}, None, None, []
    for line in disassembly.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        m = FUNC.match(line)
        if m:
            func, insns = m.group(2), []
            functions.append((func, insns))
            starts[(section, int(m.group(1), 16))] = func
            continue
        if func is None:
            continue
        m = RELOC.match(line)
        if m and insns:
            insns[-1] = insns[-1][:3] + ((section, m.group(1)),)
            continue
        m = INSN.match(line)
        if m:
            text = m.group(2).strip()
            if not text or text.startswith("(bad)"):
                continue
            parts = text.split(None, 1)
            # Prefixes such as "notrack", "bnd", "rep" come before the mnemonic.
            while parts[0] in PREFIXES and len(parts) > 1:
                parts = parts[1].split(None, 1)
            insns.append((int(m.group(1), 16), parts[0], parts[1] if len(parts) > 1 else "", None))

    def resolve(reloc):
        # A call to a local function is relocated against its section: .text+A is the function at
        # A + 4 (the addend counts from the end of the 4-byte displacement).
        m = SECTION_REF.match(reloc)
        if m:
            return starts.get((m.group(1), int(m.group(2) or "0", 16) + 4), reloc)
        return ADDEND.sub("", reloc)

    return [(f, [(a, mn, op, None if r is None else resolve(r[1])) for a, mn, op, r in ins]) for f, ins in functions]


def check_function(name, insns):
    """The calls of one kernel function made while an upper half may be dirty: [(callee, address)]."""
    if not any(WIDE.search(op) for _, _, op, _ in insns):
        return [], False
    index = {addr: i for i, (addr, _, _, _) in enumerate(insns)}
    has_indirect_jump = any(mn.startswith("jmp") and op.startswith("*") for _, mn, op, _ in insns)
    block_starts = [i + 1 for i, (_, mn, _, _) in enumerate(insns) if mn.startswith(("jmp", "ret"))]

    def transfer(i, dirty):
        """State after instruction i, its successors, and a call made there (callee or None)."""
        addr, mn, op, reloc = insns[i]
        if mn in ("vzeroupper", "vzeroall"):
            dirty = False
        elif WIDE.search(op):
            dirty = True
        succ, call = [], None
        target = None
        m = TARGET.match(op)
        if reloc is not None:
            target = ("external", callee_name(reloc))
        elif m:
            t = int(m.group(1), 16)
            inside = t in index and callee_name(m.group(2)) == name
            target = ("inside", index[t]) if inside else ("external", callee_name(m.group(2)))
        if mn.startswith("call"):
            if target and target[0] == "external":
                call = target[1]
            elif not op.startswith("*"):
                call = op
            else:
                call = "(indirect call)"
            succ = [i + 1]
            dirty = False  # compilers clean the upper halves before a function returns
        elif mn.startswith("jmp"):
            if op.startswith("*"):
                succ = block_starts if has_indirect_jump else []
            elif target and target[0] == "inside":
                succ = [target[1]]
            else:
                call = target[1] if target else op  # a tail call
        elif mn.startswith("j") or mn in ("loop", "loope", "loopne"):
            succ = [i + 1] + ([target[1]] if target and target[0] == "inside" else [])
        elif mn.startswith("ret") or mn == "ud2" or mn.startswith("hlt"):
            succ = []
        else:
            succ = [i + 1]
        return dirty, [s for s in succ if s < len(insns)], call

    # Forward pass: state[i] is whether an upper half may be dirty before instruction i.
    state = [None] * len(insns)
    state[0] = False
    work = [0]
    bad = {}
    while work:
        i = work.pop()
        before = state[i]
        after, succ, call = transfer(i, before)
        if call is not None and before and not is_kernel(call) and not ALLOWED.match(call):
            bad.setdefault(call, insns[i][0])
        for s in succ:
            if state[s] is None or (after and not state[s]):
                state[s] = after if state[s] is None else (state[s] or after)
                work.append(s)
    return sorted((c, a) for c, a in bad.items()), True


def main():
    objdump, path = sys.argv[1:3]
    out = subprocess.run([objdump, "-d", "-r", "-C", "--no-show-raw-insn", path], check=True,
                         capture_output=True, text=True).stdout
    seen, problems = 0, []
    for name, insns in parse(out):
        if not is_kernel(name) or not insns:
            continue
        bad, wide = check_function(name, insns)
        seen += wide
        problems += [(name, c, a) for c, a in bad]
    print(f"{path}: {seen} kernel functions use ymm/zmm registers; "
          f"{len(problems)} calls into other code may leave them dirty")
    for name, callee, addr in problems[:40]:
        print(f"  {name} at {addr:#x}: calls {callee} without vzeroupper")
    if seen == 0:
        print("  no kernel function with wide registers found: nothing was checked")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
