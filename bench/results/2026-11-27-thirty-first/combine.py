# The final tables of bench/NOTES.md (thirty-first session): per op and width, 5d8f8cf's build
# against the committed tables, from the call that timed them (rmsnorm-*, six-packs-*,
# five-packs-*, in that order). Usage: python3 combine.py fp16|bf16 [mis-]
import csv,collections,os,sys
R=os.path.dirname(os.path.abspath(__file__))+'/'
def load(d,b,pre):
  best=collections.defaultdict(float)
  for p in (1,2):
    try:
      for r in csv.DictReader(open(f'{d}/{b}-{pre}{p}.csv')):
        if r['impl']=='fused': k=(r['op'],int(r['cols'])); best[k]=max(best[k],float(r['ratio_to_copy']))
    except FileNotFoundError: pass
  return best
dt=sys.argv[1]; pre=sys.argv[2] if len(sys.argv)>2 else ''
runs=[(R+f'rmsnorm-{dt}','rfb-old','rfb-p6',{'rmsnorm'}),(R+f'six-packs-{dt}','rfb-old','rfb-new',None),(R+f'five-packs-{dt}','rfb-old','rfb-new',None)]
res={}
for d,o,n,ops in runs:
  old=load(d,o,pre); new=load(d,n,pre)
  for k in new:
    if ops and k[0] not in ops: continue
    if k not in res and k in old: res[k]=(old[k],new[k])
ops=['softmax','log_softmax','rmsnorm']
cols=sorted(set(k[1] for k in res if k[0] in ops))
print('| cols | '+' | '.join(ops)+' |'); print('|---'*4+'|')
for c in cols:
  cells=[]
  for op in ops:
    if (op,c) in res:
      o,n=res[(op,c)]; cells.append(f'{o:.2f} -> {n:.2f}' if abs(o-n)>0.015 else f'{n:.2f}')
    else: cells.append('')
  print(f'| {c} | '+' | '.join(cells)+' |')
