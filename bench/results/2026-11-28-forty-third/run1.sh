#!/bin/bash
# On the device: where the norms' backward time goes at wide rows (fp16, main): every kernel of one
# fused call (the row kernel and the dgamma / dbeta column sums) under ncu with the GPU's own
# clocks (--clock-control none), durations and counters; then --set full with SASS counts of the
# row kernels of layernorm and rmsnorm backward at 4096 and 16384 columns.
cd "$(dirname "$0")"
d=call1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $d/device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_elapsed.avg.per_second
for op in layernorm_backward rmsnorm_backward; do for c in 256 1024 2048 4096 8192 16384 32768 65536; do
  timeout 60 $NCU --clock-control none -k regex:"register_kernel|column_sum_kernel" -c 4 --metrics $M --csv ./rfb-M --op $op --dtype fp16 --cols $c --variant fused --no-check --reps 1 --budget-ms 1 > $d/quick-$op-$c.csv 2>$d/quick-$op-$c.err
  echo "quick $op $c rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
for oc in layernorm_backward:4096 rmsnorm_backward:4096 layernorm_backward:16384 rmsnorm_backward:16384; do
  op=${oc%:*}; c=${oc#*:}; tag=$op-fp16-$c
  timeout 100 $NCU --clock-control none -k regex:register_kernel -c 1 --set full --import-source no -f -o $d/$tag ./rfb-M --op $op --dtype fp16 --cols $c --variant fused --no-check --reps 1 --budget-ms 1 > $d/$tag.log 2>&1
  $NCU -i $d/$tag.ncu-rep --page details --csv > $d/$tag-details.csv 2>&1
  $NCU -i $d/$tag.ncu-rep --page source --csv --print-source sass > $d/$tag-sass.csv 2>&1
  rm -f $d/$tag.ncu-rep; xz -T4 $d/$tag-sass.csv
  echo "full $tag $(date +%T)"
  tar czf $OUT/$d.tgz $d
done
