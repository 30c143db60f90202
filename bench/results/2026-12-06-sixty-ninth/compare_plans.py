# compare_plans.py M V53 NEW: plan_dump.sh's runs for three trees on one device; prints the runs
# of widths where NEW plans otherwise than M, each marked V53 (as V53 plans) or NEITHER.
import sys,collections
def load(p):
    m={}
    for l in open(p):
        op,lay,a,b,key=l.split(None,4); a=int(a); b=int(b); step=8 if lay=='al' else 1
        for c in range(a,b+1,step): m[(op,lay,c)]=key.strip()
    return m
M=load(sys.argv[1]); V=load(sys.argv[2]); N=load(sys.argv[3])
runs=[];prev=None
for k in sorted(N):
    cls='M' if N[k]==M.get(k) else ('V53' if N[k]==V.get(k) else 'NEITHER')
    if M.get(k)==V.get(k)==N[k]: cls='same'
    tag=(k[0],k[1],cls,N[k])
    if prev and prev[0]==tag: prev[2]=k[2]
    else:
        prev=[tag,k[2],k[2]]; runs.append(prev)
for tag,a,b in runs:
    if tag[2]!='same': print(tag[0],tag[1],a,b,tag[2],tag[3])
