#!/bin/bash
# On the device: every kernel of one fused call of E2 (main after 1227988) under ncu with the GPU's
# own clocks, layernorm / rmsnorm backward fp16 at 256-65536 columns, as call1 did for M.
cd "$(dirname "$0")"
d=call6; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__cycles_elapsed.avg.per_second
for op in layernorm_backward rmsnorm_backward; do for c in 256 1024 2048 4096 8192 16384 32768 65536; do
  timeout 60 $NCU --clock-control none -k regex:"register_kernel|column_sum_kernel" -c 3 --metrics $M --csv ./rfb-E2 --op $op --dtype fp16 --cols $c --variant fused --no-check --reps 1 --budget-ms 1 > $d/quick-$op-$c.csv 2>$d/quick-$op-$c.err
  echo "quick $op $c rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
