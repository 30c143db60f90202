#!/bin/bash
# call5.sh: on the device, main (M) against the final tree's build (F4) off the grid at widths inside
# and just outside the changed plans (softmax, rmsnorm, layernorm fp16, two passes, both checked
# against unfused first), then gpu.phased_rows built from the final tree under ctest.
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
mkdir -p /tmp/b && for f in $R/.device-carry/d55/*.tgz; do tar xzf $f -C /tmp/b; done
OPS=softmax,rmsnorm,layernorm MIS=337,501,601,2301,2901,4601,5801,8265,9201,11001,26001,106001 \
  AL=1024,3000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call5 /tmp/b M F4
mkdir -p $R/.device-carry/s55t && mv /tmp/b/gpu_phased_rows $R/.device-carry/s55t/
cd ../2026-12-01-forty-fifth && GROUP=s55t bash suites.sh s55-suites
