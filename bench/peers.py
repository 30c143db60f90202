#!/usr/bin/env python3
"""Time PyTorch eager, torch.compile, QuACK and Liger-Kernel on rowfuse-bench's shapes.

Writes rowfuse-bench's CSV schema with impl = eager, compile, quack or liger, so that the CSVs
merge (bench/plot.py, bench/summarize.py). Method as rowfuse-bench and ../shared/anchors: 2^27
elements a case, uniform inputs in [-4, 4), the median of many timed calls with the L2 flushed
before each and the GPU's work alone in the interval (gpu_ms), counted bytes = each full-size
input read once + each output written once, and a device-to-device copy of the same bytes timed
in the same run for ratio_to_copy.

QuACK (quack-kernels, CuTe DSL) and Liger-Kernel (Triton) run softmax, layernorm and rmsnorm
forward, and the backward of softmax and rmsnorm (QuACK) and of softmax, layernorm and rmsnorm
(Liger), and are timed where they import (their wheels: ../shared/peers/README.md); each
JIT-compiles once per shape, on the untimed first call. QuACK takes rows of a multiple of 16
bytes, Liger at most 65536 columns: other widths are skipped with a note. Their rows also
carry check = max_abs_vs_fp32 and check_err = the largest |output - fp32 PyTorch reference|
(the output poisoned with NaN beforehand; a backward's dx against fp32 eager autograd with the
same dy); eager and compile rows leave both empty.

The backward rows (op name ending in _backward, issue 13) time what a training step's backward
runs: the forward is run once with autograd recording (eager, compiled by torch.compile, or the
library's autograd.Function), and each timed call is torch.autograd.grad of its output with
respect to the op's inputs (x; gamma and beta for the norms; x, the residual, gamma and beta for
the residual block), the graph kept for the next call. Counted bytes as rowfuse-bench's: the
forward's output (softmax family) or input (norms) and dy read, dx written, and the residual
block's second gradient; parameters, statistics and masks not counted.

torch.compile compiles every shape anew (dynamic=False), a few seconds each. To keep a sweep
short, compile ahead in parallel processes that share Inductor's and Triton's caches:

    python3 bench/peers.py --warm-only --shard 0/8 ... &   (x8, then wait)
    python3 bench/peers.py ...                              (times, compiling from the cache)

bench/full-run.sh does exactly that.
"""

import argparse
import csv
import ctypes
import subprocess
import sys
import time

FORWARD_OPS = ["softmax", "log_softmax", "layernorm", "rmsnorm",
               "attention", "residual", "residual_tee", "layernorm_fp8"]
# Each backward row: the forward it differentiates and which of its arguments get gradients.
BACKWARD_OF = {"softmax_backward": ("softmax", (0,)),
               "log_softmax_backward": ("log_softmax", (0,)),
               "layernorm_backward": ("layernorm", (0, 1, 2)),
               "rmsnorm_backward": ("rmsnorm", (0, 1)),
               "attention_backward": ("attention", (0,)),
               "residual_backward": ("residual", (0, 2, 3, 4))}
OPS = FORWARD_OPS + list(BACKWARD_OF)
DTYPES = ["fp32", "fp16", "bf16"]
IMPLS = ["eager", "compile", "quack", "liger"]
LIBRARY_PEERS = ["quack", "liger"]  # imported only where asked for (or by default) and present
LIBRARY_OPS = {"quack": ["softmax", "layernorm", "rmsnorm", "softmax_backward", "rmsnorm_backward"],
               "liger": ["softmax", "layernorm", "rmsnorm", "softmax_backward",
                         "layernorm_backward", "rmsnorm_backward"]}
FIELDS = ["device", "sms", "mem_clock_mhz", "driver", "op", "impl", "dtype", "rows", "cols",
          "bytes", "ms", "GBps", "copy_GBps", "ratio_to_copy", "reps", "check", "check_err"]

# The same constants as bench/harness.hpp.
ATTENTION_SCALE = 0.125
DROPOUT_P = 0.1
LAYERNORM_EPS = 1e-5
RMSNORM_EPS = 1e-6
FP8_SCALE = 64.0
FP8_MAX = 448.0


