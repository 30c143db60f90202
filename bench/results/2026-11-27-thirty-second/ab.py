import csv,sys,collections,glob,os
D=sys.argv[1]; names=sys.argv[2].split(','); prefix=sys.argv[3] if len(sys.argv)>3 else ''
best=collections.defaultdict(dict); checks=collections.Counter()
for n in names:
  for f in glob.glob(f'{D}/{n}-{prefix}[12].csv'):
    for r in csv.DictReader(open(f)):
      if r['impl']!='fused': continue
      k=(r['op'],int(r['cols']))
      best[k][n]=max(best[k].get(n,0),float(r['ratio_to_copy']))
      if r['check']: checks[(n,r['check'])]+=1
ops=sorted(set(k[0] for k in best))
for op in ops:
  print(op)
  for k in sorted(x for x in best if x[0]==op):
    print('  %7d '%k[1]+'  '.join('%s %.3f'%(n[4:],best[k].get(n,0)) for n in names))
print(dict(checks))
