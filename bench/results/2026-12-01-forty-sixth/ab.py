# ab.py A.txt B.txt: row_shapes.cu outputs of two builds (each possibly several passes appended):
# the mean ratio of every case in each, side by side, with the registers and spills of each.
import sys, re, collections
def read(f):
    d = collections.defaultdict(list); info = {}
    for line in open(f):
        if ' ratio ' not in line: continue
        key = re.sub(r'\s+', ' ', line.split(' regs ')[0]).strip()
        d[key].append(float(line.split(' ratio ')[1].split()[0]))
        m = re.search(r'regs\s+(\d+) spill\s+(\d+) occ\s+(\d+)', line)
        info[key] = m.groups()
    return d, info
a, ia = read(sys.argv[1]); b, ib = read(sys.argv[2])
for k in a:
    ma = sum(a[k]) / len(a[k]); mb = sum(b[k]) / len(b[k]) if k in b else float('nan')
    print(f"{k:62s} {ma:.3f} {mb:.3f} {mb-ma:+.3f}  r/s/o {'/'.join(ia[k])} -> {'/'.join(ib.get(k, ('-','-','-')))}")
