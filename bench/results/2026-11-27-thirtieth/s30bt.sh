#!/bin/bash
# Thirtieth session: host stacks of gpu.determinism's first case while it spins (SIGUSR1 ->
# backtrace_symbols_fd from an LD_PRELOADed handler, .device-carry/bt/libbt.so).
R=/tmp/bt30; mkdir -p $R /tmp/bin
python3 -c "import lzma; open('/tmp/bin/det','wb').write(lzma.open('.device-carry/bt/det.xz').read())"; chmod +x /tmp/bin/det
LD_PRELOAD=$PWD/.device-carry/bt/libbt.so /tmp/bin/det -tc="softmax gives*" > $R/out.txt 2> $R/err.txt &
pid=$!
for s in 8 12 16; do sleep 4; kill -USR1 $pid; done
sleep 1
for t in /proc/$pid/task/*; do echo "$(basename $t) $(cut -d' ' -f3,14,15 $t/stat)"; done > $R/threads.txt
kill $pid; sleep 1; (cd $R && tar czf $OUT/bt30.tgz .)
cat $R/threads.txt; grep -v "^$" $R/err.txt | head -80
