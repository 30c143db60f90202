#!/bin/bash
# pack-carry.sh: on the development machine, .device-carry/s64 for callC.sh: A2's two builds
# (.device-carry/s63, prepare-A2.sh) and the GPU suites of the CI build in .device-carry/gpuA and
# gpuB that have not passed on the device since 3c2e07f, smallest first up to SUITES_MB (23) of xz,
# each set as one tar.xz, so that both travel in one call with the tracked tree (18.5 MB).
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd); C=$R/.device-carry; out=$C/s64; tmp=$(mktemp -d)
passed='gpu_(bad_input_backward|collective_norm|dropout_warp_draws|collective_online|family_dropout|backward_norm|norm_fused|precision_edges|bad_input|fp8_rounding|phased_rows)$'
mkdir -p $out $tmp/s64s
tar cf - -C $C s63/rfb-M s63/rfb-A2 | xz -9 -T2 > $out/a2.tar.xz
total=0
for f in $(for s in $C/gpuA/gpu_* $C/gpuB/gpu_*; do
             basename $s | grep -Eq "$passed" || echo "$(xz -6 -T2 -c $s | wc -c) $s"; done | sort -n | cut -d' ' -f2); do
  size=$(xz -6 -T2 -c $f | wc -c)
  ((total + size <= ${SUITES_MB:-23} * 1000000)) || continue
  total=$((total + size)); cp $f $tmp/s64s/
done
cp $C/gpuA/built-from.txt $tmp/s64s/
tar cf - -C $tmp s64s | xz -9 -T2 > $out/suites.tar.xz
rm -rf $tmp
ls -l $out; tar tJf $out/suites.tar.xz | grep -c gpu_
