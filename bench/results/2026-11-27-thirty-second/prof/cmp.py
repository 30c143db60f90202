import re,subprocess,sys
def parse(f):
  out={}
  for chunk in open(f).read().split('Compiling entry function')[1:]:
    name=re.match(r" '([^']+)'",chunk)[1]
    dem=subprocess.run(['c++filt',name],capture_output=True,text=True).stdout.strip()
    regs=re.search(r'Used (\d+) registers',chunk); sp=re.search(r'(\d+) bytes spill stores',chunk)
    m=re.search(r'register_config<([^>]*)>',dem)
    if m: out[m[1].replace('(rowfuse::tuning::column_placement)','cp')]=(int(regs[1]),int(sp[1]))
  return out
a=parse(sys.argv[1]); b=parse(sys.argv[2])
for k in sorted(set(a)|set(b)):
  if k.split(', ')[-2]=='true':  # phased
    print(k, a.get(k), '->', b.get(k))