def parse_count(text):
    text = text.strip()
    if "^" in text:
        base, exponent = text.split("^", 1)
        return parse_count(base) ** parse_count(exponent)
    multiplier = 1
    if text.endswith(("k", "K")):
        multiplier, text = 1024, text[:-1]
    elif text.endswith("M"):
        multiplier, text = 1 << 20, text[:-1]
    return int(text) * multiplier


def parse_cols(spec):
    """'32:1024,3000' -> every power of two from 32 to 1024, and 3000 (as rowfuse-bench)."""
    cols = set()
    for item in filter(None, spec.split(",")):
        if ":" in item:
            lo, hi = (parse_count(v) for v in item.split(":", 1))
            p = 1
            while p <= hi:
                if p >= lo:
                    cols.add(p)
                p *= 2
        else:
            cols.add(parse_count(item))
    return sorted(cols)


def split_list(text, allowed, what):
    items = [v for v in text.split(",") if v]
    for v in items:
        if v not in allowed:
            sys.exit(f"peers.py: unknown {what} '{v}' (one of {', '.join(allowed)})")
    return items


def device_fields(torch):
    """device, sms, mem_clock_mhz, driver as rowfuse-bench writes them."""
    props = torch.cuda.get_device_properties(0)
    clock = int(getattr(props, "memory_clock_rate", 0)) // 1000  # kHz, where PyTorch has it
    module = ""
    try:
        with open("/proc/driver/nvidia/version") as f:
            for word in f.readline().split():
                if word[:1].isdigit() and "." in word:
                    module = word
                    break
    except OSError:
        pass
    if not clock:
        try:
            out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.memory",
                                  "--format=csv,noheader,nounits", "-i", "0"],
                                 capture_output=True, text=True, timeout=20).stdout
            clock = int(out.split()[0])
        except (OSError, ValueError, IndexError, subprocess.SubprocessError):
            clock = 0
    cuda = ""
    try:
        version = ctypes.c_int()
        if ctypes.CDLL("libcuda.so.1").cuDriverGetVersion(ctypes.byref(version)) == 0:
            cuda = f"CUDA {version.value // 1000}.{version.value % 1000 // 10}"
    except OSError:
        pass
    driver = f"{module} ({cuda})" if module and cuda else (module or cuda)
    return {"device": props.name, "sms": props.multi_processor_count,
            "mem_clock_mhz": clock, "driver": driver}


def pipelines(torch):
    """What a PyTorch user writes for each op: plain functions of tensors, used eagerly and
    through torch.compile alike."""
    F = torch.nn.functional

    def softmax(x):
        return torch.softmax(x, dim=-1)

    def log_softmax(x):
        return torch.log_softmax(x, dim=-1)

    def layernorm(x, gamma, beta):
        return F.layer_norm(x, x.shape[-1:], gamma, beta, LAYERNORM_EPS)

    def rmsnorm(x, gamma):
        return F.rms_norm(x, x.shape[-1:], gamma, RMSNORM_EPS)

    def attention(scores, causal):
        # scores [heads, q, k]; causal [q, k], True above the diagonal: a registered buffer.
        s = (scores * ATTENTION_SCALE).masked_fill(causal, float("-inf"))
        return F.dropout(torch.softmax(s, dim=-1), DROPOUT_P, training=True)

    def residual(x, bias, res, gamma, beta):
        h = F.dropout(x + bias, DROPOUT_P, training=True) + res
        return F.layer_norm(h, h.shape[-1:], gamma, beta, LAYERNORM_EPS)

    def residual_tee(x, bias, res, gamma, beta):
        h = F.dropout(x + bias, DROPOUT_P, training=True) + res
        return F.layer_norm(h, h.shape[-1:], gamma, beta, LAYERNORM_EPS), h

    def layernorm_fp8(x, gamma, beta):
        # Delayed scaling: the scale is known beforehand, amax is recorded for the next step.
        y = F.layer_norm(x, x.shape[-1:], gamma, beta, LAYERNORM_EPS)
        amax = y.abs().amax().float()
        y8 = (y * FP8_SCALE).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)
        return y8, amax

    return {"softmax": softmax, "log_softmax": log_softmax, "layernorm": layernorm,
            "rmsnorm": rmsnorm, "attention": attention, "residual": residual,
            "residual_tee": residual_tee, "layernorm_fp8": layernorm_fp8}


