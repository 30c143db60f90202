#!/bin/bash
# callW.sh 3a|3b|3c: on the device, with .peer-wheels/3a, 3b or 3c carried (split-wheels.sh), one
# call each on the same warm machine: copies the folder into /tmp/peer-wheels; after 3c, installs
# QuACK and Liger into /tmp/peer-site (shared/peers/install.sh) and prints the PYTHONPATH to export
# in later calls (also in /tmp/peer-wheels/PYTHONPATH).
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p /tmp/peer-wheels && cp $R/.peer-wheels/$1/* /tmp/peer-wheels/
ls /tmp/peer-wheels | wc -l
if [ "$1" = 3c ]; then
  bash /tmp/peer-wheels/install.sh > /tmp/peer-wheels/PYTHONPATH
  export PYTHONPATH=$(cat /tmp/peer-wheels/PYTHONPATH)
  cat /tmp/peer-wheels/PYTHONPATH
  python3 -c 'import quack, liger_kernel; print("quack", quack.__version__ if hasattr(quack, "__version__") else "?", "liger ok")'
fi
