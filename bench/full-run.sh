#!/usr/bin/env bash
# The full benchmark in one call on the GPU machine (about 6-8 minutes on an H200):
#   rowfuse-bench (fused, unfused, copy) for every op and pipeline, fp32/fp16/bf16, cols
#   32..262144; PyTorch eager (all types) and torch.compile (fp16) on the same shapes; one
#   merged CSV, the plots and the markdown tables; a short summary printed last.
#
#   bash bench/full-run.sh
#
# Everything lands in ${OUT:-bench/results/latest} as at most 7 files: results.csv, summary.md,
# gbps.png/.svg, headline.png/.svg, logs.tar.gz (build and run logs, the separate CSVs, the
# bench's own table). Without OUT the headline plot is also copied to bench/results/, where
# the README shows it. Environment knobs: COLS (32:262144), REPS (30), BUDGET_S (450: when the
# peers stop starting cases), SHARDS (8 torch.compile warm-up processes), NO_PEERS=1, PREBUILT=1
# (time build/release/bench/rowfuse-bench as it is, built on another machine with
# `cmake --preset device`, instead of building).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=${OUT:-bench/results/latest}
cols=${COLS:-32:262144}
reps=${REPS:-30}
budget=${BUDGET_S:-450}
shards=${SHARDS:-8}
work=$(mktemp -d /tmp/rowfuse-full-run.XXXXXX)
logs=$work/logs
mkdir -p "$out" "$logs"
SECONDS=0
say() { printf '== [%3ds] %s\n' "$SECONDS" "$*"; }

if ! gpus=$(nvidia-smi -L 2>/dev/null) || ! grep -q '^GPU ' <<<"$gpus"; then
  echo "full-run.sh: no CUDA GPU found; the benchmark needs one" >&2
  exit 2
fi
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
say "$(head -1 <<<"$gpus"), $(nproc) cores; results to $out"

# --- torch.compile warm-up, in the background while nvcc builds --------------------------
# Each process compiles (and autotunes) its share of the cases into the shared Inductor and
# Triton caches; the timed run later compiles from them in a second or so instead of several.
# Nothing here may overlap with a timed run: autotuning launches kernels.
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-/tmp/rowfuse-inductor-cache}
export TRITON_CACHE_DIR=${TRITON_CACHE_DIR:-/tmp/rowfuse-triton-cache}
export TORCHINDUCTOR_COMPILE_THREADS=1  # the same config in every phase keeps cache keys equal
export TORCHINDUCTOR_FX_GRAPH_CACHE=1 TORCHINDUCTOR_AUTOGRAD_CACHE=1
peers_args=(--cols "$cols" --dtype fp32,fp16,bf16 --compile-dtype fp16)
peers=0
warm_pids=()
if [[ -z ${NO_PEERS:-} ]] && python3 -c 'import torch, triton' >/dev/null 2>&1; then
  peers=1
  for ((i = 0; i < shards; i++)); do
    python3 bench/peers.py "${peers_args[@]}" --impl compile --warm-only --shard "$i/$shards" \
      --time-budget 300 >"$logs/peers-warm-$i.log" 2>&1 &
    warm_pids+=($!)
  done
  say "torch.compile warm-up: ${#warm_pids[@]} processes"
else
  say "no PyTorch/Triton here (or NO_PEERS): rowfuse-bench only"
fi

# --- build ---------------------------------------------------------------------------------
if [[ -n ${PREBUILT:-} && -x build/release/bench/rowfuse-bench ]]; then
  say "PREBUILT: build/release/bench/rowfuse-bench as found (built elsewhere with the device preset)"
  : >"$logs/build.log"
