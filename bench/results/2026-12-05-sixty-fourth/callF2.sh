#!/bin/bash
# callF2.sh NAME: on the device, after callF1.sh on the same warm machine, with .device-carry/f2
# carried: the peers' site joined (sha256 checked) and unpacked into /tmp/peer-site, QuACK and
# Liger imported, then bench/full-run.sh over the prebuilt bench (PREBUILT=1) into $OUT/NAME.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
cat /tmp/peer-parts/site.part0 .device-carry/f2/site.part1 > /tmp/site.tar.xz
[ "$(sha256sum /tmp/site.tar.xz | cut -d' ' -f1)" = "$(cat .device-carry/f2/site.sha256)" ] ||
  { echo "callF2.sh: the joined site differs from pack-full.sh's (was callF1.sh run on this machine?)"; exit 1; }
tar xJf /tmp/site.tar.xz -C /tmp
export PYTHONPATH=/tmp/peer-site/nvidia_cutlass_dsl/dsl_packages:/tmp/peer-site
python3 -c 'import quack, liger_kernel; print("quack and liger import")'
PREBUILT=1 OUT=$OUT/$1 BUDGET_S=${BUDGET_S:-520} bash bench/full-run.sh
