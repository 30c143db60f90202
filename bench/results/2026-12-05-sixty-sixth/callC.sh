#!/bin/bash
# callC.sh PART: on the device, with .device-carry/PART carried (s66a or s66b, pack-device.sh):
# its GPU suites and examples of the device build (SASS, full optimisation), JOBS (4) at a time,
# each for at most PER_S (300) seconds: one line each (exit code, seconds, doctest's counts; the
# tail of any that failed, and any "note:" a suite prints first, which a device build must not)
# into $OUT/PART.txt. Then, where a2.tar.xz came along, A2 against main
# (../2026-12-04-sixty-second/callA2.sh) into $OUT/callA2.txt.
R=$(cd "$(dirname "$0")/../../.." && pwd); C=$R/.device-carry; D=/tmp/$1; out=$OUT/$1.txt
if tar tf $C/$1/suites.tar | grep -q "\.xz$"; then
  rm -rf $D && mkdir -p $D && tar xf $C/$1/suites.tar -C $D --strip-components=1 && xz -d $D/*.xz
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out
  cat $D/built-from.txt >> $out
  export PER_S=${PER_S:-300}
  ls $D/gpu_* $D/example_* 2>/dev/null | grep -Ev "${SKIP:-^$}" | xargs -P ${JOBS:-4} -I{} bash -c '
    t={}; n=$(basename $t); s=$SECONDS
    timeout $PER_S $t > /tmp/$n.log 2>&1; rc=$?
    counts=$(grep -E "^\[doctest\] (test cases|assertions)" /tmp/$n.log | tr -s " " | tr "\n" " ")
    line="$n exit $rc in $((SECONDS - s)) s: $counts$(grep -m2 "^note:" /tmp/$n.log)"
    if [ $rc = 0 ]; then echo "$line"; else printf "%s\n%s\n" "$line" "$(tail -25 /tmp/$n.log)"; fi' >> $out
  n=$(ls $D/gpu_* $D/example_* 2>/dev/null | wc -l)
  echo "$(grep -c ' exit 0 ' $out) of $n suites and examples passed" | tee -a $out
  grep -E ' exit [^0]' -A25 $out | head -60
fi
if [ -f $C/$1/a2.tar.xz ]; then
  mkdir -p $C/s66x && tar xJf $C/$1/a2.tar.xz -C $C/s66x --strip-components=1
  GROUP=s66x bash $R/bench/results/2026-12-04-sixty-second/callA2.sh callA2 2>&1 | tail -60 > $OUT/callA2.txt
  cat $OUT/callA2.txt
fi
