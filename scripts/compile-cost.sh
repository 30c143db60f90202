#!/usr/bin/env bash
# Compile cost of one fused call: nvcc time, object size and kernel count of
#   (a) a translation unit that only includes <rowfuse/rowfuse.cuh>     (the include cost)
#   (b) (a) plus one fp16 softmax call                                  (what one call adds: b - a)
#   (c) (b)'s call with a compile-time column bound, when --bound-expr/--bound-call says how
# compiled with the flags the CMake target rowfuse::rowfuse gives a Release build:
#   -O3 -DNDEBUG (CMAKE_CUDA_FLAGS_RELEASE), -std=c++20 (cuda_std_20), -arch=sm_90
#   (CMAKE_CUDA_ARCHITECTURES 90: SASS for sm_90 plus compute_90 PTX), --expt-relaxed-constexpr,
#   --extended-lambda, --compress-mode=size (target_compile_options; the last unless
#   ROWFUSE_COMPRESS_FATBIN=OFF, here unless --default-compression), -I include.
# Cases run one after the other (the machine has 2 cores); no ccache. Needs nvcc and Boost.Hana;
# the kernel count needs cuobjdump (found on PATH, next to nvcc, or as $CUOBJDUMP) or, without
# it, python3 and objcopy (the cubin is read straight out of the object's .nv_fatbin).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/compile-cost.sh [--quick] [--default-compression] [--arch sm_XX]
                               [--bound-expr 'EXPR' | --bound-call 'STMT']
  --quick            one nvcc run per case instead of the best of 2
  --default-compression
                     nvcc's default fatbin compression (as ROWFUSE_COMPRESS_FATBIN=OFF builds)
  --arch sm_XX       GPU architecture for -arch (default sm_90)
  --bound-expr EXPR  case (c): EXPR is passed as one more argument after the stream,
                       rf::softmax(rf::load(x, rows, cols), rf::store(y), stream, EXPR);
                     (or set ROWFUSE_BOUND_EXPR)
  --bound-call STMT  case (c): STMT is the whole call statement, for a bound that is not a
                     trailing argument (e.g. a template argument); x, y, rows, cols and stream
                     are in scope, `rf` is rowfuse (or set ROWFUSE_BOUND_CALL)
  -h, --help         this text
Without --bound-expr/--bound-call, case (c) is skipped.
Environment: NVCC (the compiler), CUOBJDUMP (the kernel counter).
EOF
}

die() {
  echo "compile-cost: $*" >&2
  exit 1
}

