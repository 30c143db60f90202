import sys, glob, collections, re
d = sys.argv[1]
t = collections.defaultdict(list)
meta = {}
for f in sorted(glob.glob(f"{d}/r*-*.txt")):
    b = re.sub(r"-\d\.txt$", "", f.split("/")[-1])
    for line in open(f):
        w = line.split()
        if "ratio" not in w or w[0] == "copy": continue
        cols = int(w[2]); shape = f"{w[3]}{w[4]}{w[6]}"; pers = "persist" if "persist" in w else "tiles"
        r = float(w[w.index("ratio") + 1]); regs = int(w[w.index("regs") + 1]); occ = int(w[w.index("occ") + 1])
        t[(b, shape, pers, cols)].append(r); meta[(b, shape, pers)] = (regs, occ)
builds = sorted({k[0] for k in t}); keys = sorted({(k[1], k[2]) for k in t})
cols = sorted({k[3] for k in t})
print("build shape grid regs occ", *cols)
for b in builds:
    for s, p in keys:
        if (b, s, p) not in meta: continue
        print(b, s, p, *meta[(b, s, p)], *[f"{sum(t[(b,s,p,c)])/len(t[(b,s,p,c)]):.3f}" for c in cols])
