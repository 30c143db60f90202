# pdiff2.py A B: ptxas -v registers / spill bytes of the kernels of two builds that differ, names
# normalised (the register_config's last template argument, PadsValues, dropped).
import gzip, re, sys
def parse(p):
    d = {}; cur = None
    for line in (gzip.open(p, 'rt') if p.endswith('.gz') else open(p)):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            cur = m.group(1); continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur: d.setdefault(cur, {})['r'] = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and cur: d.setdefault(cur, {})['s'] = int(m.group(1))
    return d
def norm(k, drop):
    return re.sub(r'(ELb[01]E)(ELb[01]EEENS_2op)', r'\2', k) if drop else k
a = parse(sys.argv[1]); b = parse(sys.argv[2])
bn = {}
for k, v in b.items():
    kk = re.sub(r'ELb([01])EEENS_2op', 'EEENS_2op', k)  # drop PadsValues
    bn.setdefault(kk, []).append((k, v))
print(len(a), 'kernels in', sys.argv[1], ';', len(b), 'in', sys.argv[2])
for k, v in sorted(a.items()):
    for kb, vb in bn.get(k, []):
        if vb != v:
            op = re.search(r'NS_2op(\d+)(\w+?)I', kb)
            print(f"{v.get('r')}/{v.get('s',0)} -> {vb.get('r')}/{vb.get('s',0)}  pads={kb[kb.index('EEENS_2op')-1]}  {kb[:120]}")
