#!/bin/bash
# call73a.sh: on the device, main (rfb-M5, 1ac1140) against V75 (a staged phased row's layout worked
# out once, where it is staged, the lane's count of packs in 32 bits) and V76 (the count in 32 bits
# alone): every kernel's static SASS size (sass_sizes.py) and the SASS of layernorm's 16-block
# kernels, then the four ops fp16 / bf16 one element off at the widths below and three aligned
# controls through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s92.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s92
mkdir -p $OUT/sass
for v in M5 V75 V76; do
  cuobjdump -sass $C/rfb-$v | python3 sass_sizes.py $OUT/sass/sizes-$v.csv \
    layernorm,ILi8ELi8ELi256ELb1ELb1ELi16ELi2E $OUT/sass/layernorm-16-$v.sass
done
xz -9 $OUT/sass/*.sass
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,1000,2577,7001,14001,22001,30001,36001,53001,75001,100003,120001,150001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73a $C M5 V75 V76
