# opmix.py QUACK.csv ROWFUSE.csv: ncu source pages (SASS, --csv) as executed warp instructions and stall samples an opcode, side by side.
import csv,sys,re,collections,lzma
def load(p):
    rows=list(csv.reader(lzma.open(p,'rt') if p.endswith('.xz') else open(p)))
    hdr=rows[1]; i_src=hdr.index("Source"); i_ex=hdr.index("Instructions Executed"); i_st=hdr.index("Warp Stall Sampling (All Samples)")
    ops=collections.Counter(); st=collections.Counter(); tot=0; stt=0
    for r in rows[2:]:
        if len(r)<=i_ex: continue
        s=r[i_src].strip(); 
        m=re.match(r'(@!?U?P\w+\s+)?([A-Z0-9_]+)(\.[A-Z0-9_.]*)?',s)
        if not m: continue
        op=m.group(2); n=int(r[i_ex] or 0); ss=int(r[i_st] or 0)
        ops[op]+=n; st[op]+=ss; tot+=n; stt+=ss
    return ops,st,tot,stt
a=load(sys.argv[1]); b=load(sys.argv[2])
print("total instr (M): %.1f vs %.1f ; stall samples %d vs %d"%(a[2]/1e6,b[2]/1e6,a[3],b[3]))
keys=sorted(set(a[0])|set(b[0]),key=lambda k:-(b[0][k]+a[0][k]))
for k in keys[:30]:
    print("%-8s %7.2f M %5.1f%%st | %7.2f M %5.1f%%st"%(k,a[0][k]/1e6,100*a[1][k]/max(1,a[3]),b[0][k]/1e6,100*b[1][k]/max(1,b[3])))
