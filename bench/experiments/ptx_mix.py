#!/usr/bin/env python3
"""PTX instruction mix of kernels (issue 12): a static count, not timed, not SASS.

  ptx_mix.py FILE.ptx REGEX ELEMENTS [--all]

For each .entry whose demangled name matches REGEX (Python re.search), counts the instructions of
its row loop (the outermost backward branch: the label it jumps to up to the branch itself) by
opcode class, and divides by ELEMENTS, the elements a thread holds per row, for instructions per
element. The rest of the kernel (prologue, epilogue) runs once per thread, not per row. Straight
PTX: ptxas may still merge or split instructions, and both arms of a branch are counted.
--all prints every full opcode (with its type suffixes) instead of the classes.
"""
import re
import subprocess
import sys
from collections import Counter

# Opcode classes, by the opcode's first word.
CLASSES = {
    "memory": {"ld", "st", "cp", "ldmatrix", "red", "atom", "prefetch", "mbarrier"},
    "convert": {"cvt", "cvta"},
    "fp32": {"fma", "add", "sub", "mul", "mad", "min", "max", "abs", "neg", "div", "rcp", "sqrt",
             "rsqrt", "ex2", "lg2", "copysign", "testp"},
    "compare/select": {"setp", "selp", "set", "slct", "vset2", "vset4"},
    "integer/bit": {"and", "or", "xor", "not", "shl", "shr", "shf", "prmt", "bfe", "bfi", "mul24",
                    "popc", "clz", "brev", "lop3", "vmax2", "vmin2"},
    "move": {"mov"},
    "control": {"bra", "bar", "barrier", "ret", "exit", "call", "membar", "fence", "shfl",
                "activemask", "vote", "elect"},
}


def opcode_class(opcode):
    base = opcode.split(".")[0]
    # Arithmetic on integer types is integer work; on f32/f16 it is floating point.
    if base in {"add", "sub", "mul", "mad", "min", "max", "abs", "neg"} and re.search(
            r"\.(u|s|b)(16|32|64)\b", opcode):
        return "integer/bit"
    for name, members in CLASSES.items():
        if base in members:
            return name
    return "other"


def entries(text):
    """(mangled name, instruction lines) of each .entry."""
    for match in re.finditer(r"\.entry\s+(\S+)\s*\(", text):
        start = text.index("{", match.end())
        depth, i = 0, start
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        yield match.group(1), text[start + 1:i].splitlines()


def instructions(lines):
    """[(label or None, opcode, target label or None)] in order, labels as pseudo-entries."""
    out = []
    for raw in lines:
        line = raw.split("//")[0].strip()
        if not line:
            continue
        label = re.match(r"^(\$?[\w$]+):$", line)
        if label:
            out.append((label.group(1), None, None))
            continue
        line = line.lstrip("{").strip()  # inline asm comes in braces
        if not line or line == "}" or line.startswith("."):
            continue  # declarations (.reg, .shared, .loc, ...) and braces
        line = re.sub(r"^@!?%\w+\s+", "", line)  # predicate guard
        opcode = line.split()[0].rstrip(";")
        target = None
        if opcode.startswith("bra"):
            target = line.split()[-1].rstrip(";")
        out.append((None, opcode, target))
    return out


def row_loop(code):
    """The slice of `code` of the outermost loop: from a label to the last branch back to it."""
    where = {entry[0]: i for i, entry in enumerate(code) if entry[0]}
    best = None
    for i, (_, opcode, target) in enumerate(code):
        if target in where and where[target] < i:
            span = (where[target], i)
            if best is None or span[1] - span[0] > best[1] - best[0]:
                best = span
    if best is None:
        return code
    return code[best[0]:best[1] + 1]


def demangle(names):
    try:
        result = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                                text=True, check=True)
        return result.stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return names


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, pattern, elements = sys.argv[1], re.compile(sys.argv[2]), int(sys.argv[3])
    full = "--all" in sys.argv[4:]
    text = open(path).read()
    kernels = list(entries(text))
    names = demangle([name for name, _ in kernels])
    found = False
    for (mangled, lines), name in zip(kernels, names):
        if not pattern.search(name):
            continue
        found = True
        code = instructions(lines)
        loop = [entry for entry in row_loop(code) if entry[1]]
        total = sum(1 for entry in code if entry[1])
        counts = Counter(entry[1] if full else opcode_class(entry[1]) for entry in loop)
        print(f"{mangled[:60]}...")
        print(f"  kernel {total} instructions, row loop {len(loop)}: "
              f"{len(loop) / elements:.2f} per element ({elements} elements a thread per row)")
        for key, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {key:28s} {count:5d}  {count / elements:6.2f}")
    if not found:
        sys.exit(f"no kernel matches {sys.argv[2]!r}")


if __name__ == "__main__":
    main()
