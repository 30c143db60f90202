import re, sys
keys=[("Duration","dur"),("DRAM Throughput","dram%"),("L2 Cache Throughput","l2%"),("L1/TEX Cache Throughput","l1%"),("Issued Warp Per Scheduler","issue"),("Eligible Warps Per Scheduler","elig"),("Achieved Active Warps Per SM","warps"),("Executed Instructions  ","instr")]
cols=[64,128,256,512]
for f in sys.argv[1:]:
    txt=open(f).read()
    blocks=txt.split("\n  void register_kernel")[1:]
    print(f)
    print("case cols cfg grid", *[k[1] for k in keys])
    for i,b in enumerate(blocks):
        cfg=re.search(r"register_config<([^>]*)>",b).group(1).replace(" ","")
        grid=re.search(r"\((\d+), 1, 1\)x",b).group(1)
        vals=[]
        for k,_ in keys:
            m=re.search(re.escape(k)+r"\s+\S*\s+([\d,.]+)",b)
            vals.append(m.group(1) if m else "?")
        print(i, cols[i//6], cfg[:12], grid, *vals)
