// Experiment (not part of the build), issue 12: where the fused pipelines' time goes. For each of
// rowfuse-bench's four pipelines (bench/pipelines.cuh: same expressions, parameters, data ranges
// and counted bytes) at widths 128 to 32768, rows = 2^26 / cols, the ratio to a device-to-device
// copy of the same counted bytes timed in the same run (row_shapes.cu's timing: median of 9 after
// 2 warm-up runs, L2 flushed before each) of:
//  - planned: the library call as the bench makes it;
//  - planned_shape: the same expressions through engine::register_kernel at the plan's shape,
//    launched by this file (the library's kernel itself: its time and output bits must match);
//  - ablations at the plan's shape, each without one piece of the chain (no_dropout, no_mask,
//    no_bias, no_residual, no_tee, no_amax, scale1, ...), and the plain op;
//  - survey: the pipeline's expressions at candidate shapes (group and whole-block rows, staged
//    and direct, min_blocks_per_sm 1-3 as a register cap), each with one block a tile and with
//    a persistent grid of the resident blocks.
// Every case poisons the output (NaN), runs once and checks it before it is timed: every element
// written, and planned_shape and survey within two units of the output type of the planned call.
//
// One CSV line a case: pipeline,dtype,cols,variant,shape,regs,blocks_per_sm,ratio_to_copy,rows,
// local_bytes (spills: local memory a thread),grid,counted_bytes,ms,copy_ms,check,error. A case
// that cannot run prints "error" as its ratio and the reason in the last column.
//
// One part, from the repository root (Boost.Hana from /usr/include, CUB from the toolkit, as
// CMakeLists.txt finds them; src/*.cpp is the library's runtime):
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     -DPIPELINE_SHAPES_PART=0 bench/experiments/pipeline_shapes.cu src/*.cpp -o /tmp/ps0
//   /tmp/ps0 > ps0.csv
// With -DPIPELINE_SHAPES_NARROW=1 a part covers 32 and 64 columns instead (survey_narrow).
// With -DPIPELINE_SHAPES_WIDE=1 a part covers 32768 to 262144 columns instead: half 0 the planned
// call and the ablations there, half 1 a survey of cluster rows (a row over the registers of
// 2-16 blocks) and of whole-block rows that hold 32768 columns; with -DPIPELINE_SHAPES_HELD=1 too,
// half 1 surveys rows read back from their staging slot (survey_held), with
// -DPIPELINE_SHAPES_CAPS=1 cluster rows under caps of three blocks (survey_caps), and with
// -DPIPELINE_SHAPES_ONCE=1 the survey's cluster rows exchange once a row. With
// -DPIPELINE_SHAPES_STAGE_OPERANDS=1 the survey's staged shapes stage the load chain's operand
// streams beside the input (tuning::register_shape::stages_operands). With
// -DPIPELINE_SHAPES_WARPS=1 half 1 surveys rows of several whole warps at 512-8192 columns
// (survey_warps). With -DPIPELINE_SHAPES_BETWEEN=1 half 1 surveys the widths between the powers of
// two to 6144 columns on rows those widths fill (survey_between). With
// -DPIPELINE_SHAPES_MISALIGNED=1 every view is laid out as rowfuse-bench
// --misalign lays it out (x, residual, h, y and the per-column vectors one element off 16-byte
// alignment, ld = cols + 1), at the bench's misaligned widths 300 to 32767: the plans are then
// single elements (pack 1), and half 1 surveys single-element shapes (survey_misaligned); =2 and
// =3 survey only the widths to 3000 or from 4097 (two parts that build in half the time).
// Every part, built in parallel and run one after another into one CSV:
//   bench/experiments/pipeline_shapes.sh JOBS OUT.csv [PARTS]     (PARTS: "0 1 ... 7", fp16)
// PIPELINE_SHAPES_PART = 2 * pipeline + half, + 8 for bf16, + 16 for fp32: pipeline 0 attention,
// 1 residual, 2 residual_tee, 3 layernorm_fp8; half 0 the planned call and the ablations, half 1
// the survey (its lists name packs of 8; fp32 takes twice the packs of 4).
// Register kernels a part: half 0 28-49 (the library call's 14 with them), half 1 67; nvcc took
// 17-85 s a part on two shared cores. rf::cast's scale and amax are runtime values: no_amax,
// scale1 and no_amax_scale1 run the full pipeline's kernel itself, with other arguments.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <rowfuse/rowfuse.cuh>

#include "median_time.cuh"

#include "../harness.hpp"

#ifndef PIPELINE_SHAPES_PART
#define PIPELINE_SHAPES_PART 0
#endif
#ifndef PIPELINE_SHAPES_CAPS
#define PIPELINE_SHAPES_CAPS 0
#endif
#ifndef PIPELINE_SHAPES_WIDE
#define PIPELINE_SHAPES_WIDE 0
#endif
#ifndef PIPELINE_SHAPES_NARROW
#define PIPELINE_SHAPES_NARROW 0
#endif
#ifndef PIPELINE_SHAPES_HELD
#define PIPELINE_SHAPES_HELD 0
#endif
#ifndef PIPELINE_SHAPES_WARPS
#define PIPELINE_SHAPES_WARPS 0
#endif
#ifndef PIPELINE_SHAPES_BETWEEN
#define PIPELINE_SHAPES_BETWEEN 0
#endif
#ifndef PIPELINE_SHAPES_MISALIGNED
#define PIPELINE_SHAPES_MISALIGNED 0
#endif

namespace rf = rowfuse;
using rf::index_t;

namespace {

constexpr int part = PIPELINE_SHAPES_PART;
static_assert(part >= 0 && part < 24, "PIPELINE_SHAPES_PART is 0 to 23");

enum class pipeline_kind { attention, residual, residual_tee, layernorm_fp8 };
constexpr pipeline_kind pipeline = pipeline_kind(part / 2 % 4);
constexpr char const* pipeline_name[] = {"attention", "residual", "residual_tee", "layernorm_fp8"};
constexpr bool survey_half = part % 2 == 1;

// The input and per-column vectors.
using T =
    std::conditional_t<(part >= 16), float, std::conditional_t<(part >= 8), __nv_bfloat16, __half>>;
using fp8 = __nv_fp8_e4m3;
constexpr char const* dtype_name = part >= 16 ? "fp32" : part >= 8 ? "bf16" : "fp16";
constexpr bool misaligned = PIPELINE_SHAPES_MISALIGNED != 0;
// Elements a pack: what a 16-byte access moves, or single elements on the misaligned layout.
constexpr int pack = misaligned ? 1 : rf::detail::widest_pack<T>;
constexpr double element_bytes = sizeof(T); // of the input, in counted bytes

constexpr index_t elements = index_t(1) << 26; // rows * cols of every case
constexpr bool wide_rows = PIPELINE_SHAPES_WIDE != 0;
constexpr bool narrow_rows = PIPELINE_SHAPES_NARROW != 0;
static_assert(int(wide_rows) + int(narrow_rows) + int(misaligned) <= 1,
              "one of PIPELINE_SHAPES_WIDE, _NARROW and _MISALIGNED");
constexpr index_t narrowest = wide_rows     ? 32768
                              : narrow_rows ? 32
                              : misaligned  ? 300
                                            : 128,
                  widest = wide_rows     ? 262144
                           : narrow_rows ? 64
                           : misaligned  ? 32767
                                         : 32768;
/// rowfuse-bench's misaligned widths that register rows hold.
constexpr index_t misaligned_widths[] = {300, 1000, 2047, 3000, 4097, 8191, 16383, 32767};

/// Elements from one row to the next of x, residual, h and y.
constexpr index_t ld_of(index_t cols) {
  return misaligned ? cols + 1 : cols;
}
/// The elements a [rows, cols] tensor spans at ld_of(cols), with room for the misaligned start.
constexpr index_t tensor_elements = elements + elements / 128 + 64;

// ---- device memory, timing, data --------------------------------------------------------------

struct device_memory {
  T *x, *residual, *h, *bias, *gamma, *beta; // [elements] and [widest]
  void* y;                                   // [elements] of the output type (at most T)
  void* reference;                           // the planned call's y
  float* amax;
  void *copy_from, *copy_to;  // the copy ceiling: counted bytes / 2 <= 2 * sizeof(T) an element
  float* flush;               // 256 MB written before each timed run: L2 holds none of the data
  unsigned long long* counts; // compare_output's results
  int sms = 0;
  int smem_optin = 0; // cudaDevAttrMaxSharedMemoryPerBlockOptin
  cudaEvent_t start, stop;
} mem;

constexpr std::size_t flush_bytes = std::size_t(256) << 20;

template <class F> double time_ms(F f) {
  return median_time{2, 9, mem.flush, flush_bytes, mem.start, mem.stop}(f);
}

/// Uniform in [lo, hi) from a hash of (i, seed), as rowfuse-bench fills its inputs.
template <class E> __global__ void fill(E* out, index_t n, float lo, float hi, unsigned seed) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n;
       i += index_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ unsigned(i >> 32) * 40503u ^ seed * 0x9e3779b9u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    out[i] = E(lo + (hi - lo) * float(h & 0xffffff) / float(0x1000000));
  }
}

// ---- the output check -------------------------------------------------------------------------

/// counts[0]: elements still NaN (the poison: not written, or a NaN result); counts[1]: elements
/// off the reference by more than rel * |reference| + abs; counts[2]: the largest difference's
/// float bits (non-negative floats order as their bits).
template <class Out>
__global__ void compare_output(Out const* out, Out const* reference, index_t rows, index_t cols,
                               index_t ld, float rel, float abs, unsigned long long* counts) {
  unsigned long long nan = 0, off = 0;
  float largest = 0.0f;
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < rows * cols;
       k += index_t(gridDim.x) * blockDim.x) {
    index_t const i = k / cols * ld + k % cols;
    float const a = float(out[i]);
    if (isnan(a)) {
      ++nan;
      continue;
    }
    if (reference != nullptr) {
      float const b = float(reference[i]);
      float const difference = fabsf(a - b);
      if (!(difference <= rel * fabsf(b) + abs)) // a NaN reference counts as off
        ++off;
      if (difference > largest)
        largest = difference;
    }
  }
  atomicAdd(&counts[0], nan);
  atomicAdd(&counts[1], off);
  atomicMax(&counts[2], (unsigned long long)__float_as_uint(largest));
}

/// Two units of Out's precision relative, and the spacing of its smallest values absolute: the
/// planned call and another shape sum a row in another order, which moves a result by at most
/// about one unit once rounded.
template <class Out> constexpr float check_rel() {
  if constexpr (std::is_same_v<Out, fp8>)
    return 0x1p-2f; // 3 mantissa bits
  else if constexpr (std::is_same_v<Out, __nv_bfloat16>)
    return 0x1p-6f; // 7
  else if constexpr (std::is_same_v<Out, __half>)
    return 0x1p-9f; // 10
  else
    return 1e-5f;
}
template <class Out> constexpr float check_abs() {
  return std::is_same_v<Out, fp8> ? 0x1p-8f : 1e-5f;
}

/// "ok", or what is wrong with the [rows, cols] output (rows ld_of(cols) apart; `reference` laid
/// out alike): NaN elements, elements off the reference; with a reference, the largest difference.
template <class Out>
std::string check_output(Out const* out, void const* reference, index_t rows, index_t cols) {
  cudaMemset(mem.counts, 0, 3 * sizeof(unsigned long long));
  compare_output<<<1024, 256>>>(out, static_cast<Out const*>(reference), rows, cols, ld_of(cols),
                                check_rel<Out>(), check_abs<Out>(), mem.counts);
  unsigned long long counts[3] = {};
  if (cudaMemcpy(counts, mem.counts, sizeof counts, cudaMemcpyDeviceToHost) != cudaSuccess)
    return "check failed";
  unsigned const bits = unsigned(counts[2]);
  float largest;
  std::memcpy(&largest, &bits, sizeof largest);
  char text[96];
  int const length =
      counts[0] == 0 && counts[1] == 0
          ? std::snprintf(text, sizeof text, "ok")
          : std::snprintf(text, sizeof text, "nan %llu off %llu", counts[0], counts[1]);
  if (reference != nullptr)
    std::snprintf(text + length, sizeof text - length, " max %.3g", largest);
  return text;
}

// ---- one measured case ------------------------------------------------------------------------

struct outcome {
  int regs = -1, local_bytes = -1, blocks_per_sm = -1;
  index_t grid = 0;
  double ms = NAN;
  std::string check = "-";
  std::string error; // empty: ran
};

/// The error text of a CUDA status, with the sticky one cleared where it is not sticky.
std::string cuda_error(char const* what, cudaError_t status) {
  (void)cudaGetLastError();
  return std::string(what) + ": " + cudaGetErrorName(status);
}

/// Poisons the output, runs `launch` once, checks the output against `reference` (or for NaN
/// only, when it is null), then times it. `launch` returns the launch status; library calls
/// throw rowfuse::error instead, which the caller reports.
template <class Out, class Launch>
void measure(Launch launch, Out* out, index_t rows, index_t cols, void const* reference,
             outcome& o) {
  // NaN in fp32, fp16, bf16 and e4m3, the rows' padding too.
  cudaMemset(out, 0xff, std::size_t(rows * ld_of(cols)) * sizeof(Out));
  cudaError_t status = launch();
  if (status == cudaSuccess)
    status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    o.error = cuda_error("launch", status);
    return;
  }
  o.check = check_output(out, reference, rows, cols);
  double const ms = time_ms(launch);
  status = cudaDeviceSynchronize();
  if (status == cudaSuccess)
    status = cudaGetLastError();
  if (status != cudaSuccess)
    o.error = cuda_error("timed runs", status);
  else
    o.ms = ms;
}

/// What launch.cuh's kernel cache does before a launch: opts the kernel in to the device's
/// shared memory when it has dynamic shared memory, and asks how many of its blocks an SM holds.
template <class Kernel>
bool prepare(Kernel kernel, int block_threads, int dynamic_smem, outcome& o) {
  cudaFuncAttributes attributes{};
  if (cudaError_t const e = cudaFuncGetAttributes(&attributes, kernel); e != cudaSuccess) {
    o.error = cuda_error("cudaFuncGetAttributes", e);
    return false;
  }
  o.regs = attributes.numRegs;
  o.local_bytes = int(attributes.localSizeBytes);
  if (dynamic_smem > 0) {
    int const room = mem.smem_optin - int(attributes.sharedSizeBytes);
    if (dynamic_smem > room) {
      o.error = "staging " + std::to_string(dynamic_smem) + " B > " + std::to_string(room) +
                " B of shared memory left to a block";
      return false;
    }
    if (cudaError_t const e =
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, room);
        e != cudaSuccess) {
      o.error = cuda_error("cudaFuncSetAttribute", e);
      return false;
    }
  }
  if (cudaError_t const e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &o.blocks_per_sm, kernel, block_threads, std::size_t(dynamic_smem));
      e != cudaSuccess) {
    o.error = cuda_error("cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
    return false;
  }
  if (o.blocks_per_sm == 0) {
    o.error = "no block can be resident";
    return false;
  }
  return true;
}

/// "group P2 B256 staged persist min1": rows in a group of lanes or the whole block, packs a
/// thread, threads a block, cp.async staging, grid, __launch_bounds__' min blocks an SM; for a
/// row over a cluster, " C8" after the threads; "warps2": rows of that many whole warps (a
/// compile-time group; "warps1" a warp); " loop" at the end: single elements narrower than a float
/// read in the transform loop instead of for the whole row first.
std::string shape_name(bool whole_block, int packs, int threads, bool staged, bool persistent,
                       int min_blocks, int cluster = 1, int row_warps = 0,
                       bool read_in_loop = false) {
  char blocks[16] = "";
  if (cluster > 1)
    std::snprintf(blocks, sizeof blocks, " C%d", cluster);
  char rows_of[16] = "group";
  if (row_warps > 0)
    std::snprintf(rows_of, sizeof rows_of, "warps%d", row_warps);
  char text[80];
  std::snprintf(text, sizeof text, "%s P%d B%d%s %s %s min%d%s", whole_block ? "block" : rows_of,
                packs, threads, blocks, staged ? "staged" : "direct",
                persistent ? "persist" : "tiles", min_blocks, read_in_loop ? " loop" : "");
  return text;
}

template <class Config>
constexpr bool reads_in_loop = Config::pack == 1 && sizeof(T) < 4 && !Config::reads_row_first;
template <class Config> std::string config_name(bool persistent) {
  return shape_name(Config::whole_block, Config::packs, Config::block_threads,
                    Config::template staged<T>, persistent, Config::min_blocks_per_sm,
                    Config::cluster_blocks, Config::row_threads / 32, reads_in_loop<Config>);
}

/// Launches register_kernel<Config> over the bound expressions with launch.cuh's grid: one
/// block a tile of rows (one row for whole-block rows, block_threads / group for group rows,
/// the group the plan's: the fewest lanes, a power of two up to 32, that hold the row), or with
/// `persistent` at most the resident blocks (clusters), which loop over the tiles; checked
/// against `reference` and timed.
template <class Config, class Op, class Load, class Store>
outcome run_register(Op const& op, Load const& load, Store const& store, bool persistent,
                     void const* reference) {
  static_assert(Config::pack == pack);
  constexpr int packs = Config::packs, threads = Config::block_threads,
                cluster = Config::cluster_blocks;
  outcome o;
  index_t const rows = load.input.rows, cols = load.input.cols;
  constexpr int row_threads = Config::row_threads > 0 ? Config::row_threads : 32;
  index_t const capacity =
      index_t(Config::whole_block ? threads * cluster : row_threads) * packs * pack;
  if (capacity < cols) {
    o.error = "the shape holds " + std::to_string(capacity) + " columns";
    return o;
  }
  int group = threads;
  if (Config::row_threads > 0) {
    group = row_threads;
  } else if (!Config::whole_block) {
    index_t const packs_in_row = (cols + pack - 1) / pack;
    group = 1;
    while (group < 32 && index_t(group) * packs < packs_in_row)
      group *= 2;
  }
  int group_log2 = 0;
  while ((1 << group_log2) < group)
    ++group_log2;
  index_t const rows_per_block = Config::whole_block ? 1 : threads / group;

  auto const kernel = rf::engine::register_kernel<Config, Op, Load, Store>;
  int const smem = int(rf::engine::register_shared_bytes<Config, Op, Load>());
  if (!prepare(kernel, threads, smem, o))
    return o;
  index_t const tiles = (rows + rows_per_block - 1) / rows_per_block;

  // As the launcher does (dispatch/kernel_cache.hpp): resident blocks, or clusters.
  rf::detail::kernel_shape const launch_shape{reinterpret_cast<void const*>(kernel), 0, threads,
                                              cluster, std::size_t(smem)};
  index_t resident = 0;
  try {
    resident = rf::detail::resident_units(launch_shape);
  } catch (std::exception const& e) {
    o.error = e.what();
    return o;
  }
  if (resident == 0) {
    o.error = "no cluster can be resident";
    return o;
  }
  index_t const units =
      std::min(persistent ? std::min(tiles, resident) : tiles, (index_t(1) << 31) / cluster - 1);
  o.grid = units * cluster;
  cudaLaunchAttribute cluster_attribute;
  cudaLaunchConfig_t const launch =
      rf::detail::launch_config(launch_shape, unsigned(o.grid), nullptr, cluster_attribute);
  auto const run = [&] {
    return cudaLaunchKernelEx(&launch, kernel, op, load, store, rows, cols, group_log2);
  };
  measure(run, store.output.data, rows, cols, reference, o);
  return o;
}

// ---- a width's cases and its lines ------------------------------------------------------------

struct width_case {
  index_t rows, cols;
  std::map<std::size_t, double> copy_ms; // by bytes, measured in this width's run
};

/// ms of a device-to-device copy of `bytes` (it reads and writes them: 2 * bytes moved).
double copy_ms(width_case& w, std::size_t bytes) {
  auto const found = w.copy_ms.find(bytes);
  if (found != w.copy_ms.end())
    return found->second;
  double const ms = time_ms(
      [&] { cudaMemcpyAsync(mem.copy_to, mem.copy_from, bytes, cudaMemcpyDeviceToDevice); });
  w.copy_ms.emplace(bytes, ms);
  return ms;
}

/// CSV fields hold no commas or line breaks.
std::string field(std::string text) {
  for (char& c : text)
    if (c == ',' || c == '\n')
      c = ';';
  return text;
}

void print_header() {
  std::printf("pipeline,dtype,cols,variant,shape,regs,blocks_per_sm,ratio_to_copy,rows,local_bytes,"
              "grid,counted_bytes,ms,copy_ms,check,error\n");
}

/// One line. Counted bytes as rowfuse-bench counts them (full-size inputs read once, outputs
/// written once); the copy moves as many (it reads and writes half of them), so the ratio to
/// copy is the copy's time over the case's.
void print_line(width_case& w, char const* variant, std::string const& shape,
                double bytes_per_element, outcome const& o) {
  double const counted = double(w.rows) * double(w.cols) * bytes_per_element;
  double const copy = copy_ms(w, std::size_t(counted / 2));
  std::printf("%s,%s,%ld,%s,%s,%d,%d,", pipeline_name[int(pipeline)], dtype_name, long(w.cols),
              variant, field(shape).c_str(), o.regs, o.blocks_per_sm);
  if (o.error.empty())
    std::printf("%.4f", copy / o.ms);
  else
    std::printf("error");
  std::printf(",%ld,%d,%ld,%.0f,", long(w.rows), o.local_bytes, long(o.grid), counted);
  if (o.error.empty())
    std::printf("%.5f", o.ms);
  std::printf(",%.5f,%s,%s\n", copy, field(o.check).c_str(), field(o.error).c_str());
  std::fflush(stdout);
}

// ---- the pipelines ----------------------------------------------------------------------------

template <class Op, class Load, class Store> struct chain {
  Op op;
  Load load;   // unbound, as a user writes it
  Store store; // unbound
  double bytes_per_element;
};
template <class Op, class Load, class Store>
chain<Op, Load, Store> make_chain(Op const& op, Load const& load, Store const& store,
                                  double bytes_per_element) {
  return {op, load, store, bytes_per_element};
}

/// Where y starts: one element of its own type off 16-byte alignment on the misaligned layout
/// (mem's other pointers are moved so at setup).
template <class Out> Out* output() {
  return static_cast<Out*>(mem.y) + (misaligned ? 1 : 0);
}
/// A copy of the output as it was written (the rows' padding too), the reference of later cases.
template <class Out> void keep_reference(width_case const& w) {
  cudaMemcpy(mem.reference, output<Out>(), std::size_t(w.rows * ld_of(w.cols)) * sizeof(Out),
             cudaMemcpyDeviceToDevice);
}
auto input(width_case const& w) {
  return rf::load(static_cast<T const*>(mem.x), w.rows, w.cols, ld_of(w.cols));
}
rf::dropout_node dropout() {
  return rf::dropout(bench::dropout_p, bench::dropout_seed, bench::dropout_offset);
}
/// The op rf::softmax runs for this store expression.
template <class Store> auto softmax_op(Store const&) {
  return rf::op::softmax<false, rf::detail::accurate_exp<Store>>{};
}
/// The op rf::layernorm(load, store, rf::affine(gamma, beta), eps) runs.
auto layernorm_op(index_t cols) {
  auto const affine = rf::affine(static_cast<T const*>(mem.gamma), static_cast<T const*>(mem.beta))
                          .bind("rf::layernorm", cols);
  return rf::op::layernorm<std::remove_const_t<decltype(affine)>>{affine, bench::layernorm_eps, {}};
}

/// The pipeline as bench/pipelines.cuh spells it.
template <pipeline_kind K> auto full_chain(width_case const& w) {
  auto const x = input(w);
  if constexpr (K == pipeline_kind::attention) {
    auto const store = rf::store(output<T>(), ld_of(w.cols)) | dropout();
    return make_chain(softmax_op(store),
                      x | rf::scale(bench::attention_scale) | rf::causal_mask(w.cols), store,
                      2 * element_bytes);
  } else if constexpr (K == pipeline_kind::residual || K == pipeline_kind::residual_tee) {
    auto const sum = x | rf::bias(static_cast<T const*>(mem.bias)) | dropout() |
                     rf::add(static_cast<T const*>(mem.residual), ld_of(w.cols));
    auto const y = rf::store(output<T>(), ld_of(w.cols));
    if constexpr (K == pipeline_kind::residual)
      return make_chain(layernorm_op(w.cols), sum, y, 3 * element_bytes);
    else
      return make_chain(layernorm_op(w.cols), sum | rf::tee(mem.h, ld_of(w.cols)), y,
                        4 * element_bytes);
  } else {
    return make_chain(layernorm_op(w.cols), x,
                      rf::store(output<fp8>(), ld_of(w.cols)) |
                          rf::cast<fp8>(bench::fp8_scale, mem.amax),
                      element_bytes + 1);
  }
}

/// The library call of the full chain, as the bench makes it. The cols_range only bounds the
/// kernels it compiles (those these widths can plan); choose_plan never sees it, so the plan is
/// the bench's.
template <pipeline_kind K, class Chain>
rf::plan library_call(Chain const& c, rf::launch_options const& options) {
  if constexpr (K == pipeline_kind::attention)
    return rf::softmax<rf::cols_range{narrowest, widest}>(c.load, c.store, nullptr, options);
  else
    return rf::layernorm<rf::cols_range{narrowest, widest}>(
        c.load, c.store,
        rf::affine(static_cast<T const*>(mem.gamma), static_cast<T const*>(mem.beta)),
        bench::layernorm_eps, nullptr, {}, options);
}

/// Each ablation of the pipeline, a chain at a time: `run(variant, chain)`.
template <pipeline_kind K, class Run> void ablations(width_case const& w, Run run) {
  auto const x = input(w);
  auto const plain = rf::store(output<T>(), ld_of(w.cols));
  auto const bias = rf::bias(static_cast<T const*>(mem.bias));
  auto const residual = rf::add(static_cast<T const*>(mem.residual), ld_of(w.cols));
  auto const tee = rf::tee(mem.h, ld_of(w.cols));
  auto const norm = layernorm_op(w.cols);
  if constexpr (K == pipeline_kind::attention) {
    auto const dropped = plain | dropout();
    auto const scaled = x | rf::scale(bench::attention_scale);
    run("no_dropout",
        make_chain(softmax_op(plain), scaled | rf::causal_mask(w.cols), plain, 2 * element_bytes));
    run("no_mask", make_chain(softmax_op(dropped), scaled, dropped, 2 * element_bytes));
    run("no_scale_mask", make_chain(softmax_op(dropped), x, dropped, 2 * element_bytes));
    run("plain_softmax", make_chain(softmax_op(plain), x, plain, 2 * element_bytes));
  } else if constexpr (K == pipeline_kind::residual) {
    run("no_dropout", make_chain(norm, x | bias | residual, plain, 3 * element_bytes));
    run("no_bias", make_chain(norm, x | dropout() | residual, plain, 3 * element_bytes));
    run("no_residual", make_chain(norm, x | bias | dropout(), plain, 2 * element_bytes));
    run("no_operands", make_chain(norm, x | dropout(), plain, 2 * element_bytes));
    run("plain_layernorm", make_chain(norm, x, plain, 2 * element_bytes));
  } else if constexpr (K == pipeline_kind::residual_tee) {
    run("no_tee", make_chain(norm, x | bias | dropout() | residual, plain, 3 * element_bytes));
    run("no_dropout", make_chain(norm, x | bias | residual | tee, plain, 4 * element_bytes));
    run("no_bias", make_chain(norm, x | dropout() | residual | tee, plain, 4 * element_bytes));
    run("no_residual", make_chain(norm, x | bias | dropout() | tee, plain, 3 * element_bytes));
    run("plain_layernorm", make_chain(norm, x, plain, 2 * element_bytes));
  } else {
    auto const to_fp8 = rf::store(output<fp8>(), ld_of(w.cols));
    run("no_amax",
        make_chain(norm, x, to_fp8 | rf::cast<fp8>(bench::fp8_scale), element_bytes + 1));
    run("scale1", make_chain(norm, x, to_fp8 | rf::cast<fp8>(1.0f, mem.amax), element_bytes + 1));
    run("no_amax_scale1", make_chain(norm, x, to_fp8 | rf::cast<fp8>(), element_bytes + 1));
    // The same scale and amax, rounding to the input type instead of fp8.
    run("input_type_cast",
        make_chain(norm, x, plain | rf::cast<T>(bench::fp8_scale, mem.amax), 2 * element_bytes));
    run("plain_layernorm", make_chain(norm, x, plain, 2 * element_bytes));
  }
}

// ---- the plan's shape -------------------------------------------------------------------------

/// Runs `body(Config{}, persistent)` for row `shape` of the op's register-shape table, the
/// Config launch_for_pack instantiates for it (so the kernel of the library's call is this one);
/// rows that only narrower widths than this experiment's plan are left out. False when the row
/// is not among those (the plan chose another engine).
template <class Op, class Load, class Store, class Body>
bool with_plan_config(int shape, Body&& body) {
  static constexpr auto const& table = rf::detail::shape_table<T, pack, Op, Load, Store>();
  bool found = false;
  rf::detail::for_each_index<std::size(table)>([&](auto index) {
    constexpr std::size_t I = decltype(index)::value;
    if constexpr (std::max(table[I].max_cols, rf::tuning::capacity(table[I], pack)) >= narrowest) {
      if (shape == int(I)) {
        found = true;
        body(typename rf::detail::register_kernel_config<table, I, pack>::type{},
             table[I].persistent);
      }
    }
  });
  return found;
}

/// Runs a chain at the plan's shape (the row `p.shape` of the table of the planned chain `Planned`,
/// which an ablation's own chain may not share: attention's ablations plan from softmax's) and
/// prints its line; `reference` as for measure.
template <class Planned, class Chain>
void at_plan_shape(width_case& w, rf::plan const& p, char const* variant, Chain const& c,
                   void const* reference) {
  using Op = decltype(Chain::op);
  outcome o;
  std::string shape = "-";
  try {
    auto const load = rf::detail::bind(c.load, Op::name);
    auto const store = rf::detail::bind(c.store, Op::name, w.rows, w.cols);
    bool const found =
        with_plan_config<decltype(Planned::op), decltype(Planned::load), decltype(Planned::store)>(
            p.shape, [&](auto config, bool persistent) {
              using Config = decltype(config);
              shape = config_name<Config>(persistent);
              o = run_register<Config>(c.op, load, store, persistent, reference);
            });
    if (!found)
      o.error = "the plan (" + rf::explain(p) + ") is not a register shape of this experiment";
  } catch (std::exception const& e) {
    o.error = e.what();
  }
  print_line(w, variant, shape, c.bytes_per_element, o);
}

/// Half 0 at one width: the library call (whose output is the reference of planned_shape), the
/// same kernel launched here, and the ablations.
template <pipeline_kind K> void planned_and_ablations(width_case& w) {
  auto const full = full_chain<K>(w);
  using Op = decltype(full.op);
  using Out = typename decltype(full.store)::element_type;
  rf::plan p;
  outcome o;
  std::string shape = "-";
  try {
    p = library_call<K>(full, rf::launch_options{rf::engine_kind::automatic, 0, true});
    o.grid = p.grid;
    int min_blocks = 0, row_warps = 0;
    bool read_in_loop = false;
    // The kernel the plan names: its registers and occupancy.
    bool const found = with_plan_config<Op, decltype(full.load), decltype(full.store)>(
        p.shape, [&](auto config, bool) {
          using Config = decltype(config);
          using Load = decltype(rf::detail::bind(full.load, Op::name));
          using Store = decltype(rf::detail::bind(full.store, Op::name, w.rows, w.cols));
          min_blocks = Config::min_blocks_per_sm;
          row_warps = Config::row_threads / 32;
          read_in_loop = reads_in_loop<Config>;
          prepare(rf::engine::register_kernel<Config, Op, Load, Store>, Config::block_threads,
                  int(rf::engine::register_shared_bytes<Config, Op, Load>()), o);
        });
    // Past the register rows (wide_rows) the plan's engine names the shape; it is timed too.
    shape = found ? shape_name(p.engine != rf::engine_kind::warp_rows, p.packs, p.block_threads,
                               p.staged, p.persistent, min_blocks, p.cluster_blocks, row_warps,
                               read_in_loop)
                  : std::string(rf::to_string(p.engine));
    if (!found && !wide_rows)
      o.error = "the plan (" + rf::explain(p) + ") is not a register shape of this experiment";
    else if (o.error.empty())
      measure(
          [&] {
            library_call<K>(full, {});
            return cudaSuccess;
          },
          output<Out>(), w.rows, w.cols, nullptr, o);
  } catch (std::exception const& e) {
    o.error = e.what();
  }
  print_line(w, "planned", shape, full.bytes_per_element, o);
  bool const have_reference = o.error.empty();
  if (have_reference)
    keep_reference<Out>(w);
  using Planned = std::remove_const_t<decltype(full)>;
  at_plan_shape<Planned>(w, p, "planned_shape", full, have_reference ? mem.reference : nullptr);
  ablations<K>(w, [&](char const* variant, auto const& c) {
    at_plan_shape<Planned>(w, p, variant, c, nullptr);
  });
}

// ---- the survey -------------------------------------------------------------------------------

/// The survey's shapes, with PIPELINE_SHAPES_STAGE_OPERANDS=1 staging a load chain's operand
/// streams beside the input where they stage it (tuning::register_shape::stages_operands).
#ifndef PIPELINE_SHAPES_STAGE_OPERANDS
#define PIPELINE_SHAPES_STAGE_OPERANDS 0
#endif
/// With PIPELINE_SHAPES_ONCE=1 their cluster shapes exchange once a row where the op can
/// (tuning::register_shape::exchanges_once: attention's softmax).
#ifndef PIPELINE_SHAPES_ONCE
#define PIPELINE_SHAPES_ONCE 0
#endif
template <class Base> struct survey_config : Base {
  static constexpr bool stages_operands = PIPELINE_SHAPES_STAGE_OPERANDS != 0;
  static constexpr bool exchanges_once = PIPELINE_SHAPES_ONCE != 0 && Base::cluster_blocks > 1;
};

/// A candidate shape: packs a thread, threads a block, whole-block rows (or a group of lanes),
/// staged, __launch_bounds__' min blocks an SM, blocks a row (a cluster), and whether the row is
/// read back from its staging slot with gamma and beta held (tuning::column_placement::held), and
/// for group rows the whole warps a row (tuning::register_shape::row_threads / 32; 0: a run-time
/// group), and whether single 16-bit elements are read for the whole row first
/// (tuning::register_shape::reads_row_first).
template <int Packs, int Threads, bool WholeBlock, bool Staged, int MinBlocks = 1, int Cluster = 1,
          bool Held = false, int RowWarps = 0, bool ReadsFirst = true>
struct shape {
  static_assert(Threads * MinBlocks <= 2048, "an SM holds 2048 threads");
};

/// Half 1 at one width: the reference from the library call (untimed), then every shape with
/// one block a tile and with a persistent grid.
template <pipeline_kind K, class... Shapes> void survey(index_t cols, Shapes...) {
  width_case w{elements / cols, cols, {}};
  auto const full = full_chain<K>(w);
  using Op = decltype(full.op);
  // The reference: the library call's output (its plan may be past the register rows).
  try {
    library_call<K>(full, {});
    if (cudaError_t const e = cudaDeviceSynchronize(); e != cudaSuccess)
      throw std::runtime_error(cuda_error("the library call", e));
  } catch (std::exception const& e) {
    outcome o;
    o.error = e.what();
    print_line(w, "survey_reference", "-", full.bytes_per_element, o);
    return;
  }
  using Out = typename decltype(full.store)::element_type;
  keep_reference<Out>(w);
  auto const load = rf::detail::bind(full.load, Op::name);
  auto const store = rf::detail::bind(full.store, Op::name, w.rows, w.cols);
  auto const one = [&]<int Packs, int Threads, bool WholeBlock, bool Staged, int MinBlocks,
                       int Cluster, bool Held, int RowWarps, bool ReadsFirst>(
                       shape<Packs, Threads, WholeBlock, Staged, MinBlocks, Cluster, Held, RowWarps,
                             ReadsFirst>) {
    using Config = survey_config<rf::detail::register_config<
        pack, Packs, Threads, WholeBlock, Staged, Cluster, MinBlocks, ReadsFirst, 32 * RowWarps,
        Held ? rf::tuning::column_placement::held : rf::tuning::column_placement::per_engine>>;
    // " ops": the load chain's operand streams staged beside the input
    // (engine::staged_streams); " held": the row read back from its slot
    // (engine::rereads_staged_row).
    using Load = std::remove_const_t<decltype(load)>;
    std::string const operands =
        std::string(rf::engine::staged_streams<Config, Op, Load>::operands ? " ops" : "") +
        (rf::engine::rereads_staged_row<Config, Op, Load> ? " held" : "");
    for (bool persistent : {false, true})
      print_line(w, "survey", config_name<Config>(persistent) + operands, full.bytes_per_element,
                 run_register<Config>(full.op, load, store, persistent, mem.reference));
  };
  (one(Shapes{}), ...);
}

/// The survey lists name packs of 8 (16-bit); fp32 packs of 4 take S = 2 times as many, so that a
/// shape holds the same columns and values a thread.
[[maybe_unused]] constexpr int S = 8 / pack;

/// Shapes that hold each width (packs of 8): group rows to 1024 columns (32 lanes x P x 8),
/// whole-block rows from 1024 with B x P x 8 = cols (P = 1 also at twice that: no more than
/// half the threads idle), direct and staged, and min blocks 2 and 3 (a cap of 65536 /
/// (B x min) registers) where that cap may bind. Each plan's shape (light_16bit and heavy_16bit)
/// is among them.
template <pipeline_kind K> void survey_all() {
  constexpr bool d = false, st = true, g = false, b = true;
  // The chains' narrow row (2 x 256 under a cap of four blocks) and layernorm's own (round 8:
  // 4 x 128 under six; 2 x 256 under five), and their neighbours.
  for (index_t cols : {128, 256})
    survey<K>(cols, shape<1 * S, 256, g, d>{}, shape<1 * S, 256, g, st>{},
              shape<2 * S, 256, g, d>{}, shape<2 * S, 256, g, st>{}, shape<4 * S, 256, g, d>{},
              shape<4 * S, 256, g, st>{}, shape<1 * S, 512, g, d>{}, shape<1 * S, 512, g, st>{},
              shape<2 * S, 256, g, st, 3>{}, shape<1 * S, 512, g, st, 2>{},
              shape<1 * S, 512, g, st, 3>{}, shape<2 * S, 256, g, d, 4>{},
              shape<2 * S, 256, g, d, 5>{}, shape<4 * S, 128, g, d, 6>{},
              shape<4 * S, 128, g, d, 8>{}, shape<2 * S, 128, g, d, 8>{});
  survey<K>(512, shape<2 * S, 256, g, d>{}, shape<2 * S, 256, g, st>{}, shape<4 * S, 256, g, d>{},
            shape<4 * S, 256, g, st>{}, shape<2 * S, 512, g, d>{}, shape<2 * S, 512, g, st>{},
            shape<4 * S, 128, g, d>{}, shape<4 * S, 128, g, st>{}, shape<2 * S, 256, g, st, 3>{},
            shape<2 * S, 512, g, st, 2>{}, shape<2 * S, 512, g, st, 3>{},
            shape<2 * S, 256, g, d, 4>{}, shape<2 * S, 256, g, d, 5>{},
            shape<4 * S, 128, g, d, 6>{}, shape<4 * S, 128, g, d, 8>{});
  survey<K>(1024, shape<4 * S, 128, g, d>{}, shape<4 * S, 128, g, st>{}, shape<4 * S, 256, g, d>{},
            shape<4 * S, 256, g, st>{}, shape<4 * S, 512, g, d>{}, shape<4 * S, 512, g, st>{},
            shape<1 * S, 128, b, d>{}, shape<1 * S, 128, b, st>{}, shape<4 * S, 256, g, st, 2>{},
            shape<4 * S, 256, g, st, 3>{}, shape<4 * S, 512, g, st, 2>{});
  survey<K>(2048, shape<1 * S, 256, b, d>{}, shape<1 * S, 256, b, st>{}, shape<2 * S, 128, b, d>{},
            shape<2 * S, 128, b, st>{}, shape<1 * S, 512, b, d>{}, shape<1 * S, 512, b, st>{},
            shape<1 * S, 256, b, st, 3>{}, shape<1 * S, 512, b, st, 2>{},
            shape<1 * S, 512, b, st, 3>{});
  survey<K>(4096, shape<1 * S, 512, b, d>{}, shape<1 * S, 512, b, st>{}, shape<2 * S, 256, b, d>{},
            shape<2 * S, 256, b, st>{}, shape<4 * S, 128, b, d>{}, shape<4 * S, 128, b, st>{},
            shape<1 * S, 1024, b, d>{}, shape<1 * S, 1024, b, st>{}, shape<2 * S, 256, b, st, 3>{},
            shape<1 * S, 512, b, st, 2>{}, shape<1 * S, 512, b, st, 3>{},
            shape<1 * S, 1024, b, st, 2>{}, shape<4 * S, 128, b, d, 6>{},
            shape<4 * S, 128, b, d, 4>{}, shape<2 * S, 256, b, d, 3>{});
  survey<K>(8192, shape<1 * S, 1024, b, d>{}, shape<1 * S, 1024, b, st>{},
            shape<2 * S, 512, b, d>{}, shape<2 * S, 512, b, st>{}, shape<4 * S, 256, b, d>{},
            shape<4 * S, 256, b, st>{}, shape<8 * S, 128, b, d>{}, shape<8 * S, 128, b, st>{},
            shape<2 * S, 512, b, st, 2>{}, shape<2 * S, 512, b, st, 3>{},
            shape<4 * S, 256, b, st, 3>{}, shape<1 * S, 1024, b, st, 2>{});
  survey<K>(16384, shape<2 * S, 1024, b, d>{}, shape<2 * S, 1024, b, st>{},
            shape<4 * S, 512, b, d>{}, shape<4 * S, 512, b, st>{}, shape<8 * S, 256, b, d>{},
            shape<8 * S, 256, b, st>{}, shape<2 * S, 1024, b, st, 2>{},
            shape<4 * S, 512, b, st, 2>{}, shape<4 * S, 512, b, st, 3>{},
            shape<8 * S, 256, b, st, 3>{});
  survey<K>(32768, shape<4 * S, 1024, b, d>{}, shape<4 * S, 1024, b, st>{},
            shape<8 * S, 512, b, d>{}, shape<8 * S, 512, b, st>{}, shape<4 * S, 1024, b, st, 2>{},
            shape<8 * S, 512, b, st, 2>{}, shape<8 * S, 512, b, st, 3>{});
}

/// Rows of 32768 to 262144 columns (wide_rows, packs of 8): rows over a cluster's registers, B x
/// C x P x 8 = cols, direct and staged, with and without a register cap (min blocks) that buys
/// blocks an SM; at 32768 whole-block rows too. The planned cluster rows (softmax_16bit's) are
/// among them.
template <pipeline_kind K> void survey_wide() {
  constexpr bool d = false, st = true, b = true;
  survey<K>(32768, shape<4 * S, 1024, b, st>{}, shape<8 * S, 512, b, st>{},
            shape<4 * S, 256, b, d, 1, 4>{}, shape<4 * S, 256, b, st, 1, 4>{},
            shape<8 * S, 128, b, d, 1, 4>{}, shape<8 * S, 128, b, st, 1, 4>{},
            shape<4 * S, 512, b, d, 1, 2>{}, shape<4 * S, 512, b, st, 1, 2>{},
            shape<2 * S, 512, b, d, 1, 4>{}, shape<4 * S, 128, b, d, 1, 8>{},
            shape<4 * S, 256, b, d, 2, 4>{}, shape<8 * S, 128, b, d, 4, 4>{});
  survey<K>(65536, shape<8 * S, 128, b, d, 1, 8>{}, shape<8 * S, 128, b, st, 1, 8>{},
            shape<4 * S, 256, b, d, 1, 8>{}, shape<4 * S, 256, b, st, 1, 8>{},
            shape<4 * S, 512, b, d, 1, 4>{}, shape<8 * S, 256, b, d, 1, 4>{},
            shape<8 * S, 256, b, st, 1, 4>{}, shape<2 * S, 512, b, d, 1, 8>{},
            shape<4 * S, 128, b, d, 1, 16>{}, shape<8 * S, 256, b, d, 2, 4>{},
            shape<4 * S, 256, b, d, 2, 8>{}, shape<8 * S, 128, b, d, 4, 8>{});
  survey<K>(131072, shape<8 * S, 128, b, d, 1, 16>{}, shape<8 * S, 128, b, st, 1, 16>{},
            shape<8 * S, 256, b, d, 1, 8>{}, shape<8 * S, 256, b, st, 1, 8>{},
            shape<4 * S, 256, b, d, 1, 16>{}, shape<4 * S, 256, b, st, 1, 16>{},
            shape<4 * S, 512, b, d, 1, 8>{}, shape<8 * S, 512, b, d, 1, 4>{},
            shape<8 * S, 256, b, d, 2, 8>{}, shape<4 * S, 512, b, d, 2, 8>{},
            shape<8 * S, 128, b, d, 4, 16>{});
  survey<K>(262144, shape<8 * S, 256, b, d, 1, 16>{}, shape<8 * S, 256, b, st, 1, 16>{},
            shape<4 * S, 512, b, d, 1, 16>{}, shape<4 * S, 512, b, st, 1, 16>{},
            shape<8 * S, 512, b, d, 1, 8>{}, shape<8 * S, 512, b, st, 1, 8>{},
            shape<8 * S, 256, b, d, 2, 16>{}, shape<4 * S, 512, b, d, 2, 16>{},
            shape<16 * S, 256, b, d, 1, 8>{});
}

/// Cluster rows of 64 values a thread under caps of three blocks of 256 threads or six of 128
/// (PIPELINE_SHAPES_CAPS=1 with wide_rows; forty-sixth session: softmax's on an H200, row_shapes.cu
/// round 38), direct and staged.
template <pipeline_kind K> void survey_caps() {
  constexpr bool d = false, st = true, b = true;
  survey<K>(32768, shape<8 * S, 256, b, d, 3, 2>{}, shape<8 * S, 256, b, st, 3, 2>{},
            shape<8 * S, 128, b, d, 6, 4>{}, shape<8 * S, 128, b, st, 6, 4>{});
  survey<K>(65536, shape<8 * S, 256, b, d, 3, 4>{}, shape<8 * S, 256, b, st, 3, 4>{},
            shape<8 * S, 128, b, d, 6, 8>{}, shape<8 * S, 128, b, st, 6, 8>{});
  survey<K>(131072, shape<8 * S, 256, b, d, 3, 8>{}, shape<8 * S, 256, b, st, 3, 8>{},
            shape<8 * S, 128, b, d, 6, 16>{}, shape<8 * S, 128, b, st, 6, 16>{});
  survey<K>(262144, shape<8 * S, 256, b, d, 3, 16>{}, shape<8 * S, 256, b, st, 3, 16>{});
}

/// Rows read back from their staging slot, gamma and beta held (PIPELINE_SHAPES_HELD=1 with
/// wide_rows; the residual block's chain replays only with its residual staged:
/// PIPELINE_SHAPES_STAGE_OPERANDS=1), 16384-262144 columns: whole-block rows and clusters of
/// 2-16, one or two slots of both streams (the plain layernorm's held rows among them).
template <pipeline_kind K> void survey_held() {
  constexpr bool st = true, b = true, h = true;
  survey<K>(16384, shape<4 * S, 512, b, st, 1, 1, h>{}, shape<2 * S, 1024, b, st, 1, 1, h>{},
            shape<4 * S, 256, b, st, 1, 2, h>{}, shape<2 * S, 512, b, st, 1, 2, h>{},
            shape<8 * S, 256, b, st, 1, 1, h>{});
  survey<K>(32768, shape<4 * S, 1024, b, st, 1, 1, h>{}, shape<4 * S, 512, b, st, 1, 2, h>{},
            shape<2 * S, 1024, b, st, 1, 2, h>{}, shape<4 * S, 256, b, st, 1, 4, h>{},
            shape<8 * S, 512, b, st, 1, 1, h>{}, shape<8 * S, 256, b, st, 1, 2, h>{});
  survey<K>(65536, shape<4 * S, 1024, b, st, 1, 2, h>{}, shape<4 * S, 512, b, st, 1, 4, h>{},
            shape<2 * S, 1024, b, st, 1, 4, h>{}, shape<4 * S, 256, b, st, 1, 8, h>{},
            shape<8 * S, 256, b, st, 1, 4, h>{}, shape<8 * S, 512, b, st, 1, 2, h>{});
  survey<K>(131072, shape<8 * S, 512, b, st, 1, 4, h>{}, shape<4 * S, 512, b, st, 1, 8, h>{},
            shape<8 * S, 256, b, st, 1, 8, h>{}, shape<4 * S, 256, b, st, 1, 16, h>{},
            shape<4 * S, 1024, b, st, 1, 4, h>{});
  survey<K>(262144, shape<8 * S, 256, b, st, 2, 16, h>{}, shape<8 * S, 256, b, st, 1, 16, h>{},
            shape<4 * S, 512, b, st, 1, 16, h>{}, shape<8 * S, 512, b, st, 1, 8, h>{},
            shape<4 * S, 1024, b, st, 1, 8, h>{});
}

/// Rows of 32 and 64 columns (narrow_rows, packs of 8): group rows of 1-4 packs a lane over 128-512
/// threads, direct and staged, under the caps the wider group rows take.
template <pipeline_kind K> void survey_narrow() {
  constexpr bool d = false, st = true, g = false;
  for (index_t cols : {32, 64})
    survey<K>(cols, shape<1 * S, 256, g, d>{}, shape<1 * S, 256, g, st>{},
              shape<2 * S, 256, g, d>{}, shape<2 * S, 256, g, st>{}, shape<4 * S, 256, g, d>{},
              shape<4 * S, 256, g, st>{}, shape<1 * S, 512, g, d>{}, shape<1 * S, 512, g, st>{},
              shape<4 * S, 128, g, st>{}, shape<2 * S, 256, g, d, 4>{},
              shape<4 * S, 128, g, d, 6>{}, shape<2 * S, 128, g, d, 8>{},
              shape<4 * S, 512, g, st, 2>{});
}

/// Rows of several whole warps, several rows a block (PIPELINE_SHAPES_WARPS=1; twenty-second
/// session), 512-8192 columns, beside the tables' rows at each width (the residual block's,
/// layernorm -> fp8's and attention's, 16-bit), one block a tile and persistent, direct and staged.
template <pipeline_kind K> void survey_warps() {
  constexpr bool d = false, st = true, g = false, b = true, n = false;
  survey<K>(512, shape<4 * S, 128, g, st>{}, shape<2 * S, 256, g, st>{}, shape<4 * S, 256, g, st>{},
            shape<1 * S, 128, g, d, 1, 1, n, 2>{}, shape<1 * S, 128, g, st, 1, 1, n, 2>{},
            shape<1 * S, 256, g, d, 1, 1, n, 2>{}, shape<1 * S, 256, g, st, 1, 1, n, 2>{},
            shape<1 * S, 512, g, st, 1, 1, n, 2>{}, shape<2 * S, 256, g, st, 1, 1, n, 1>{});
  survey<K>(1024, shape<1 * S, 128, b, d>{}, shape<4 * S, 512, g, st, 2>{},
            shape<4 * S, 128, g, st>{}, shape<2 * S, 128, g, d, 1, 1, n, 2>{},
            shape<2 * S, 128, g, st, 1, 1, n, 2>{}, shape<2 * S, 256, g, d, 1, 1, n, 2>{},
            shape<2 * S, 256, g, st, 1, 1, n, 2>{}, shape<1 * S, 256, g, d, 1, 1, n, 4>{},
            shape<1 * S, 256, g, st, 1, 1, n, 4>{}, shape<1 * S, 512, g, st, 1, 1, n, 4>{},
            shape<2 * S, 512, g, st, 1, 1, n, 2>{});
  survey<K>(2048, shape<2 * S, 128, b, st>{}, shape<1 * S, 256, b, st>{},
            shape<2 * S, 256, g, d, 1, 1, n, 4>{}, shape<2 * S, 256, g, st, 1, 1, n, 4>{},
            shape<2 * S, 512, g, st, 1, 1, n, 4>{}, shape<4 * S, 128, g, st, 1, 1, n, 2>{},
            shape<4 * S, 256, g, st, 1, 1, n, 2>{}, shape<1 * S, 512, g, st, 1, 1, n, 8>{},
            shape<1 * S, 512, g, d, 1, 1, n, 8>{}, shape<2 * S, 512, g, st, 2, 1, n, 4>{});
  survey<K>(4096, shape<2 * S, 256, b, st, 3>{}, shape<4 * S, 128, b, st>{},
            shape<4 * S, 128, b, d, 6>{}, shape<4 * S, 256, g, st, 1, 1, n, 4>{},
            shape<4 * S, 512, g, st, 1, 1, n, 4>{}, shape<2 * S, 512, g, st, 1, 1, n, 8>{},
            shape<2 * S, 512, g, d, 1, 1, n, 8>{}, shape<2 * S, 1024, g, st, 1, 1, n, 8>{},
            shape<4 * S, 512, g, st, 2, 1, n, 4>{});
  survey<K>(8192, shape<4 * S, 256, b, st, 3>{}, shape<4 * S, 256, b, st>{},
            shape<4 * S, 512, g, st, 1, 1, n, 8>{}, shape<4 * S, 1024, g, st, 1, 1, n, 8>{},
            shape<8 * S, 256, g, st, 1, 1, n, 4>{}, shape<2 * S, 1024, g, st, 1, 1, n, 16>{});
}

/// The widths between the powers of two to 6144 columns (PIPELINE_SHAPES_BETWEEN=1; forty-eighth
/// session, the plain ops' rounds 44-45 of row_shapes.cu): groups of three, five and seven packs a
/// lane, rows of two and four warps of three to six packs, block rows of three and six packs, which
/// those widths fill to 78-100 %, beside rows of the shapes the tables give the power of two above.
template <pipeline_kind K> void survey_between() {
  constexpr bool d = false, st = true, g = false, b = true, n = false;
  survey<K>(200, shape<2 * S, 256, g, d, 4>{}, shape<4 * S, 128, g, d, 8>{},
            shape<4 * S, 128, g, st, 6>{}, shape<7 * S, 128, g, d, 5>{});
  survey<K>(264, shape<4 * S, 128, g, d, 6>{}, shape<5 * S, 128, g, d, 8>{},
            shape<5 * S, 128, g, st, 6>{}, shape<5 * S, 256, g, d, 4>{},
            shape<3 * S, 256, g, d, 4>{});
  survey<K>(384, shape<4 * S, 128, g, d, 6>{}, shape<3 * S, 256, g, d, 4>{},
            shape<3 * S, 256, g, st, 4>{}, shape<6 * S, 128, g, d, 8>{},
            shape<6 * S, 128, g, st, 6>{});
  survey<K>(600, shape<4 * S, 128, g, st>{}, shape<5 * S, 128, g, d, 8>{},
            shape<5 * S, 128, g, st, 6>{}, shape<5 * S, 256, g, d, 4>{},
            shape<5 * S, 128, g, d, 6>{});
  for (index_t cols : {2056, 2560})
    survey<K>(cols, shape<4 * S, 128, b, d, 6>{}, shape<5 * S, 128, g, d, 6, 1, n, 2>{},
              shape<5 * S, 128, g, st, 6, 1, n, 2>{}, shape<5 * S, 256, g, st, 3, 1, n, 2>{},
              shape<5 * S, 128, g, d, 4, 1, n, 2>{});
  survey<K>(3000, shape<4 * S, 128, b, d, 6>{}, shape<3 * S, 256, g, d, 4, 1, n, 4>{},
            shape<3 * S, 256, g, st, 4, 1, n, 4>{}, shape<6 * S, 128, g, d, 6, 1, n, 2>{},
            shape<6 * S, 128, g, st, 5, 1, n, 2>{});
  for (index_t cols : {4104, 5120})
    survey<K>(cols, shape<4 * S, 256, b, st>{}, shape<5 * S, 128, g, d, 6, 1, n, 4>{},
              shape<5 * S, 128, g, st, 6, 1, n, 4>{}, shape<5 * S, 128, b, d, 6>{},
              shape<5 * S, 128, b, st, 5>{});
  survey<K>(6144, shape<4 * S, 256, b, st>{}, shape<6 * S, 128, b, d, 6>{},
            shape<6 * S, 128, b, st, 5>{}, shape<3 * S, 256, b, d, 4>{},
            shape<3 * S, 256, b, st, 4>{});
}

/// Single elements on the misaligned layout (PIPELINE_SHAPES_MISALIGNED=1), at rowfuse-bench's
/// misaligned widths: the rows the pipelines' single-element tables plan (round 3's, read first),
/// the plain ops' rows of rounds 11-13 (32 values a thread read in the transform loop, under the
/// caps those rounds chose; at 300 and 1000 a warp a row), and their neighbours, each read first
/// (F) and in the loop (L); for fp32 also staged (4-byte cp.async), as scalar_32bit's rows.
template <pipeline_kind K> void survey_misaligned() {
  constexpr bool d = false, g = false, b = true, n = false, F = true, L = false;
  constexpr bool st = sizeof(T) == 4; // staged where an element fills a 4-byte cp.async
  if constexpr (PIPELINE_SHAPES_MISALIGNED != 3) {
    survey<K>(300, shape<16, 128, g, d, 1, 1, n, 1, F>{}, shape<16, 128, g, d, 1, 1, n, 1, L>{},
              shape<32, 128, g, d, 8, 1, n, 1, L>{}, shape<32, 128, g, d, 8, 1, n, 1, F>{},
              shape<4, 256, b, d, 1, 1, n, 0, F>{}, shape<16, 64, b, d, 1, 1, n, 0, F>{},
              shape<8, 64, b, d, 1, 1, n, 0, F>{}, shape<8, 64, b, d, 1, 1, n, 0, L>{},
              shape<4, 128, b, d, 1, 1, n, 0, F>{}, shape<16, 128, g, d, 4, 1, n, 1, F>{});
    survey<K>(1000, shape<32, 128, g, d, 8, 1, n, 1, L>{}, shape<32, 128, g, d, 8, 1, n, 1, F>{},
              shape<32, 128, g, d, 1, 1, n, 1, L>{}, shape<4, 256, b, d, 1, 1, n, 0, F>{},
              shape<16, 64, b, d, 1, 1, n, 0, F>{}, shape<16, 64, b, d, 1, 1, n, 0, L>{},
              shape<8, 128, b, d, 1, 1, n, 0, F>{}, shape<8, 128, b, d, 1, 1, n, 0, L>{},
              shape<32, 64, g, d, 8, 1, n, 1, L>{}, shape<32, 256, g, d, 4, 1, n, 1, L>{});
    survey<K>(2047, shape<8, 256, b, d, 1, 1, n, 0, F>{}, shape<16, 128, b, d, 1, 1, n, 0, F>{},
              shape<16, 128, b, d, 1, 1, n, 0, L>{}, shape<32, 64, b, d, 1, 1, n, 0, L>{},
              shape<32, 64, b, d, 12, 1, n, 0, L>{}, shape<32, 128, g, d, 1, 1, n, 2, L>{},
              shape<32, 128, g, d, 4, 1, n, 2, L>{}, shape<16, 128, g, d, 1, 1, n, 4, F>{},
              shape<16, 128, b, st, 1>{}, shape<32, 64, b, st, 1>{});
    survey<K>(3000, shape<16, 512, b, d, 1, 1, n, 0, F>{}, shape<32, 96, b, d, 8, 1, n, 0, L>{},
              shape<32, 96, b, d, 10, 1, n, 0, L>{}, shape<16, 256, b, d, 1, 1, n, 0, F>{},
              shape<16, 256, b, d, 1, 1, n, 0, L>{}, shape<32, 128, b, d, 8, 1, n, 0, L>{},
              shape<32, 96, b, d, 1, 1, n, 0, F>{}, shape<16, 256, b, st, 1>{},
              shape<32, 128, b, st, 1>{});
  }
  if constexpr (PIPELINE_SHAPES_MISALIGNED != 2) {
    survey<K>(4097, shape<16, 512, b, d, 1, 1, n, 0, F>{}, shape<16, 512, b, d, 1, 1, n, 0, L>{},
              shape<32, 160, b, d, 6, 1, n, 0, L>{}, shape<32, 160, b, d, 1, 1, n, 0, F>{},
              shape<32, 256, b, d, 4, 1, n, 0, L>{}, shape<16, 320, b, d, 1, 1, n, 0, L>{},
              shape<16, 320, b, d, 1, 1, n, 0, F>{}, shape<32, 160, b, st, 1>{},
              shape<32, 256, b, st, 1>{});
    survey<K>(8191, shape<16, 512, b, d, 1, 1, n, 0, F>{}, shape<16, 512, b, d, 1, 1, n, 0, L>{},
              shape<32, 256, b, d, 4, 1, n, 0, L>{}, shape<32, 256, b, d, 2, 1, n, 0, L>{},
              shape<32, 256, b, d, 1, 1, n, 0, F>{}, shape<16, 512, b, d, 2, 1, n, 0, L>{},
              shape<32, 256, b, st, 1>{}, shape<16, 512, b, st, 1>{});
    survey<K>(16383, shape<16, 1024, b, d, 1, 1, n, 0, F>{}, shape<16, 1024, b, d, 1, 1, n, 0, L>{},
              shape<32, 512, b, d, 1, 1, n, 0, F>{}, shape<32, 512, b, d, 2, 1, n, 0, L>{},
              shape<32, 512, b, d, 1, 1, n, 0, L>{}, shape<32, 512, b, st, 1>{});
    survey<K>(32767, shape<32, 1024, b, d, 1, 1, n, 0, F>{}, shape<32, 1024, b, d, 1, 1, n, 0, L>{},
              shape<32, 1024, b, st, 1>{});
  }
}

/// This part's half. Templates all the way down, so that the other half's kernels are not
/// instantiated.
template <bool Survey> void run_half() {
  if constexpr (Survey && PIPELINE_SHAPES_WARPS) {
    survey_warps<pipeline>();
  } else if constexpr (Survey && PIPELINE_SHAPES_BETWEEN) {
    survey_between<pipeline>();
  } else if constexpr (Survey && wide_rows && PIPELINE_SHAPES_HELD) {
    survey_held<pipeline>();
  } else if constexpr (Survey && wide_rows && PIPELINE_SHAPES_CAPS) {
    survey_caps<pipeline>();
  } else if constexpr (Survey && wide_rows) {
    survey_wide<pipeline>();
  } else if constexpr (Survey && narrow_rows) {
    survey_narrow<pipeline>();
  } else if constexpr (Survey && misaligned) {
    survey_misaligned<pipeline>();
  } else if constexpr (Survey) {
    survey_all<pipeline>();
  } else if constexpr (misaligned) {
    for (index_t cols : misaligned_widths) {
      width_case w{elements / cols, cols, {}};
      planned_and_ablations<pipeline>(w);
    }
  } else {
    for (index_t cols = narrowest; cols <= widest; cols *= 2) {
      width_case w{elements / cols, cols, {}};
      planned_and_ablations<pipeline>(w);
    }
  }
}

/// cudaMalloc into `pointer`; false, with a message, when the device has no room.
template <class Pointee> bool allocate(Pointee*& pointer, std::size_t bytes) {
  void* allocation = nullptr;
  if (cudaMalloc(&allocation, bytes) != cudaSuccess) {
    std::fprintf(stderr, "pipeline_shapes: cudaMalloc of %zu bytes failed\n", bytes);
    return false;
  }
  pointer = static_cast<Pointee*>(allocation);
  return true;
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::fprintf(stderr, "pipeline_shapes: no CUDA device\n");
    return 2;
  }
  mem.sms = prop.multiProcessorCount;
  cudaDeviceGetAttribute(&mem.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  std::fprintf(stderr, "pipeline_shapes part %d: %s, %d SMs\n", part, prop.name, mem.sms);

  std::size_t const tensor = std::size_t(tensor_elements) * sizeof(T);
  std::size_t const vector = std::size_t(widest) * sizeof(T);
  bool const allocated = allocate(mem.x, tensor) && allocate(mem.residual, tensor) &&
                         allocate(mem.h, tensor) && allocate(mem.bias, vector) &&
                         allocate(mem.gamma, vector) && allocate(mem.beta, vector) &&
                         allocate(mem.y, tensor) && allocate(mem.reference, tensor) &&
                         allocate(mem.amax, sizeof(float)) && allocate(mem.copy_from, 2 * tensor) &&
                         allocate(mem.copy_to, 2 * tensor) && allocate(mem.flush, flush_bytes) &&
                         allocate(mem.counts, 3 * sizeof(unsigned long long));
  if (!allocated)
    return 1;
  cudaEventCreate(&mem.start);
  cudaEventCreate(&mem.stop);
  cudaMemset(mem.amax, 0, sizeof(float));
  cudaMemset(mem.copy_from, 0x3c, 2 * tensor);
  if constexpr (misaligned) { // as rowfuse-bench --misalign: one element off each 16-byte start
    for (T** vector : {&mem.x, &mem.residual, &mem.h, &mem.bias, &mem.gamma, &mem.beta})
      *vector += 1;
  }
  fill<<<1024, 256>>>(mem.x, elements + elements / 128, -4.0f, 4.0f, 1);
  fill<<<1024, 256>>>(mem.residual, elements + elements / 128, -4.0f, 4.0f, 2);
  fill<<<64, 256>>>(mem.bias, widest, -0.5f, 0.5f, 3);
  fill<<<64, 256>>>(mem.gamma, widest, 0.5f, 1.5f, 4);
  fill<<<64, 256>>>(mem.beta, widest, -0.5f, 0.5f, 5);
  if (cudaError_t const e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::fprintf(stderr, "pipeline_shapes: setup failed: %s\n", cudaGetErrorString(e));
    return 1;
  }

  print_header();
  run_half<survey_half>();
  return 0;
}
