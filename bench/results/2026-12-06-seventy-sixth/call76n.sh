#!/bin/bash
# call76n.sh: on the device, ncu (../2026-12-05-sixty-eighth/callP.sh) of layernorm fp16 under M
# and VL at 49151 one element off and under VL and VL2 at 131072 aligned, with each launch's warp
# instructions. Carry .device-carry/t76a.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/t76a
for spec in M:49151:m VL:49151:m VL:131072 VL2:131072; do
  IFS=: read -r v cols m <<< "$spec"
  BIN=$C/rfb-$v CASES="layernorm:fp16:$cols${m:+:m}" bash ../2026-12-05-sixty-eighth/callP.sh 2>&1 | grep -E "Duration|DRAM Throughput|Registers|Issue Slots|Achieved Active" | sed "s/^/$v $cols$m: /"
  mkdir -p /tmp/x/$v-$cols && tar xzf $OUT/callP.tgz -C /tmp/x/$v-$cols && mv $OUT/callP.tgz $OUT/call76n-$v-$cols.tgz; rm -rf /tmp/callP
  f=$(ls /tmp/x/$v-$cols/callP/*-source.csv.xz); xz -dk $f
  python3 - ${f%.xz} <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); h=rows[1]; i=h.index("Instructions Executed")
print("warp instructions", sum(int(r[i]) for r in rows[2:]))
PY
done
