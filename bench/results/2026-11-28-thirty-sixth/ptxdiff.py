import re, sys, subprocess
def parse(path):
    out = {}; name = None
    for line in open(path):
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m: name = m.group(1); continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m and name: out.setdefault(name, {})['spill'] = int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and name: out.setdefault(name, {})['regs'] = int(m.group(1))
    return out
a, b = parse(sys.argv[1]), parse(sys.argv[2])
names = sorted(set(a) & set(b))
dem = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True).stdout.split('\n')
diff = 0
for n, d in zip(names, dem):
    if a[n] != b[n]:
        diff += 1
        short = re.sub(r'rowfuse::', '', d)
        m = re.search(r'register_config<([^>]*)>', short)
        print(a[n], '->', b[n], (m.group(1) if m else short[:160]), 'T=', 'half' if '__half' in short else 'bf16' if 'bfloat' in short else 'float', 'fp8' if 'fp8' in short else '')
print(len(names), 'common kernels,', diff, 'differ; only in one:', len(set(a) ^ set(b)))
