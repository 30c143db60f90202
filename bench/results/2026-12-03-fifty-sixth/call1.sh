#!/bin/bash
# call1.sh: on the device, main (M) against this session's tree (N), fp16:
#  1. single elements (bench/experiments/single_elements.cu: the input one element off the grid,
#     the output on it) at widths across the rows 2049-32768 that became one sized row, and
#     1000 / 1500 (unchanged rows) as controls, M N M N;
#  2. rowfuse-bench: log-softmax aligned where its H200 rows were dropped and off the grid where
#     rows gained phased kernels; layernorm off the grid at its two new phased rows, softmax and
#     rmsnorm as controls (two passes, both builds checked against unfused first).
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
b=$(mktemp -d) && tar xzf $R/.device-carry/s56/pack.tgz -C $b
d=/tmp/call1; mkdir -p $d
W="1000 1500 2049 2600 3071 3073 4095 4097 5119 5121 6500 8191 8193 12000 16383 16385 20479 20481 26000 32767"
for pass in 1 2; do for v in M N; do
  $b/se-$v $W > $d/single-$v-$pass.txt 2>&1; echo "single $v $pass rc=$?"
done; done
python3 - $d <<'PY'
import sys, collections
r = collections.defaultdict(list); plan = {}
for v in 'MN':
    for p in '12':
        for line in open(f'{sys.argv[1]}/single-{v}-{p}.txt'):
            f = line.split()
            if len(f) != 7: print(line.strip()); continue
            r[(f[0], int(f[1]), v)].append(float(f[5])); plan[(f[0], int(f[1]), v)] = f[2:5] + [f[6]]
print('op cols M N (N-M) | M plan | N plan')
for op, c in sorted({(k[0], k[1]) for k in r}):
    m, n = r[(op, c, 'M')], r[(op, c, 'N')]
    print(op, c, '%.3f %.3f (%+.3f)' % (sum(m)/len(m), sum(n)/len(n), sum(n)/len(n)-sum(m)/len(m)),
          '|', *plan[(op, c, 'M')], '|', *plan[(op, c, 'N')])
PY
OPS=log_softmax AL=4096,8200,12288,16384,22528,24576,90112,98304,180224,196608,212992,229376 \
  MIS=601,4601,5801,11001,90001,180001,220001 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call1-log $b M N
OPS=layernorm,softmax,rmsnorm AL=640,2560,3000 MIS=601,2301,4601,11001 PASSES=2 \
  bash ../2026-12-02-fifty-fourth/run1.sh call1-norms $b M N
tar czf $OUT/call1.tgz -C /tmp call1
