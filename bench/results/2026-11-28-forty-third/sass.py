import csv,sys,re,collections
def load(f):
    rows=list(csv.reader(open(f)))
    hdr=rows[1]; data=rows[2:]
    ia=hdr.index('Source'); ie=hdr.index('Instructions Executed'); isamp=hdr.index('Warp Stall Sampling (All Samples)')
    out=[]
    for r in data:
        if len(r)<=ie: continue
        try: n=int(r[ie].replace(',',''))
        except: n=0
        try: s=int(r[isamp].replace(',',''))
        except: s=0
        out.append((r[0],r[ia].strip(),n,s))
    return out
f=sys.argv[1]
ins=load(f)
tot=sum(n for _,_,n,_ in ins); ts=sum(s for *_,s in ins)
print(f, 'total warp inst',tot,'samples',ts)
op=collections.Counter(); smp=collections.Counter()
for a,src,n,s in ins:
    o=src.split()[0] if src else '?'
    if o.startswith('@'): o=src.split()[1]
    o=o.split('.')[0]
    op[o]+=n; smp[o]+=s
for o,n in op.most_common(30): print(f"{o:10s} {n/tot*100:5.1f}% inst  {smp[o]/ts*100:5.1f}% samples   per-el {n*32/2**27:.2f}")
