#!/bin/bash
# plan_dump.sh TREE OUT BYTES: plan_dump.cpp built against TREE's include/ and src/plan.cpp (host
# code; no GPU), run for a device of BYTES DRAM bytes a cycle, into OUT. DEFS: more compiler
# flags.
set -e
here=$(cd "$(dirname "$0")" && pwd); b=$(mktemp -d)
g++ -O2 -std=c++20 ${DEFS:-} -I$1/include -I$here/../../../tests -I/usr/local/cuda/include -I/usr/local/cuda/include/cccl \
  $here/plan_dump.cpp $1/src/plan.cpp $1/src/device.cpp -o $b/plan_dump -L/usr/local/cuda/lib64 -lcudart
$b/plan_dump $3 > $2; rm -rf $b
