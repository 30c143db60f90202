#!/bin/bash
# callS.sh DIR: on the device, every GPU suite in .device-carry/DIR (stripped binaries of the CI
# build of main, split in two folders gpuA and gpuB that each travel with the tree), three at a
# time, each for at most PER_S seconds (400); one line a suite (exit code, seconds, doctest's
# counts) and the tail of any that failed, into $OUT/DIR.txt. SKIP: a regular expression of
# suites not to run (those that passed in an earlier call).
R=$(cd "$(dirname "$0")/../../.." && pwd); D=$R/.device-carry/$1; out=$OUT/$1.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out
cat $D/built-from.txt >> $out
export PER_S=${PER_S:-400}
ls $D/gpu_* | grep -Ev "${SKIP:-^$}" | xargs -P 3 -I{} bash -c 't={}; n=$(basename $t); s=$SECONDS
  timeout $PER_S $t > /tmp/$n.log 2>&1; rc=$?
  line="$n exit $rc in $((SECONDS - s)) s: $(grep -E "^\[doctest\] (test cases|assertions)" /tmp/$n.log | tr -s " " | tr "\n" " ")"
  if [ $rc = 0 ]; then echo "$line"; else printf "%s\n%s\n" "$line" "$(tail -25 /tmp/$n.log)"; fi' >> $out
echo "$(grep -c ' exit 0 ' $out) of $(ls $D/gpu_* | wc -l) suites passed"
grep -E ' exit [^0]' -A25 $out | head -60
