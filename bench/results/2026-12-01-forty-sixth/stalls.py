import csv,sys,collections
f=sys.argv[1]; top=int(sys.argv[2]) if len(sys.argv)>2 else 25
lines=open(f).read().splitlines()
start=[i for i,l in enumerate(lines) if l.startswith('"Address"')][0]
rows=list(csv.reader(lines[start:]))
hdr=rows[0]; data=rows[1:]
stall_cols=[i for i,h in enumerate(hdr) if h.startswith('stall_')]
tot=collections.Counter()
samp=hdr.index("Warp Stall Sampling (All Samples)")
def num(x):
  try: return float(x.replace(',',''))
  except: return 0.0
allsum=sum(num(r[samp]) for r in data)
for r in data:
  for i in stall_cols: tot[hdr[i]]+=num(r[i])
s=sum(tot.values())
print("total samples",allsum, "stall-col sum", s)
for k,v in tot.most_common(14): print(f"{k:28s} {v/s:6.3f}")
print("--- top instructions by samples")
idx=sorted(range(len(data)),key=lambda i:-num(data[i][samp]))[:top]
for i in sorted(idx):
  r=data[i]
  reasons=sorted(((num(r[j]),hdr[j][6:]) for j in stall_cols),reverse=True)[:2]
  print(f"{i:5d} {num(r[samp])/allsum:6.3f} {r[1][:70]:70s} {reasons}")
