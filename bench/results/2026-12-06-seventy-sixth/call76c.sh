#!/bin/bash
# call76c.sh: on the device, after call76a.sh: ncu of VL's, VL2's and VW's layernorm kernels at the
# cells the seventy-fifth session profiled (aligned 49152, 49151 one element off) by
# ../2026-12-05-sixty-eighth/callP.sh, with each launch's warp instructions; then the GPU suites
# built with VL (build/device-slim, the device preset for sm_90 SASS, stripped: gpu.phased_rows,
# norm_shapes_layernorm, random_differential_layernorm, norm_numerics, cluster_engine) under ctest
# by ../2026-12-06-seventy-third/call73s.sh (log ctest76.log). Carry .device-carry/t76a and
# .device-carry/t76s.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t76a
for v in VL VL2 VW; do
  cases="layernorm:fp16:49152"; [ $v != VL2 ] && cases="$cases layernorm:fp16:49151:m"
  BIN=$C/rfb-$v CASES="$cases" bash ../2026-12-05-sixty-eighth/callP.sh 2>&1 | tail -30
  mv $OUT/callP.tgz $OUT/call76c-ncu-$v.tgz 2>/dev/null
  mkdir -p /tmp/x/$v && tar xzf $OUT/call76c-ncu-$v.tgz -C /tmp/x/$v 2>/dev/null; rm -rf /tmp/callP
done
for f in /tmp/x/*/callP/*-source.csv.xz; do
  [ -f "$f" ] || continue; xz -dk "$f"; f=${f%.xz}
  echo "== $f"; python3 - "$f" <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); h=rows[1]; i=h.index("Instructions Executed")
print("warp instructions", sum(int(r[i]) for r in rows[2:]))
PY
done
JOBS=6 SUITES=$R/.device-carry/t76s LOG=ctest76 bash ../2026-12-06-seventy-third/call73s.sh
