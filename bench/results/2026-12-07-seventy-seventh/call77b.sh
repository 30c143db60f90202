#!/bin/bash
# call77b.sh: on an H100, (0) the GPU suites in .device-carry/t77 (call77s.sh), built with R77b's
# tables; (1) main (M77) against R77b (K77 and the residual block's held rows as
# main would take them: rows for phased plans alone keep main's off the grid), the residual block
# and its tee'd form, fp16 and fp32 (R77b is built without bf16); (2) ncu of one launch of the tee'd
# block's 16-bit held row, M77 against K77, at 24576 and 32768 columns (K77 gained at the first,
# lost at the second in call77a). Carry .device-carry/s77 and .device-carry/t77.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s77
bash call77s.sh | grep -v "^[12]: "
OPS=residual,residual_tee DTYPES=fp16,fp32 AL=16384,24576,32768,40960,65536,131072,262144 \
  MIS=20001,40001,65001,100003,200003 bash ../2026-12-02-fifty-fourth/run1.sh call77b $C M77 R77b
d=/tmp/ncu77; mkdir -p $d
S="--section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section SourceCounters"
for v in M77 K77; do for cols in 24576 32768; do
  timeout 120 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S -o $d/$v-$cols \
    $C/rfb-$v --op residual_tee --dtype fp16 --cols $cols --reps 1 --budget-ms 1 --variant fused \
    --no-check > $d/$v-$cols.log 2>&1
  ncu -i $d/$v-$cols.ncu-rep --page details > $d/$v-$cols-details.txt 2>&1
  ncu -i $d/$v-$cols.ncu-rep --page source --csv --print-source sass 2> /dev/null | xz > $d/$v-$cols-source.csv.xz
  echo "== $v $cols"
  grep -E "Duration|DRAM Throughput|Registers Per|Achieved Active Warps|Issue Slots Busy|No Eligible|Executed Ipc A|Stall|L1TEX Hit|L2 Hit" $d/$v-$cols-details.txt | sed 's/  */ /g' | cut -c1-110
done; done
rm -f $d/*.ncu-rep; tar czf $OUT/ncu77.tgz -C /tmp ncu77
