#!/usr/bin/env python3
"""The register engine's phased kernels that hold fewer blocks an SM than their aligned twins.

  phased_audit.py PTXAS.txt

PTXAS.txt is nvcc's stderr with -Xptxas -v for sm_90 (phased_audit.cu, or a bench TU). Each
register_kernel is paired with its twin that differs only in register_config's last parameter
(Phased) and in its register cap (min_blocks_per_sm, which tuning::phased_capped sets apart);
a pair is printed where the phased kernel's registers leave it fewer resident blocks an SM than
the aligned kernel's (65536 registers, 2048 threads and 32 blocks an SM; shared memory not
counted). Spilled bytes follow each register count.
"""
import re
import sys

ENTRY = re.compile(
    r"Compiling entry function '(\S+)' for 'sm_\d+a?'\n"
    r"ptxas info\s+: Function properties for \S+\n"
    r"\s+\d+ bytes stack frame, (\d+) bytes spill stores, \d+ bytes spill loads\n"
    r"ptxas info\s+: Used (\d+) registers")
CONFIG = re.compile(
    r"register_configILi(\d+)ELi(\d+)ELi(\d+)ELb(\d)ELb(\d)ELi(\d+)ELi(\d+)ELb(\d)ELi(\d+)"
    r"ELNS_6tuning16column_placementE(\d)ELb(\d)ELb(\d)EEE(\S+)")


def blocks(registers, threads):
    allocated = (registers + 7) // 8 * 8
    return min(65536 // (allocated * threads), 2048 // threads, 32)


def main(path):
    kernels = {}
    for name, spilled, registers in ENTRY.findall(open(path).read()):
        match = CONFIG.search(name)
        if not match:
            continue
        (pack, packs, threads, whole, staged, cluster, min_blocks, _, row_threads, columns,
         stages_operands, phased, rest) = match.groups()
        shape = (rest, pack, packs, threads, whole, staged, cluster, row_threads, columns,
                 stages_operands)
        kernels.setdefault(shape, {})[phased] = (int(registers), int(spilled), int(min_blocks))
    for shape, twins in sorted(kernels.items()):
        if "0" not in twins or "1" not in twins:
            continue
        threads = int(shape[3])
        (aligned, aligned_spill, aligned_cap), (phased, phased_spill, phased_cap) = twins["0"], twins["1"]
        if blocks(phased, threads) < blocks(aligned, threads):
            op = re.sub(r"^NS_2op\d+", "", shape[0])[:40]
            print(f"{op:40} pack {shape[1]} x {shape[2]} packs, {threads} threads,"
                  f" {'block' if shape[4] == '1' else 'group'}{' staged' if shape[5] == '1' else ''},"
                  f" cluster {shape[6]}: aligned {aligned} registers ({aligned_spill} B spilled,"
                  f" cap {aligned_cap}) {blocks(aligned, threads)} blocks; phased {phased}"
                  f" ({phased_spill} B, cap {phased_cap}) {blocks(phased, threads)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
