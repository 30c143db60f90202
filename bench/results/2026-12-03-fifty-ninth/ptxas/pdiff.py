import re, sys
def parse(p):
    d={}; cur=None
    for line in open(p):
        m=re.search(r"Compiling entry function '(\S+)'",line)
        if m: cur=m.group(1); continue
        m=re.search(r"Used (\d+) registers",line)
        if m and cur: d.setdefault(cur,{})['r']=int(m.group(1))
        m=re.search(r"(\d+) bytes spill stores",line)
        if m and cur: d.setdefault(cur,{})['s']=int(m.group(1))
    return d
a=parse(sys.argv[1]); bs=[parse(p) for p in sys.argv[2:]]
for k in sorted(a):
    if any(b.get(k)!=a.get(k) for b in bs):
        cfg=re.search(r'register_configI(.*?)ELNS_6tuning16column_placementE(\d)(.*?)EENS_2op',k)
        op=re.search(r'NS_2op7(softmax)ILb(\d)ELb(\d)E',k)
        if not cfg: continue
        name=('log' if op and op.group(2)=='1' else 'softmax') if op else 'other'
        print(f"{name:8s}", re.sub(r'E?L[ib]','/',cfg.group(1)), 'cp',cfg.group(2), re.sub(r'E?L[ib]','/',cfg.group(3)), f"{a[k]['r']}/{a[k].get('s',0)}", *[f"{b[k]['r']}/{b[k].get('s',0)}" for b in bs])
