#!/bin/bash
# Thirtieth session: where gpu.determinism's first case waits (host stacks, GPU utilisation).
R=/tmp/w30; mkdir -p $R /tmp/bin
python3 -c "import lzma; open('/tmp/bin/det','wb').write(lzma.open('$1').read())"; chmod +x /tmp/bin/det
/tmp/bin/det -tc="softmax gives*" > $R/det.txt 2>&1 &
pid=$!
sleep 20
nvidia-smi > $R/smi-20s.txt 2>&1
which gdb > $R/gdb.txt 2>&1; gdb -p $pid -batch -ex "thread apply all bt 30" >> $R/gdb.txt 2>&1
cat /proc/$pid/status | head -12 > $R/status.txt; top -b -n1 | head -15 > $R/top.txt
sleep 5; nvidia-smi --query-gpu=utilization.gpu,power.draw --format=csv > $R/smi-25s.txt 2>&1
kill $pid; (cd $R && tar czf $OUT/w30.tgz .)
tail -40 $R/gdb.txt; cat $R/smi-25s.txt; grep -i "det\|MiB" $R/smi-20s.txt | head
