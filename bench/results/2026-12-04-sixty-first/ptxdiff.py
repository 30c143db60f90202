import re,subprocess,sys
def parse(f):
    out=[];name=None
    for line in open(f):
        m=re.search(r"Compiling entry function '(\S+)'",line)
        if m: name=m.group(1)
        m=re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores",line)
        if m: st=(int(m.group(1)),int(m.group(2)))
        m=re.search(r"Used (\d+) registers",line)
        if m and name: out.append((name,int(m.group(1)),st)); name=None
    return dict((n,(r,s)) for n,r,s in out)
a_,b_=sys.argv[1],sys.argv[2]
for t in ['fp16','bf16']:
    a=parse(f'{a_}/obj/ptxas_ops_{t}.txt'); b=parse(f'{b_}/obj/ptxas_ops_{t}.txt')
    for k in a:
        if k in b and a[k]!=b[k] and (a[k][1]!=b[k][1]):
            d=subprocess.run(['c++filt',k],capture_output=True,text=True).stdout.strip()
            m=re.search(r'register_config<(.*?)>',d)
            op='log' if 'softmax<true' in d else ('sm' if 'softmax<false' in d else '?')
            print(t,op,a[k],'->',b[k],m.group(1)[:70] if m else d[:100])
