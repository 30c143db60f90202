#!/usr/bin/env python3
"""Executed SASS of one profiled kernel by opcode (issue 12).

  sass_mix.py SASS.csv ELEMENTS

SASS.csv is `ncu -i REP --page source --csv --print-source sass` of a report holding one kernel
launch; ELEMENTS the elements that launch processed. Prints the thread instructions executed per
element by opcode (predicates stripped), each opcode's share of the warp stall samples, and the
instructions with the most samples.
"""
import collections
import csv
import re
import sys


def main(path, elements):
    rows = list(csv.reader(open(path)))
    name, header = rows[0][1], rows[1]
    source = header.index("Source")
    executed = header.index("Thread Instructions Executed")
    samples = header.index("Warp Stall Sampling (All Samples)")
    by_opcode, stalls, lines = collections.Counter(), collections.Counter(), []
    for row in rows[2:]:
        if len(row) <= executed:
            continue
        try:
            count, sampled = int(row[executed]), int(row[samples])
        except ValueError:
            continue
        text = row[source].strip()
        opcode = re.sub(r"^@!?U?P\w+\s+", "", text).split(" ")[0]
        by_opcode[opcode] += count
        stalls[opcode] += sampled
        lines.append((sampled, text))
    total, sampled_total = sum(by_opcode.values()), max(sum(stalls.values()), 1)
    print(name[:230])
    print(f"thread instructions {total}, {total / elements:.2f} an element")
    for opcode, count in by_opcode.most_common(28):
        print(f"  {opcode:34s} {count / elements:6.2f}  stall % {100 * stalls[opcode] / sampled_total:5.1f}")
    print("  most sampled instructions:")
    for sampled, text in sorted(lines, reverse=True)[:8]:
        print(f"    {100 * sampled / sampled_total:5.1f} %  {text[:70]}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))
