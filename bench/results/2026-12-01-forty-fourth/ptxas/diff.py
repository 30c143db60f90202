import re,sys
def parse(f):
    out={}; fn=None
    for line in open(f):
        m=re.search(r"Compiling entry function '(\S+)'",line)
        if m: fn=m.group(1); continue
        m=re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads',line)
        if m and fn: out.setdefault(fn,{})['spill']=int(m.group(1))
        m=re.search(r'Used (\d+) registers',line)
        if m and fn: out.setdefault(fn,{})['regs']=int(m.group(1))
    return out
a=parse(sys.argv[1]); b=parse(sys.argv[2])
n=0
for fn in a:
    if fn in b and a[fn]!=b[fn]:
        n+=1
        cfg=re.search(r'register_configILi(\d+)ELi(\d+)ELi(\d+)ELb(\d)ELb(\d)ELi(\d+)ELi(\d+)',fn)
        op=re.search(r'NS_2op(\d+)(\w+?)I',fn)
        print(a[fn],'->',b[fn], cfg.groups() if cfg else fn[:60], op.group(2)[:12] if op else '', 'dropout' if 'dropout' in fn else '')
print(n,'of',len(a),'differ')
