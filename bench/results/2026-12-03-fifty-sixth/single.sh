#!/bin/bash
# single.sh NAME V...: on the device, bench/experiments/single_elements.cu built from each tree V
# (the input one element off the 16-byte grid, the output on it: single 16-bit elements), the four
# ops fp16 at widths W (default below), two passes interleaved; prints each op and width's ratio
# to copy per build (the mean of the passes), the change against the first build, and the plans.
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd); name=$1; shift
b=$(mktemp -d) && tar xf $R/.device-carry/s56/${PACK:-pack.tgz} -C $b
d=/tmp/$name; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
W=${W:-"1000 1100 1500 2000 2047 2049 2600 3071 3073 4095 4097 5119 5121 6500 8191 8193 12000 16383 16385 20479 20481 26000 32767"}
for pass in 1 2; do for v in "$@"; do
  $b/se-$v $W > $d/single-$v-$pass.txt 2>&1; echo "single $v $pass rc=$?"
done; done
python3 - $d "$@" <<'PY'
import sys, collections
d, vs = sys.argv[1], sys.argv[2:]
r = collections.defaultdict(list); plan = {}
for v in vs:
    for p in '12':
        for line in open(f'{d}/single-{v}-{p}.txt'):
            f = line.split()
            if len(f) != 7: print(line.strip()); continue
            r[(f[0], int(f[1]), v)].append(float(f[5])); plan[(f[0], int(f[1]), v)] = ' '.join(f[3:5]) + ' ' + f[6]
print('op cols', *vs, '|', *('plan-' + v for v in vs))
for op, c in sorted({(k[0], k[1]) for k in r}):
    m = [sum(r[(op, c, v)]) / len(r[(op, c, v)]) for v in vs]
    print(op, c, '%.3f' % m[0], *('%.3f (%+.3f)' % (x, x - m[0]) for x in m[1:]), '|', *(plan[(op, c, v)] for v in vs))
PY
tar czf $OUT/$name.tgz -C /tmp $name
