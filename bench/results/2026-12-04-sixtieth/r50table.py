# r50table.py DIR VARIANTS: round 50 (callR.sh) as one line a case, a column a build (p0o0,p0o1,p1o1).
import re,sys,glob,os
d=sys.argv[1]
rows={}
order=[]
for f in sorted(glob.glob(d+'/rs-*.txt')):
    v=os.path.basename(f)[3:-4]
    for line in open(f):
        m=re.match(r'(\S+)\s+(\S+)\s+(\d+) (P\d+)\s+(B\d+)\s+(\S+)\s+(C\d+)\s+(min\d+)\s+(.*?)(direct|staged) (tiles|persist)\s+regs\s+(\d+) spill\s+(\d+) occ\s+(\d+).*ratio ([\d.]+)',line)
        if not m: continue
        op,dt,cols,P,B,kind,C,mn,extra,st,gr,regs,spill,occ,r=m.groups()
        part=v.split('-')[0]
        key=(op,int(cols),f"{P}{B}{C}{mn}{extra.strip() and ' '+extra.strip()}",st,gr)
        if key not in rows: order.append(key)
        rows.setdefault(key,{})[v.split('-',1)[1]]=(float(r),int(regs),int(spill))
vs=sys.argv[2].split(',')
print("op cols shape load grid | "+" | ".join(vs))
for k in order:
    print(*k, "|", " | ".join(("%.3f %3dr %2ds"%rows[k][v]) if v in rows[k] else "-" for v in vs))
