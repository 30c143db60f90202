# sassdiff.py A.sass B.sass REGEX: the kernels whose names match, instructions and opcode counts that differ (cuobjdump -sass of two builds, sass.sh).
import re,sys,collections
def kernels(p):
    ks={};cur=None
    for line in open(p):
        m=re.match(r'\s+Function : (\S+)',line)
        if m: cur=m.group(1); ks[cur]=[]; continue
        if cur:
            m=re.search(r'/\*[0-9a-f]{4}\*/\s+(.*?);',line)
            if m: ks[cur].append(m.group(1).strip())
    return ks
a=kernels(sys.argv[1]); b=kernels(sys.argv[2]); pat=sys.argv[3]
for k in a:
    if re.search(pat,k) and k in b:
        ca=collections.Counter(re.match(r'(@!?U?P\w+\s+)?([A-Z0-9_.]+)',i).group(2).split('.')[0] for i in a[k])
        cb=collections.Counter(re.match(r'(@!?U?P\w+\s+)?([A-Z0-9_.]+)',i).group(2).split('.')[0] for i in b[k])
        print(k[:200]); print(' instructions', len(a[k]), len(b[k]), {o:cb[o]-ca[o] for o in set(ca)|set(cb) if ca[o]!=cb[o]})
