import re, sys, subprocess
def parse(f):
    out = {}; cur = None
    for l in open(f):
        m = re.search(r"Compiling entry function '([^']+)'", l)
        if m: cur = m.group(1); spill = (0, 0); continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", l)
        if m and cur: spill = (int(m.group(1)), int(m.group(2)))
        m = re.search(r"Used (\d+) registers", l)
        if m and cur: out[cur] = (int(m.group(1)), spill); cur = None
    return out
a_, b_ = sys.argv[1:3]
import os
for t in ("fp16", "fp32"):
    if not os.path.exists(f"{b_}/obj/ptxas_backward_{t}.txt"): continue
    a = parse(f"{a_}/obj/ptxas_backward_{t}.txt"); b = parse(f"{b_}/obj/ptxas_backward_{t}.txt")
    print(t, len(a), len(b), "kernels; only in one:", len(set(a) ^ set(b)))
    keys = [k for k in a if k in b and a[k] != b[k]]
    names = subprocess.run(['c++filt'], input='\n'.join(keys), capture_output=True, text=True).stdout.split('\n')
    for k, d in zip(keys, names):
        d = d.replace('rowfuse::', '').replace('(tuning::column_placement)', 'cp')
        kind = "layernorm" if "norm_backward<true" in d else "rmsnorm" if "norm_backward<false" in d else "other"
        store = "resid" if "tee_node" in d or "dropout" in d else ""
        m = re.search(r'register_config<([^>]*)>', d)
        cfg = m.group(1) if m else re.sub(r'.*engine::(\w+_config<[^>]*>).*', r'\1', d)[:60]
        wb = 'group' if m and cfg.split(',')[3].strip() == 'false' else 'other'
        print(f"  {wb:5s} {kind:9s} {store:5s} <{cfg}> A {a[k]} B {b[k]}")
