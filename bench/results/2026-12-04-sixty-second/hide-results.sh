#!/bin/bash
# hide-results.sh on|off: before a device call that carries large builds, move every result folder
# but the ones the call's scripts use (KEEP; default: ../2026-12-01-forty-fifth,
# ../2026-12-02-fifty-fourth and this folder) out of the tree to /work/var/hidden-results, so that
# the tree the device copies plus the carry fit its 64 MiB; `off` moves them back. Run `off` before
# any commit: while hidden, git sees the folders as deleted.
R=$(cd "$(dirname "$0")/.." && pwd); H=/work/var/hidden-results
keep=${KEEP:-"2026-12-01-forty-fifth 2026-12-02-fifty-fourth $(basename "$(cd "$(dirname "$0")" && pwd)") README.md"}
if [ "$1" = on ]; then
  mkdir -p $H
  for f in "$R"/*; do
    b=$(basename "$f")
    case " $keep " in *" $b "*) ;; *) mv "$f" $H/ ;; esac
  done
elif [ "$1" = off ]; then
  [ -d $H ] && mv $H/* "$R"/ 2>/dev/null
  rmdir $H 2>/dev/null
else
  echo "usage: hide-results.sh on|off" >&2
  exit 2
fi
cd "$R/../.." && git ls-files -z | xargs -0 stat -c %s 2>/dev/null |
  awk '{s += $1} END {printf "%.1f MiB of tracked files present\n", s / 1048576}'
