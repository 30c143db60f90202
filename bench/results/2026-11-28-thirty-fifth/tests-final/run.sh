#!/bin/bash
# abn (the tables before and after, twice), then the GPU suites, each under its own limit.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for pass in 1 2; do
  for v in cur FGL; do ../abn5/abn_$v > $OUT/abn5_${v}_$pass.txt 2>&1; echo "abn $v $pass rc=$?"; done
done
for f in *.xz; do xz -d "$f"; done
for t in "$@"; do
  s=$(date +%s)
  timeout 150 ./$t > $OUT/$t.txt 2>&1
  echo "$t rc=$? $(( $(date +%s) - s ))s"
  grep -E "test cases|assertions" $OUT/$t.txt | tail -2
done
