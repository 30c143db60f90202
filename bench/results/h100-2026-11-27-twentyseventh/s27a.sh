#!/bin/bash
# Twenty-seventh session, call 1: where the under-target cells spend their time (ncu on
# rowfuse-bench, HEAD's build, fp16), and how many clusters of each size an H100 holds.
# Results re-packed into $OUT/s27a.tgz after every step.
R=/tmp/s27a; mkdir -p $R /tmp/bin
for f in .device-carry/s27/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27a.tgz .); }
start=$(date +%s)
nvcc -arch=sm_90 -o /tmp/bin/clusters .device-carry/s27/clusters.cu && /tmp/bin/clusters > $R/clusters.txt 2>&1
pack
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
B=/tmp/bin/rfb-h
# the timed bench first (fused, copy), so that the profiled cells have their ratios beside them
timeout 120 $B --op layernorm,softmax,layernorm_fp8,residual,layernorm_backward,rmsnorm_backward --dtype fp16 --cols 64,1024,4096,32768,65536,131072,262144 --variant fused,copy --no-check --reps 20 --budget-ms 150 --format csv --out $R/bench.csv > /dev/null 2>> $R/bench.log
echo "bench rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
for c in "layernorm 64" "layernorm 65536" "layernorm_fp8 65536" "residual 65536" "layernorm 131072" "softmax 262144" "layernorm_backward 1024" "layernorm_backward 32768" "rmsnorm_backward 4096"; do
  set -- $c
  tag=$1_$2
  timeout 100 $NCU -k regex:"register_kernel|cluster_kernel|streaming_kernel" -s 2 -c 1 --set full --import-source no -f -o $R/$tag $B --op $1 --dtype fp16 --cols $2 --variant fused --no-check --reps 5 --budget-ms 20 > $R/$tag.log 2>&1
  $NCU -i $R/$tag.ncu-rep --page source --csv --print-source sass > $R/$tag-sass.csv 2>&1
  $NCU -i $R/$tag.ncu-rep --page details --csv > $R/$tag-details.csv 2>&1
  rm -f $R/$tag.ncu-rep; xz -T4 $R/$tag-sass.csv
  echo "$tag at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
done
cat $R/log.txt
