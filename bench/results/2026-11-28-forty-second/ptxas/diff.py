# diff.py A B: every kernel of the bench's backward objects whose registers or spills differ
# between builds A and B (ptxas -v logs A/obj/ptxas_backward_{fp16,fp32}.txt; a type B lacks is
# skipped): group rows marked, (registers, (spill store, spill load bytes)) per build.
import re, sys, subprocess
from spills import parse
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