elif say "building rowfuse-bench (release preset, fp32 pipelines on)" &&
  ! { cmake --preset release -DROWFUSE_BENCH_FP32_PIPELINES=ON &&
    cmake --build --preset release --target rowfuse-bench -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
  tail -30 "$logs/build.log"
  echo "full-run.sh: build failed" >&2
  for pid in "${warm_pids[@]}"; do kill "$pid" 2>/dev/null; done
  tar czf "$out/logs.tar.gz" -C "$work" logs
  exit 1
fi
say "built"

for pid in "${warm_pids[@]}"; do wait "$pid"; done
((peers)) && say "warm-up done ($(cat "$logs"/peers-warm-*.log | grep -c '^peers.py: warmed') cases compiled)"

# --- rowfuse-bench -------------------------------------------------------------------------
say "rowfuse-bench: every op and pipeline, fp32/fp16/bf16, cols $cols"
timeout $((budget - SECONDS > 120 ? budget - SECONDS - 60 : 120)) \
  build/release/bench/rowfuse-bench --cols "$cols" --dtype fp32,fp16,bf16 --reps "$reps" \
  --budget-ms 200 --format csv --out "$work/bench.csv" >"$work/bench-table.txt" 2>"$logs/bench.log"
bench_status=$?
say "rowfuse-bench exit $bench_status; $(grep -c ',fused,' "$work/bench.csv" 2>/dev/null || echo 0) fused cases"
grep -E 'cross-check|failed|differs|error' "$logs/bench.log" | tail -8

# --- PyTorch peers -------------------------------------------------------------------------
if ((peers)); then
  left=$((budget - SECONDS))
  say "peers.py: eager (fp32/fp16/bf16) and torch.compile (fp16), ${left} s left"
  python3 bench/peers.py "${peers_args[@]}" --impl eager,compile --out "$work/peers.csv" \
    --time-budget $((left > 30 ? left : 30)) 2>"$logs/peers.log"
  say "peers.py exit $?; $(($(wc -l <"$work/peers.csv" 2>/dev/null || echo 1) - 1)) rows"
  grep -E 'budget|Error|error' "$logs/peers.log" | tail -5

  # QuACK and Liger-Kernel where they import (their wheels carried, PYTHONPATH exported as
  # ../shared/peers/README.md says): softmax, layernorm, rmsnorm and their backwards (QuACK:
  # softmax's and rmsnorm's) in fp16/bf16. After the PyTorch
  # peers, so that those time as without them, with at least 90 s (the whole sweep took 85 s on
  # an H100, imports and JIT compiles included). No warm-up processes: they compile quickly.
  # One process tries both imports (`import quack` alone takes about 10 s).
  libs=()
  read -ra libs < <(python3 -c '
import importlib
for module, impl in (("quack", "quack"), ("liger_kernel", "liger")):
    try:
        importlib.import_module(module)
        print(impl, end=" ")
    except Exception:
        pass' 2>/dev/null)
  if ((${#libs[@]})); then
    left=$((budget - SECONDS))
    say "peers.py: ${libs[*]} (softmax/layernorm/rmsnorm and backwards, fp16/bf16), ${left} s left"
    python3 bench/peers.py --cols "$cols" --dtype fp16,bf16 \
      --op softmax,layernorm,rmsnorm,softmax_backward,layernorm_backward,rmsnorm_backward \
      --impl "$(IFS=,; echo "${libs[*]}")" --out "$work/peers-lib.csv" \
      --time-budget $((left > 90 ? left : 90)) 2>"$logs/peers-lib.log"
    say "peers.py exit $?; $(($(wc -l <"$work/peers-lib.csv" 2>/dev/null || echo 1) - 1)) rows"
    grep -E 'budget|skipped|Error|error' "$logs/peers-lib.log" | tail -5
    # Into peers.csv, which the merge below reads (the same schema; its header once).
    if [[ -s $work/peers.csv ]]; then
      tail -n +2 "$work/peers-lib.csv" >>"$work/peers.csv" 2>/dev/null
    else
      cp "$work/peers-lib.csv" "$work/peers.csv" 2>/dev/null
    fi
  else
    say "QuACK, Liger-Kernel: not importable here (../shared/peers/README.md); not timed"
  fi
fi

# --- merge, plot, summarise ----------------------------------------------------------------
python3 - "$out/results.csv" "$work/bench.csv" "$work/peers.csv" <<'EOF'
import csv, os, sys
target, sources = sys.argv[1], [p for p in sys.argv[2:] if os.path.exists(p)]
rows, fields = [], None
for path in sources:
    with open(path, newline="") as f:
        reader = csv.DictReader(line for line in f if not line.startswith("#"))
        fields = fields or reader.fieldnames
        rows.extend(reader)
with open(target, "w", newline="") as f:
    w = csv.DictWriter(f, fields or [])
    w.writeheader()
    w.writerows(rows)
print(f"merged {len(rows)} rows into {target}")
EOF
python3 bench/plot.py "$out/results.csv" --out-dir "$out" 2>"$logs/plot.log" ||
  { say "plot.py failed:"; tail -5 "$logs/plot.log"; }
python3 bench/summarize.py "$out/results.csv" >"$out/summary.md" 2>"$logs/summarize.log" ||
  { say "summarize.py failed:"; tail -5 "$logs/summarize.log"; }
if [[ -z ${OUT:-} && -f $out/headline.png ]]; then
  cp "$out/headline.png" "$out/headline.svg" bench/results/
fi
cp "$work/bench-table.txt" "$logs/" 2>/dev/null
tar czf "$out/logs.tar.gz" -C "$work" logs $(cd "$work" && ls bench.csv peers.csv 2>/dev/null)
rm -rf "$work"

# --- the summary, last ---------------------------------------------------------------------
say "done; files in $out: $(cd "$out" && ls | tr '\n' ' ')"
echo
python3 bench/summarize.py "$out/results.csv" --brief 2>/dev/null
((bench_status == 0)) || echo "full-run.sh: rowfuse-bench exited with $bench_status (see logs.tar.gz: logs/bench.log)"
exit "$bench_status"
