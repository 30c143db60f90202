# q.py OP COLS: one launch of QuACK's forward (softmax or rmsnorm, fp16, 2^27 elements) inside a
# profiler range, after three warm-up calls (the first compiles), for ncu --profile-from-start off.
import sys

import torch

op, cols = sys.argv[1], int(sys.argv[2])
rows = 2**27 // cols
x = torch.rand(rows, cols, device="cuda", dtype=torch.float16) * 8 - 4
w = torch.rand(cols, device="cuda", dtype=torch.float16) + 0.5
if op == "softmax":
    from quack.softmax import softmax_fwd

    def call():
        return softmax_fwd(x)
else:
    from quack.rmsnorm import rmsnorm_fwd

    def call():
        return rmsnorm_fwd(x, w, eps=1e-6)
for _ in range(3):
    call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
