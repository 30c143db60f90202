# spills.py BUILD...: the norm-backward kernels of the bench objects whose registers or spills
# differ between builds (ptxas -v logs BUILD/obj/ptxas_backward_{fp16,fp32}.txt), those that spill
# in one build at least, phased kernels left out: registers / spill-store bytes per build.
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
if __name__ == "__main__":
    builds = sys.argv[1:]  # paths like s41/M s42/P s42/Q
    for t in ("fp16", "fp32"):
        ps = [parse(f"{b}/obj/ptxas_backward_{t}.txt") for b in builds]
        keys = [k for k in ps[0] if "norm_backward" in k and any(p.get(k) != ps[0][k] for p in ps[1:])]
        names = subprocess.run(['c++filt'], input='\n'.join(keys), capture_output=True, text=True).stdout.split('\n')
        print(t, len(keys), "differ")
        for k, d in zip(keys, names):
            d = d.replace('rowfuse::', '').replace('(tuning::column_placement)', 'cp')
            d = re.sub(r'\(op::norm_backward.*', '', d)
            m = re.search(r'register_config<([^>]*)>', d)
            cfg = m.group(1) if m else re.sub(r'.*engine::(\w+_config<[^>]*>).*', r'\1', d)[:60]
            if 'true, false>' in cfg.replace(' ', ' ') and cfg.endswith('true, false'): continue
            kind = "layernorm" if "norm_backward<true" in d else "rmsnorm"
            store = "resid" if "tee_node" in d or "dropout" in d else ""
            sp = [p.get(k, (0,(0,0)))[1][0] for p in ps]
            if max(sp) == 0: continue
            print(f"  {t} {kind:9s} {store:5s} <{cfg}> " + " ".join(f"{b.split('/')[-1]}:{p.get(k)[0]}/{p.get(k)[1][0]}" for b,p in zip(builds,ps)))
