#!/bin/bash
# sweep.sh NAME BIN: on the device, one slim rowfuse-bench build BIN (fp16 ops) at widths from 40 to
# 262143 columns off the grid (--misalign) and at the aligned multiples of 8 beside them, one pass:
# where the phased rows stand against the aligned ones.
cd "$(dirname "$0")"; name=$1; B=$2; d=/tmp/$name; mkdir -p $d
op="--op softmax,log_softmax,rmsnorm,layernorm --dtype fp16"
$B $op --cols 40,104,136,200,296,504,776,1000,1504,2048,3000,4096,6000,8192,12000,16384,24000,32768,50256,65536,100000,151936,262144 --variant fused,copy --no-check --budget-ms 20 --format csv --out $d/time-al.csv > /dev/null 2>&1
$B $op --cols 41,105,137,201,297,505,777,1001,1505,2049,3001,4097,6001,8193,12001,16385,24001,32769,50257,65537,100003,151937,262143 --variant fused,copy --no-check --budget-ms 20 --misalign --format csv --out $d/time-mis.csv > /dev/null 2>&1
python3 - $d <<'PY'
import csv, sys, collections
r = collections.defaultdict(dict)
for lay in ('al', 'mis'):
    for row in csv.DictReader(open(sys.argv[1] + '/time-%s.csv' % lay)):
        if row.get('impl') == 'fused':
            c = int(row['cols']); c = (c + 7) // 8 * 8 if lay == 'mis' and c % 8 > 4 else c // 8 * 8
            r[(row['op'], c)][lay] = float(row['ratio_to_copy'])
for k in sorted(r): print(*k, '%.3f %.3f' % (r[k].get('al', 0), r[k].get('mis', 0)))
PY
tar czf $OUT/$name.tgz -C /tmp $name
