#!/bin/bash
# On the device (16 cores): rowfuse-bench built from this tree with SASS for sm_90 in build/dev,
# then main's forward ops and pipelines (fp16, fp32, fused and copy, 32-262144 columns), then ncu
# of one launch of the fp16 pipelines' row kernels, their executed SASS summed by opcode
# (bench/experiments/sass_mix.py).
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
d=call1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $d/device.txt
cmake -S $R -B $R/build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DROWFUSE_BUILD_TESTS=OFF -DROWFUSE_BUILD_EXAMPLES=OFF -DROWFUSE_BENCH_PTX_ONLY=OFF \
  -DROWFUSE_BENCH_FAST_COMPILE=OFF -DROWFUSE_BENCH_FP32_PIPELINES=ON > $d/configure.log 2>&1
( time ninja -C $R/build/dev -j 16 rowfuse-bench ) > $d/build.log 2>&1; echo "build rc=$? $(date +%T)"; tail -3 $d/build.log
B=$R/build/dev/bench/rowfuse-bench
$B --op softmax,log_softmax,layernorm,rmsnorm,attention,residual,residual_tee,layernorm_fp8 \
  --dtype fp16,fp32 --cols 32:262144 --variant fused,copy --no-check --budget-ms 40 --format csv \
  --out $d/base.csv > /dev/null 2>&1; echo "bench rc=$? $(date +%T)"
cp $d/base.csv $OUT/
for c in "attention 256" "attention 4096" "residual 256" "residual 4096" "residual_tee 4096" "layernorm_fp8 4096" "layernorm 4096" "layernorm 256"; do
  set -- $c; n=$1-$2
  timeout 100 ncu -k regex:register_kernel -s 2 -c 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats \
    --import-source yes -f -o /tmp/$n $B --op $1 --dtype fp16 --cols $2 --variant fused \
    --no-check --reps 3 --budget-ms 1 > $d/$n.log 2>&1
  ncu -i /tmp/$n.ncu-rep --page details --csv > $d/$n-details.csv 2>/dev/null
  ncu -i /tmp/$n.ncu-rep --page source --csv --print-source sass > /tmp/$n-sass.csv 2>/dev/null
  python3 ../../experiments/sass_mix.py /tmp/$n-sass.csv 134217728 > $d/$n-mix.txt 2>&1
  xz -c /tmp/$n-sass.csv > $d/$n-sass.csv.xz
  echo "$n $(date +%T)"; head -14 $d/$n-mix.txt
done
tar czf $OUT/$d.tgz $d
