#!/bin/bash
# prepare-A2.sh: on the development machine, slim rowfuse-bench builds of main (M) and of main with
# store-quad-A2.diff (A2), the FAMILIES (default ops; or pipelines) in fp16 and bf16, into
# .device-carry/$GROUP (default s63) for callA2.sh. Trees under /work/var/$GROUP; about 7 minutes
# on two cores a family. The two ops builds are about 15 MB each: with the tracked tree (56 MiB)
# over a call's 64 MiB, move the result folders the call does not need out first (hide-results.sh).
set -e
G=${GROUP:-s63}; R=$(cd "$(dirname "$0")/../../.." && pwd); here=$(cd "$(dirname "$0")" && pwd)
for v in M A2; do
  rm -rf /work/var/$G/$v && mkdir -p /work/var/$G/$v
  cp -r $R/include $R/src $R/bench /work/var/$G/$v/ && rm -rf /work/var/$G/$v/bench/results
done
(cd /work/var/$G/A2 && patch -p1 < $here/store-quad-A2.diff)
for v in M A2; do
  GROUP=$G bash $R/bench/results/2026-12-01-forty-fifth/build-variant.sh $v ${FAMILIES:-ops} fp16,bf16
done
ls -la $R/.device-carry/$G
