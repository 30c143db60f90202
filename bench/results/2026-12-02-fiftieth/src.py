import csv, sys, re, collections
# src.py FILE [MIN]: per-SASS-line executed warp instructions and stall samples; opcode totals.
f = sys.argv[1]; mn = int(sys.argv[2]) if len(sys.argv) > 2 else 0
lines = open(f).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith('"Address"'))
rows = list(csv.reader(lines[start:]))
h = rows[0]; ix = {k: h.index(k) for k in ["Source", "Warp Stall Sampling (All Samples)", "Instructions Executed"]}
ops = collections.Counter(); samples = collections.Counter(); total = 0; stot = 0
out = []
for r in rows[1:]:
    if len(r) < len(h): continue
    src = r[ix["Source"]].strip(); ex = int(r[ix["Instructions Executed"]] or 0); s = int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)
    op = re.sub(r"^@!?U?P\w+\s+", "", src).split()[0] if src else "?"
    ops[op.split(".")[0]] += ex; samples[op.split(".")[0]] += s; total += ex; stot += s
    out.append((r[0][-5:], ex, s, src))
print("total warp instr", total, "samples", stot)
for op, n in ops.most_common(30): print(f"  {op:10s} {n:12d} {n/total:6.3f}  samples {samples[op]/max(stot,1):.3f}")
if mn:
    for a, ex, s, src in out:
        if ex >= mn or s > stot * 0.01: print(a, ex, s, src)