def make_case(torch, op, dtype, rows, cols):
    """Arguments for op and its counted bytes, or None where the shape does not apply. A backward
    op takes its forward's arguments."""
    if op in BACKWARD_OF:
        made = make_case(torch, BACKWARD_OF[op][0], dtype, rows, cols)
        if made is None:
            return None
        size = {"fp32": 4, "fp16": 2, "bf16": 2}[dtype]
        return made[0], (4 if op == "residual_backward" else 3) * size * rows * cols
    dev = "cuda"
    size = {"fp32": 4, "fp16": 2, "bf16": 2}[dtype]
    dt = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dtype]

    def full():
        return torch.empty(rows, cols, device=dev, dtype=dt).uniform_(-4, 4)

    def vector(lo, hi):
        return torch.empty(cols, device=dev, dtype=dt).uniform_(lo, hi)

    n = rows * cols
    if op in ("softmax", "log_softmax"):
        return (full(),), 2 * size * n
    if op == "layernorm":
        return (full(), vector(0.5, 1.5), vector(-0.5, 0.5)), 2 * size * n
    if op == "rmsnorm":
        return (full(), vector(0.5, 1.5)), 2 * size * n
    if op == "attention":
        q = min(rows, cols)  # q_len = cols; fewer rows than that are the first rows of one head
        if rows % q:
            return None
        causal = torch.ones(q, cols, device=dev, dtype=torch.bool).triu(1)
        return (full().view(rows // q, q, cols), causal), 2 * size * n
    if op in ("residual", "residual_tee"):
        args = (full(), vector(-0.5, 0.5), full(), vector(0.5, 1.5), vector(-0.5, 0.5))
        return args, (4 if op == "residual_tee" else 3) * size * n
    if op == "layernorm_fp8":
        return (full(), vector(0.5, 1.5), vector(-0.5, 0.5)), (size + 1) * n
    raise ValueError(op)


def first(result):
    """The output tensor of a peer's forward function, which may return a tuple."""
    return result[0] if isinstance(result, (tuple, list)) else result


def one_line(e):
    """An exception as one short line (CuTe DSL and Inductor errors run to many)."""
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text[:300]}{'...' if len(text) > 300 else ''}"


def library_peers(torch, wanted):
    """{impl: {op: fn(*make_case's args) -> output}} for those of `wanted` that import; one line
    on stderr for each that does not."""
    peers = {}
    if "quack" in wanted:
        try:
            # From-imports: quack's package exports functions named like its modules.
            from quack.rmsnorm import _rmsnorm_fwd, rmsnorm_fwd
            from quack.softmax import softmax_fwd
        except Exception as e:  # not installed, or no CUDA DSL for this machine
            print(f"peers.py: QuACK does not import here ({one_line(e)}); no quack rows",
                  file=sys.stderr)
        else:
            def quack_layernorm(x, gamma, beta):
                out = torch.empty_like(x)
                # Positional is_layernorm=True: the entry point the anchors timed.
                _rmsnorm_fwd(x, gamma, out, beta, None, None, None, None, LAYERNORM_EPS, True,
                             0.0)
                return out

            peers["quack"] = {
                "softmax": softmax_fwd,
                "layernorm": quack_layernorm,
                "rmsnorm": lambda x, gamma: first(rmsnorm_fwd(x, gamma, eps=RMSNORM_EPS)),
            }
            try:
                # The autograd.Functions, whose backward runs QuACK's softmax_bwd and rmsnorm_bwd.
                from quack.rmsnorm import rmsnorm as quack_rmsnorm
                from quack.softmax import softmax as quack_softmax
            except Exception as e:
                print(f"peers.py: QuACK's autograd functions do not import here ({one_line(e)}); "
                      "no quack backward rows", file=sys.stderr)
            else:
                peers["quack"]["softmax_backward"] = quack_softmax
                peers["quack"]["rmsnorm_backward"] = (
                    lambda x, gamma: quack_rmsnorm(x, gamma, eps=RMSNORM_EPS))
    if "liger" in wanted:
        try:
            from liger_kernel.ops.layer_norm import layer_norm_forward
            from liger_kernel.ops.rms_norm import rms_norm_forward
            from liger_kernel.ops.softmax import _softmax_forward
        except Exception as e:
            print(f"peers.py: Liger-Kernel does not import here ({one_line(e)}); no liger rows",
                  file=sys.stderr)
        else:
            peers["liger"] = {
                "softmax": lambda x: first(_softmax_forward(x)),
                "layernorm": lambda x, gamma, beta: first(layer_norm_forward(x, gamma, beta,
                                                                             LAYERNORM_EPS)),
                "rmsnorm": lambda x, gamma: first(rms_norm_forward(x, gamma, RMSNORM_EPS, 0.0,
                                                                   "llama", None)),
            }
            try:
                from liger_kernel.ops.layer_norm import LigerLayerNormFunction
                from liger_kernel.ops.rms_norm import LigerRMSNormFunction
                from liger_kernel.ops.softmax import LigerSoftmaxFunction
            except Exception as e:
                print(f"peers.py: Liger-Kernel's autograd functions do not import here "
                      f"({one_line(e)}); no liger backward rows", file=sys.stderr)
            else:
                peers["liger"].update({
                    "softmax_backward": LigerSoftmaxFunction.apply,
                    "layernorm_backward": lambda x, gamma, beta: LigerLayerNormFunction.apply(
                        x, gamma, beta, LAYERNORM_EPS),
                    # in_place=False: the default writes dx over dy, which the timed calls reuse.
                    "rmsnorm_backward": lambda x, gamma: LigerRMSNormFunction.apply(
                        x, gamma, RMSNORM_EPS, 0.0, "llama", False, None),
                })
    return peers


def library_skip(impl, dtype, cols):
    """Why a library peer does not take this width (None where it does)."""
    size = {"fp32": 4, "fp16": 2, "bf16": 2}[dtype]
    if impl == "quack" and cols * size % 16:
        return "QuACK needs rows of a multiple of 16 bytes"
    if impl == "liger" and cols > 65536:
        return "Liger-Kernel refuses rows past 65536 columns"
    return None


def backward_call(torch, forward, op, inputs, grad=None):
    """The backward of `op` as a training step runs it: forward(*inputs) once with autograd
    recording, on leaves that share the inputs' memory; returns (call, grad) where call() is
    torch.autograd.grad of the output with respect to the op's differentiated arguments, with the
    incoming gradient grad (uniform in [-4, 4) unless given), keeping the graph for the next
    call."""
    wrt = BACKWARD_OF[op][1]
    leaves = [t.detach().requires_grad_(i in wrt) for i, t in enumerate(inputs)]
    with torch.enable_grad():
        out = first(forward(*leaves))
    if grad is None:
        grad = torch.empty_like(out).uniform_(-4, 4)
    targets = [leaves[i] for i in wrt]
    return (lambda: torch.autograd.grad(out, targets, grad, retain_graph=True)), grad


def reference(torch, op, inputs, grad=None):
    """op in fp32 from the same rounded inputs: what check_err measures against. For a backward
    op, dx of the eager forward in fp32 with the incoming gradient `grad`."""
    if op in BACKWARD_OF:
        forward = pipelines(torch)[BACKWARD_OF[op][0]]
        wide = [t.float() if t.is_floating_point() else t for t in inputs]
        call, _ = backward_call(torch, forward, op, wide, grad.float())
        return call()[0]
    F = torch.nn.functional
    x = inputs[0].float()
    if op == "softmax":
        return torch.softmax(x, dim=-1)
    if op == "layernorm":
        return F.layer_norm(x, x.shape[-1:], inputs[1].float(), inputs[2].float(), LAYERNORM_EPS)
    if op == "rmsnorm":
        return F.rms_norm(x, x.shape[-1:], inputs[1].float(), RMSNORM_EPS)
    raise ValueError(op)


def max_abs_error(torch, call, ref, dtype):
    """max |call() - ref| (its first output: y, or a backward's dx), NaN where an element is NaN or
    was left unwritten: a block of the output's size is filled with NaN and freed first, and the
    caching allocator normally hands the same block to the peer's output (empty_like inside the
    peer)."""
    poison = torch.full_like(ref, float("nan"), dtype=dtype)
    del poison
    y = first(call())
    err = (y.float() - ref).abs().max().item()  # max propagates NaN
    del y
    return err


def bench_ms(triton, fn, warmup_ms, rep_ms):
    """Median ms of fn() by triton.testing.do_bench: an L2 flush, the start event, fn, the end
    event, enqueued for every repetition without waiting. Where fn's host work outlasts its GPU
    work (an autograd.grad call: the engine's thread, a library's Python launch path), the GPU
    waits for the host inside the timed interval (see gpu_ms)."""
    try:
        return triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="median")
    except TypeError:  # an older Triton without return_mode
        return triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, quantiles=[0.5])


