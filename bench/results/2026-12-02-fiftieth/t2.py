import sys, glob, collections, re
# t2.py DIR V...: mean ratio of each (variant, build, shape, grid, cols) over passes.
d = sys.argv[1]; vs = sys.argv[2:]
t = collections.defaultdict(list); meta = {}
for f in glob.glob(f"{d}/*-r*-a*-*.txt"):
    v, b = re.match(r".*/(\w+)-(r\d+-a\d)-\d\.txt", f).groups()
    for line in open(f):
        w = line.split()
        if "ratio" not in w: continue
        key = (b, f"{w[3]}{w[4]}{w[7]}" + ("ahead" if "ahead" in w else ""), "persist" if "persist" in w else "tiles", int(w[2]))
        t[(v,) + key].append(float(w[w.index("ratio") + 1]))
        meta[(v,) + key[:3]] = (int(w[w.index("regs") + 1]), int(w[w.index("spill") + 1]), int(w[w.index("occ") + 1]))
cols = sorted({k[4] for k in t}); rows = sorted({k[1:4] for k in t})
print("build shape grid", *[f"{v}:regs/spill/occ" for v in vs], *[f"{c}:{'/'.join(vs)}" for c in cols])
for r in rows:
    m = lambda v, c: sum(t[(v,) + r + (c,)]) / len(t[(v,) + r + (c,)])
    print(*r, *["%d/%d/%d" % meta[(v,) + r] for v in vs], *["/".join(f"{m(v,c):.3f}" for v in vs) for c in cols])
