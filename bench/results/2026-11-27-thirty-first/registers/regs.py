import re,subprocess,sys
txt=open(sys.argv[1]).read().split('Compiling entry function')
pat=sys.argv[2] if len(sys.argv)>2 else 'register_config<8, 5,'
for chunk in txt[1:]:
  name=re.match(r" '([^']+)'",chunk)[1]
  dem=subprocess.run(['c++filt',name],capture_output=True,text=True).stdout.strip()
  regs=re.search(r'Used (\d+) registers',chunk); sp=re.search(r'(\d+) bytes spill stores',chunk)
  if pat in dem:
    m=re.search(r'register_config<([^>]*)>',dem); op=re.search(r'op::(\w+)',dem)
    print(op[1] if op else '?', m[1], 'regs',regs[1],'spill',sp[1])