def gpu_ms(torch, fn, warmup_ms, rep_ms):
    """Median ms of fn()'s GPU work alone (--timing gpu): as bench_ms, but between the L2 flush and
    the start event the GPU spins (torch.cuda._sleep) for three times the host's time for one call
    and at least 0.1 ms, so that fn's launches are queued before the start event fires and the
    interval holds no host time. The peers' backward rows timed by bench_ms moved by up to 0.48 of
    a copy between two H100 machines while their forward rows agreed within 0.02; timed so, two
    passes of QuACK's and Liger's backward agreed within 0.006 and their forward rows came within
    0.016 of bench_ms's (bench/NOTES.md, thirty-third and thirty-fourth sessions)."""
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    fn()
    torch.cuda.synchronize()
    began = time.perf_counter()
    fn()
    host_s = time.perf_counter() - began
    torch.cuda.synchronize()
    first, last = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    first.record()
    for _ in range(3):
        fn()
    last.record()
    torch.cuda.synchronize()
    estimate_ms = max(first.elapsed_time(last) / 3, 1e-3)
    # Cycles of a clock no faster than 2 GHz (an H100 SM runs at most 1.98 GHz), so the spin
    # lasts at least as long as asked.
    spin_cycles = int(max(3 * host_s, 1e-4) * 2e9)
    for _ in range(max(1, int(warmup_ms / estimate_ms))):
        fn()
    reps = max(5, int(rep_ms / estimate_ms))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for start_event, end_event in zip(starts, ends):
        flush.zero_()
        torch.cuda._sleep(spin_cycles)
        start_event.record()
        fn()
        end_event.record()
    torch.cuda.synchronize()
    times = sorted(a.elapsed_time(b) for a, b in zip(starts, ends))
    middle = len(times) // 2
    return times[middle] if len(times) % 2 else 0.5 * (times[middle - 1] + times[middle])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--op", default=",".join(OPS), help="ops and pipelines (default: all)")
    ap.add_argument("--dtype", default=",".join(DTYPES), help="fp32,fp16,bf16 (default: all)")
    ap.add_argument("--compile-dtype", default=None,
                    help="types for torch.compile (default: as --dtype); compiling is slow")
    ap.add_argument("--cols", default="32:32768", help="widths as rowfuse-bench --cols")
    ap.add_argument("--elems", default="2^27", help="elements a case (rows = elems / cols)")
    ap.add_argument("--impl", default=None,
                    help="eager,compile,quack,liger (default: eager and compile, and quack and "
                         "liger where they import)")
    ap.add_argument("--peer-dtype", default=None,
                    help="types for quack and liger (default: as --dtype)")
    ap.add_argument("--out", default="-", help="CSV file (default: stdout)")
    ap.add_argument("--warmup-ms", type=float, default=10.0)
    ap.add_argument("--rep-ms", type=float, default=40.0)
    ap.add_argument("--time-budget", type=float, default=0.0,
                    help="seconds; start no case after this (0: no limit)")
    ap.add_argument("--warm-only", action="store_true",
                    help="compile (and autotune) the torch.compile cases, time nothing")
    ap.add_argument("--shard", default="0/1", help="i/n: this process's share of the cases")
    ap.add_argument("--timing", default="gpu", choices=("gpu", "do_bench"),
                    help="gpu: the GPU's work alone (gpu_ms, default); do_bench: "
                         "triton.testing.do_bench, which times a host-bound call's host work too")
    args = ap.parse_args()

    start = time.monotonic()
    ops = split_list(args.op, OPS, "op")
    dtypes = split_list(args.dtype, DTYPES, "dtype")
    compile_dtypes = (split_list(args.compile_dtype, DTYPES, "dtype")
                      if args.compile_dtype is not None else dtypes)
    peer_dtypes = (split_list(args.peer_dtype, DTYPES, "dtype")
                   if args.peer_dtype is not None else dtypes)
    impls = split_list(args.impl, IMPLS, "impl") if args.impl is not None else IMPLS
    if args.warm_only:
        impls = [i for i in impls if i == "compile"]  # the only one with anything to warm
    # Bad arguments get a usage line, not a traceback (argparse's own error path).
    try:
        cols_list = parse_cols(args.cols)
        elems = parse_count(args.elems)
    except ValueError:
        ap.error(f"cannot read --cols {args.cols!r} or --elems {args.elems!r}")
    try:
        shard, shards = (int(v) for v in args.shard.split("/"))
        if not 0 <= shard < shards:
            raise ValueError
    except ValueError:
        ap.error(f"--shard wants i/n with 0 <= i < n, not {args.shard!r}")

    # Imported only now, so that --help and argument errors work on a machine without them.
    try:
        import torch
    except ImportError:
        print("peers.py: PyTorch is not installed here (pip install torch); no peer rows",
              file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("peers.py: no CUDA GPU found; PyTorch peers need one", file=sys.stderr)
        return 2
    try:
        import triton  # noqa: E402  (comes with PyTorch's CUDA build; times the launches)
        import triton.testing  # noqa: F401
    except ImportError:
        print("peers.py: Triton is not installed here (it comes with PyTorch's CUDA build); "
              "no peer rows", file=sys.stderr)
        return 2

    # Every width and type is a recompile of the same function (dynamic=False); past Dynamo's
    # default limit of 8 it would quietly fall back to eager.
    for name in ("recompile_limit", "cache_size_limit",
                 "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 100000)

    def time_ms(fn):
        if args.timing == "gpu":
            return gpu_ms(torch, fn, args.warmup_ms, args.rep_ms)
        return bench_ms(triton, fn, args.warmup_ms, args.rep_ms)

    fns = pipelines(torch)
    compiled = {}
    # QuACK and Liger only where they import: asked for by --impl, a line says why not.
    peer_fns = library_peers(torch, [i for i in impls if i in LIBRARY_PEERS])
    impls = [i for i in impls if i not in LIBRARY_PEERS or i in peer_fns]
    device = device_fields(torch)

    cases = []
    skipped = {}  # (impl, why) -> {cols: [dtypes]}
    for op in ops:
        for dtype in dtypes:
            for cols in cols_list:
                rows = elems // cols
                if rows < 1:
                    continue
                want = []
                for impl in impls:
                    if impl == "compile" and dtype not in compile_dtypes:
                        continue
                    if impl in LIBRARY_PEERS:
                        if op not in LIBRARY_OPS[impl] or dtype not in peer_dtypes:
                            continue
                        why = library_skip(impl, dtype, cols)
                        if why:
                            types = skipped.setdefault((impl, why), {}).setdefault(cols, [])
                            if dtype not in types:
                                types.append(dtype)
                            continue
                    want.append(impl)
                if want:
                    cases.append((op, dtype, rows, cols, want))
    cases = cases[shard::shards]
    for (impl, why), widths in skipped.items():
        print(f"peers.py: {impl} skipped at " +
              ", ".join(f"{c} ({'/'.join(t)})" for c, t in sorted(widths.items())) +
              f" columns: {why}", file=sys.stderr)

    out = sys.stdout if args.out == "-" else open(args.out, "w", newline="")
    writer = csv.DictWriter(out, FIELDS)
    if not args.warm_only:
        writer.writeheader()
    tty = sys.stderr.isatty()
    stopped = 0
    torch.manual_seed(0)
    with torch.no_grad():
        for index, (op, dtype, rows, cols, want) in enumerate(cases):
            if args.time_budget and time.monotonic() - start > args.time_budget:
                stopped = len(cases) - index
                break
            made = make_case(torch, op, dtype, rows, cols)
            if made is None:
                continue
            inputs, counted = made
            copy_gbps = None
            ref = None
            for impl in want:
                if impl == "eager":  # a backward op: the forward's autograd
                    fn = fns[BACKWARD_OF[op][0]] if op in BACKWARD_OF else fns[op]
                elif impl == "compile":
                    # dynamic=False: one specialised graph per shape, as the anchors measured.
                    forward_op = BACKWARD_OF[op][0] if op in BACKWARD_OF else op
                    if forward_op not in compiled:
                        compiled[forward_op] = torch.compile(fns[forward_op], dynamic=False)
                    fn = compiled[forward_op]
                else:
                    fn = peer_fns[impl][op]
                label = f"{op} {dtype} {cols} {impl}"
                check, check_err = "", ""
                try:
                    if impl == "quack" and any(t.data_ptr() % 16 for t in inputs):
                        raise ValueError("QuACK needs 16-byte aligned pointers")
                    if op in BACKWARD_OF:
                        call, grad = backward_call(torch, fn, op, inputs)
                    else:
                        call, grad = (lambda: fn(*inputs)), None
                    call()  # compiles (and autotunes) on first call for this shape
                    torch.cuda.synchronize()
                    if args.warm_only:
                        print(f"peers.py: warmed {label}", file=sys.stderr, flush=True)
                        continue
                    if impl in LIBRARY_PEERS:
                        if op in BACKWARD_OF:  # the reference takes this call's dy
                            ref = reference(torch, op, inputs, grad)
                            err = max_abs_error(torch, call, ref, inputs[0].dtype)
                        else:
                            if ref is None:
                                ref = reference(torch, op, inputs)
                            err = max_abs_error(torch, call, ref, inputs[0].dtype)
                        check, check_err = "max_abs_vs_fp32", f"{err:.3g}"
                    ms = time_ms(call)
                except Exception as e:  # a peer failing on a shape is a result, not a crash
                    print(f"peers.py: {label}: {one_line(e)}", file=sys.stderr)
                    continue
                if copy_gbps is None:
                    src = torch.empty(counted // 2, device="cuda", dtype=torch.uint8)
                    dst = torch.empty_like(src)
                    copy_ms = time_ms(lambda: dst.copy_(src))
                    copy_gbps = counted / copy_ms / 1e6
                    del src, dst
                gbps = counted / ms / 1e6
                writer.writerow({**device, "op": op, "impl": impl, "dtype": dtype, "rows": rows,
                                 "cols": cols, "bytes": counted, "ms": f"{ms:.5f}",
                                 "GBps": f"{gbps:.1f}", "copy_GBps": f"{copy_gbps:.1f}",
                                 "ratio_to_copy": f"{gbps / copy_gbps:.4f}", "reps": "",
                                 "check": check, "check_err": check_err})
                out.flush()
                line = (f"peers.py: [{index + 1}/{len(cases)}] {label}: {gbps:.0f} GB/s, "
                        f"{gbps / copy_gbps:.2f} of copy, {time.monotonic() - start:.0f} s")
                print(("\r" + line + "\x1b[K") if tty else line, file=sys.stderr,
                      end="" if tty else "\n", flush=True)
            # Drop this case's tensors (both names hold them, and a backward's graph) before the
            # next case allocates.
            made = inputs = ref = call = grad = None
            if index % 16 == 15:
                torch.cuda.empty_cache()
    if tty:
        print(file=sys.stderr)
    if stopped:
        print(f"peers.py: time budget spent; {stopped} case(s) not run", file=sys.stderr)
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
