#!/bin/bash
# sass.sh NAME BIN: on the device, the SASS of layernorm fp16's 8 x 512 cluster row (4 blocks) on the
# grid and phased from BIN, then ncu's source page (SASS, executed instructions and stall samples
# per instruction) of one launch each at 100000 on the grid and 100003 off it (--misalign).
cd "$(dirname "$0")"; name=$1; B=$2; d=/tmp/$name; mkdir -p $d
K='_ZN7rowfuse6engine15register_kernelINS_6detail15register_configILi8ELi8ELi512ELb1ELb1ELi4ELi1ELb1ELi0ELNS_6tuning16column_placementE3ELb0ELb'
T='ELb0ELb0ELb0EEENS_2op9layernormINS_13affine_paramsI6__halfSA_EEEENS_9load_exprISA_JEEENS_10store_exprISA_JEEEEEvT0_T1_T2_lli'
cuobjdump -sass -fun "${K}0${T}" $B > $d/aligned.sass 2>&1
cuobjdump -sass -fun "${K}1${T}" $B > $d/phased.sass 2>&1
wc -l $d/*.sass
for spec in "layernorm 100003 --misalign" "layernorm 100000"; do
  set -- $spec; f=$d/ncu-$1-$2$3
  timeout 150 ncu -k regex:"register_kernel" --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section InstructionStats -o $f $B --op $1 --dtype fp16 --cols $2 $3 --reps 1 --budget-ms 1 --variant fused --no-check > $f.log 2>&1
  echo "== $spec rc=$?"
  ncu -i $f.ncu-rep --page source --csv --print-source sass > $f-source.csv 2> $f-source.err; echo "source rc=$? $(wc -l < $f-source.csv)"
  ncu -i $f.ncu-rep --page details > $f-details.txt 2>&1
  grep -E "Duration|Executed Instructions  |Issued Warp Per" $f-details.txt | head
done
rm -f $d/*.ncu-rep
tar czf $OUT/$name.tgz -C /tmp $name