quick=0
default_compression=0
arch=sm_90
bound_expr=${ROWFUSE_BOUND_EXPR:-}
bound_call=${ROWFUSE_BOUND_CALL:-}
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --default-compression) default_compression=1 ;;
    --arch)
      (($# >= 2)) || die "--arch needs a value (e.g. sm_90)"
      arch=$2
      shift
      ;;
    --arch=*) arch=${1#--arch=} ;;
    --bound-expr)
      (($# >= 2)) || die "--bound-expr needs a value"
      bound_expr=$2
      shift
      ;;
    --bound-expr=*) bound_expr=${1#--bound-expr=} ;;
    --bound-call)
      (($# >= 2)) || die "--bound-call needs a value"
      bound_call=$2
      shift
      ;;
    --bound-call=*) bound_call=${1#--bound-call=} ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      die "unknown argument: $1"
      ;;
  esac
  shift
done
[[ $arch =~ ^sm_[0-9]+[a-z]?$ ]] || die "--arch takes sm_XX (e.g. sm_90, sm_90a), not '$arch'"
if [[ -n $bound_expr && -n $bound_call ]]; then
  die "give --bound-expr or --bound-call, not both"
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ -f $repo/include/rowfuse/rowfuse.cuh ]] || die "no include/rowfuse/rowfuse.cuh under $repo"

# --- tools ---

nvcc=${NVCC:-}
if [[ -z $nvcc ]]; then
  nvcc=$(command -v nvcc || true)
  for candidate in ${CUDA_HOME:+"$CUDA_HOME/bin/nvcc"} ${CUDA_PATH:+"$CUDA_PATH/bin/nvcc"} \
    /usr/local/cuda/bin/nvcc; do
    if [[ -z $nvcc && -x $candidate ]]; then
      nvcc=$candidate
    fi
  done
fi
if [[ -n ${NVCC:-} && ! -x $nvcc ]]; then
  die "NVCC=$NVCC is not an executable nvcc"
fi
[[ -n $nvcc && -x $nvcc ]] ||
  die "nvcc not found (looked on PATH, in \$CUDA_HOME/bin and /usr/local/cuda/bin; or set NVCC)"

cuobjdump=${CUOBJDUMP:-}
if [[ -z $cuobjdump ]]; then
  cuobjdump=$(command -v cuobjdump || true)
  if [[ -z $cuobjdump && -x $(dirname "$nvcc")/cuobjdump ]]; then
    cuobjdump=$(dirname "$nvcc")/cuobjdump
  fi
fi
if [[ -n $cuobjdump ]]; then
  counter="cuobjdump -elf ($cuobjdump)"
elif command -v python3 >/dev/null && command -v objcopy >/dev/null; then
  counter="the cubin in .nv_fatbin (no cuobjdump; python3 + objcopy)"
else
  counter="none (no cuobjdump, nor python3 + objcopy): kernels shown as ?"
fi

# Boost.Hana: the library's one non-CUDA dependency (Debian: libboost-dev).
if ! printf '#include <boost/hana/version.hpp>\n' |
  "${CXX:-c++}" -std=c++20 -E -x c++ - -o /dev/null 2>/dev/null; then
  die "Boost.Hana headers not found (<boost/hana/version.hpp>); on Debian: apt-get install -y libboost-dev"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rowfuse-compile-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

flags=(-std=c++20 "-arch=$arch" -O3 -DNDEBUG --expt-relaxed-constexpr --extended-lambda
  "-I$repo/include")
((default_compression)) || flags+=(--compress-mode=size)

# --- the translation units ---

# Every case has the same includes, so that b - a and c - a are what the call adds.
write_tu() { # file, call statement (empty: includes only)
  {
    printf '%s\n' '// generated by rowfuse scripts/compile-cost.sh' \
      '#include <cuda_fp16.h>' '#include <cuda_runtime.h>' '#include <rowfuse/rowfuse.cuh>'
    if [[ -n $2 ]]; then
      printf '%s\n' '' 'namespace rf = rowfuse;' '' \
        'void compile_cost_call(__half const* x, __half* y, rf::index_t rows, rf::index_t cols,' \
        '                       cudaStream_t stream) {' "  $2" '}'
    fi
  } >"$1"
}

call_b='rf::softmax(rf::load(x, rows, cols), rf::store(y), stream);'
call_c=
if [[ -n $bound_call ]]; then
  call_c=$bound_call
elif [[ -n $bound_expr ]]; then
  call_c="rf::softmax(rf::load(x, rows, cols), rf::store(y), stream, $bound_expr);"
fi

# --- measuring ---

# Kernels = distinct .text.<function> sections of the device ELF (one per __global__ function;
# a non-inlined __device__ function would add one too). An object without device code: 0.
count_kernels() { # object
  local obj=$1
  if [[ -n $cuobjdump ]]; then
    local elf
    if ! elf=$("$cuobjdump" -elf "$obj" 2>&1); then
      if grep -qi 'does not contain device code' <<<"$elf"; then
        echo 0
      else
        echo "?"
      fi
      return 0
    fi
    awk '$NF ~ /^\.text\./ { names[$NF] = 1 } END { print length(names) }' <<<"$elf"
  elif [[ $counter == the\ cubin* ]]; then
    if ! objcopy -O binary --only-section=.nv_fatbin "$obj" "$tmp/fatbin.bin" 2>/dev/null ||
      [[ ! -s $tmp/fatbin.bin ]]; then
      echo 0
      return 0
    fi
    python3 - "$tmp/fatbin.bin" <<'PY'
# Fatbin: containers (magic 0xBA55ED50, u16 version, u16 header size, u64 size) of entries
# (u16 kind: 1 PTX, 2 ELF; u32 header size at 4; u64 payload size at 8; u64 flags at 40, 0x2000
# = compressed). Count .text.* sections of the uncompressed ELF (cubin) entries; ? if any is
# compressed.
import struct, sys
data = open(sys.argv[1], "rb").read()
names, compressed, pos = set(), False, 0
while True:
    pos = data.find(struct.pack("<I", 0xBA55ED50), pos)
    if pos < 0:
        break
    _, _, hsize, size = struct.unpack_from("<IHHQ", data, pos)
    entry, end = pos + hsize, pos + hsize + size
    while entry + 48 <= end:
        kind, _, ehsize, psize = struct.unpack_from("<HHIQ", data, entry)
        (flags,) = struct.unpack_from("<Q", data, entry + 40)
        payload = data[entry + ehsize : entry + ehsize + psize]
        if kind == 2 and flags & 0x2000:
            compressed = True
        elif kind == 2 and payload[:4] == b"\x7fELF":
            shoff, = struct.unpack_from("<Q", payload, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", payload, 0x3A)
            def header(i):
                return struct.unpack_from("<IIQQQQ", payload, shoff + i * shentsize)
            stroff = header(shstrndx)[4]
            for i in range(shnum):
                start = stroff + header(i)[0]
                name = payload[start : payload.index(b"\0", start)].decode()
                if name.startswith(".text."):
                    names.add(name)
        entry += ehsize + psize
    pos = max(end, pos + 4)
print("?" if compressed else len(names))
PY
  else
    echo "?"
  fi
}

now() { echo "$EPOCHREALTIME"; }
runs=$((quick ? 1 : 2))

declare -A secs bytes kernels
measure() { # case name, call statement
  local name=$1 src=$tmp/$1.cu obj=$tmp/$1.o best="" run start t
  write_tu "$src" "$2"
  for ((run = 1; run <= runs; run++)); do
    rm -f "$obj"
    start=$(now)
    if ! (cd "$tmp" && "$nvcc" "${flags[@]}" -c "$src" -o "$obj") >"$tmp/$name.log" 2>&1; then
      echo "compile-cost: case ($name) failed to compile:" >&2
      printf '  %s\n' "${2:-(includes only)}" >&2
      head -40 "$tmp/$name.log" >&2
      exit 1
    fi
    t=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    if [[ -z $best ]] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      best=$t
    fi
    echo "  ($name) run $run: ${t} s" >&2
  done
  secs[$name]=$best
  bytes[$name]=$(stat -c %s "$obj")
  kernels[$name]=$(count_kernels "$obj")
}

echo "nvcc: $("$nvcc" --version | tail -1) ($nvcc)" >&2
echo "flags: ${flags[*]/#-I"$repo"/-I<repo>}" >&2
echo "kernel count: $counter" >&2
echo "runs per case: $runs$( ((quick)) && echo ' (--quick)' || echo ' (best of)'); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" >&2

cases=(a b)
measure a ""
measure b "$call_b"
if [[ -n $call_c ]]; then
  cases+=(c)
  measure c "$call_c"
fi

# --- report ---

kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
minus() { # x y: x - y, or ? when either is not a number
  awk -v x="$1" -v y="$2" -v d="$3" 'BEGIN {
    if (x !~ /^-?[0-9.]+$/ || y !~ /^-?[0-9.]+$/) { print "?"; exit }
    printf "%+." d "f", x - y }'
}
describe() {
  case $1 in
    a) echo "(a) include only" ;;
    b) echo "(b) one fp16 softmax" ;;
    c) echo "(c) softmax + bound" ;;
  esac
}

echo
echo "| case | seconds | object KB | kernels |"
echo "| --- | ---: | ---: | ---: |"
for c in "${cases[@]}"; do
  echo "| $(describe "$c") | ${secs[$c]} | $(kb "${bytes[$c]}") | ${kernels[$c]} |"
done
for c in "${cases[@]:1}"; do
  echo "| $c − a | $(minus "${secs[$c]}" "${secs[a]}" 2) |" \
    "$(minus "$(kb "${bytes[$c]}")" "$(kb "${bytes[a]}")" 1) |" \
    "$(minus "${kernels[$c]}" "${kernels[a]}" 0) |"
done
echo
for c in "${cases[@]}"; do
  echo "($c) object: ${bytes[$c]} bytes"
done
echo "call (b): $call_b"
if [[ -n $call_c ]]; then
  echo "call (c): $call_c"
else
  echo "(c) skipped: no compile-time column bound given (--bound-expr 'EXPR' or --bound-call 'STMT')"
fi
