// Experiment (not part of the build): times register_kernel shapes directly, every width from
// 32 to 262144 columns, against a device-to-device copy of the same bytes timed in the same run,
// with a grid of one block (cluster) per row tile and with a grid of resident blocks that loop
// over the tiles, staged through shared memory by cp.async and loaded straight to registers.
// Prints one line per case: op dtype cols shape staged grid regs spilled-bytes blocks/SM
// ratio-to-copy.
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     -DROW_SHAPES_PART=0 bench/experiments/row_shapes.cu src/*.cpp -o /tmp/row_shapes0
// ROW_SHAPES_PART picks one (op, type) family per binary, so that the parts compile in parallel;
// ROW_SHAPES_ROUND (1-55) the set of shapes and widths (see all_shapes). Parts: 0 softmax
// fp16, 1 layernorm fp16, 2 softmax fp32, 3 rmsnorm fp16, 4 layernorm fp32, 5 rmsnorm fp32; the
// backward ops (rounds 5, 21, 22): 6 softmax_backward fp16, 7 softmax_backward fp32,
// 8 log_softmax_backward fp16, 9 log_softmax_backward fp32; 10 log_softmax fp16; the norms'
// backward with dgamma (and dbeta), the column sums timed with the row kernel (rounds 7 and 23):
// 11 layernorm_backward fp16, 12 rmsnorm_backward fp16, 13 layernorm_backward fp32; 14 rmsnorm
// bf16, 15 log_softmax fp32, 16 layernorm bf16.
// ROW_SHAPES_AFFINE (the layernorm parts and part 3): 1 leaves beta out, 2 gamma too.
// ROW_SHAPES_EXCHANGES_ONCE 1: every cluster shape exchanges once a row
// (tuning::register_shape::exchanges_once).
// ROW_SHAPES_DIRECT_ONLY 1: shapes loaded straight to registers only (no staged kernels: half
// the build).
// ROW_SHAPES_PADS_VALUES 1: every shape runs softmax's and log-softmax's phases over padded
// places (tuning::register_shape::pads_values).
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <rowfuse/rowfuse.cuh>

#include "median_time.cuh"

namespace rf = rowfuse;
using rf::index_t;

namespace {

#ifndef ROW_SHAPES_ROUND
#define ROW_SHAPES_ROUND 1
#endif
#ifndef ROW_SHAPES_PART
#define ROW_SHAPES_PART 0
#endif
#ifndef ROW_SHAPES_AFFINE
#define ROW_SHAPES_AFFINE 0
#endif
#ifndef ROW_SHAPES_EXCHANGES_ONCE
#define ROW_SHAPES_EXCHANGES_ONCE 0
#endif
#ifndef ROW_SHAPES_DIRECT_ONLY
#define ROW_SHAPES_DIRECT_ONLY 0
#endif
#ifndef ROW_SHAPES_PADS_VALUES
#define ROW_SHAPES_PADS_VALUES 0
#endif
static_assert(ROW_SHAPES_PART >= 0 && ROW_SHAPES_PART <= 16, "parts are 0 to 16");
static_assert(ROW_SHAPES_PART < 6 || ROW_SHAPES_PART > 9 || ROW_SHAPES_ROUND == 5 ||
                  ROW_SHAPES_ROUND == 21 || ROW_SHAPES_ROUND == 22 || ROW_SHAPES_ROUND == 26 ||
                  ROW_SHAPES_ROUND == 27,
              "the backward parts (6-9) have shapes in rounds 5, 21, 22, 26 and 27 only");
static_assert(ROW_SHAPES_PART < 11 || ROW_SHAPES_PART > 13 || ROW_SHAPES_ROUND == 7 ||
                  ROW_SHAPES_ROUND == 23 || ROW_SHAPES_ROUND == 27 || ROW_SHAPES_ROUND == 28 ||
                  ROW_SHAPES_ROUND == 29,
              "the norms' backward parts (11-13) have shapes in rounds 7, 23, 27, 28 and 29 only");
static_assert(ROW_SHAPES_ROUND != 28 || (ROW_SHAPES_PART >= 11 && ROW_SHAPES_PART <= 13),
              "round 28 has the norms' backward parts (11-13) only");
static_assert(ROW_SHAPES_ROUND != 27 ||
                  (ROW_SHAPES_PART >= 6 && ROW_SHAPES_PART <= 13 && ROW_SHAPES_PART != 10),
              "round 27 has the backward parts (6-9, 11-13) only");

// The backward ops (parts 6-9) read two streams, the input y (in x) and the gradient dy, and
// write one, dx (in y): 2^26 elements each, so that the three take the bytes of round 1-4's two.
constexpr bool backward = (ROW_SHAPES_PART >= 6 && ROW_SHAPES_PART <= 9) ||
                          (ROW_SHAPES_PART >= 11 && ROW_SHAPES_PART <= 13);
constexpr index_t elems = index_t(1) << (backward ? 26 : 27);
/// x and y hold 2^27 fp32 elements: every round's input and output, and round 5's copy of
/// 1.5 x 2^26 fp32 elements.
constexpr std::size_t buffer_bytes = std::size_t(4) << 27;
float* flush;
cudaEvent_t e0, e1;
void *x, *y, *gamma_data, *beta_data;
[[maybe_unused]] void* dy; // the backward parts' gradient stream
// The norms' backward (parts 11-13): saved statistics, dgamma / dbeta partials and sums.
[[maybe_unused]] float *mean_data, *rstd_data, *partials, *scratch, *dgamma, *dbeta;

/// ROW_SHAPES_PROFILE: one launch a case and no warm-up, for a profiler.
template <class F> double time_ms(F f) {
#ifdef ROW_SHAPES_PROFILE
  return median_time{0, 1, flush, 256u << 20, e0, e1}(f);
#else
  return median_time{2, 9, flush, 256u << 20, e0, e1}(f);
#endif
}

template <class T> __global__ void fill(T* out, index_t n, float lo, float hi) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n;
       i += index_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ unsigned(i >> 32) * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    out[i] = T(lo + (hi - lo) * float(h & 0xffffff) / float(0x1000000));
  }
}

/// The bytes of the copy a case is compared with: it reads and writes them once, so that it moves
/// the op's counted bytes, every stream read once and the output written once. A forward op: the
/// elements' bytes (x read, y written). A backward op: 1.5 x them (y and dy read, dx written:
/// 3 x the elements' bytes, the copy's read and write of 1.5 x).
template <class T> constexpr std::size_t copy_bytes = elems * sizeof(T) * (backward ? 3 : 2) / 2;

template <class T> double copy_ms() {
  return time_ms([] { cudaMemcpyAsync(y, x, copy_bytes<T>, cudaMemcpyDeviceToDevice); });
}

int sms = 0;

/// One shape: N-element packs, P packs a thread, B threads, whole-block rows or groups, C blocks
/// a row, minimum blocks an SM; single 16-bit elements read before any arithmetic (RowFirst) or
/// in the transform loop; group rows of RowWarps whole warps known at compile time (several rows
/// a block; 0: a run-time group of 1-32 lanes); an
/// op's per-column operands where Columns places them (tuning::column_placement).
template <int P, int B, bool Whole, int C = 1, int MinBlocks = 1, bool RowFirst = true,
          int RowWarps = 0,
          rf::tuning::column_placement Columns = rf::tuning::column_placement::per_engine>
struct shape {};

/// The same shape with its operands placed by Columns.
template <rf::tuning::column_placement Columns, int P, int B, bool Whole, int C, int MinBlocks,
          bool RowFirst, int RowWarps, rf::tuning::column_placement Any>
constexpr shape<P, B, Whole, C, MinBlocks, RowFirst, RowWarps, Columns>
with_columns(shape<P, B, Whole, C, MinBlocks, RowFirst, RowWarps, Any>) {
  return {};
}

/// Group rows of W whole warps, several a block (round 29), under a cap of MinBlocks.
template <int P, int B, int W, int MinBlocks = 1>
using warps = shape<P, B, false, 1, MinBlocks, true, W>;

constexpr auto shared = rf::tuning::column_placement::shared;
constexpr auto ahead = rf::tuning::column_placement::ahead;
constexpr auto held = rf::tuning::column_placement::held;

// Round 3 times single-element shapes on the misaligned layout of `rowfuse-bench --misalign`:
// every pointer one element off a 16-byte boundary and ld = cols + 1.
constexpr bool misaligned = ROW_SHAPES_ROUND == 3 || ROW_SHAPES_ROUND == 11 ||
                            ROW_SHAPES_ROUND == 12 || ROW_SHAPES_ROUND == 13 ||
                            ROW_SHAPES_ROUND == 14 || ROW_SHAPES_ROUND == 16;

/// An op that is the same at every width (the forward ops), as an op maker: a callable from the
/// input's load expression to the op the kernel takes.
template <class Op> struct same_op {
  Op op;
  template <class Load> Op operator()(Load const&) const { return op; }
};

/// A backward op of softmax (Log: log-softmax) over elements of T, its gradient stream dy bound
/// to the input's rows and columns, as rf::softmax_backward and rf::log_softmax_backward do.
template <class T, bool Log> struct softmax_backward_maker {
  template <class Load> auto operator()(Load const& input) const {
    auto const gradient =
        rf::load(static_cast<T const*>(dy), input.input.rows, input.input.cols, input.input.ld);
    using op_t = rf::op::softmax_backward<Log, decltype(gradient)>;
    return op_t{rf::detail::bind_gradient(input, gradient, op_t::name)};
  }
};

/// The backward op of layernorm (Centered) or rmsnorm over elements of T with dgamma (and
/// dbeta) into chunks of 2^chunk_log2 rows, as rf::layernorm_backward and rf::rmsnorm_backward
/// build it; after() sums the partials (engine::column_sum_kernel), timed with the row kernel.
/// The rows are cut into at least 2^target_log2 / cols chunks (op::norm_chunk_rows_log2's rule
/// with the target replaced): the partials of one gradient hold about 2^target_log2 floats.
/// target_log2 0: the library's rule itself (op::norm_chunk_rows_log2).
template <class T, bool Centered> struct norm_backward_maker {
  int target_log2;
  int chunk_log2(index_t rows, index_t cols) const {
    if (target_log2 == 0)
      return rf::op::norm_chunk_rows_log2(rows, cols);
    return rf::op::chunk_rows_log2_for(rows,
                                       std::max<index_t>(1, (index_t(1) << target_log2) / cols));
  }
  template <class Load> auto operator()(Load const& input) const {
    auto const gradient =
        rf::load(static_cast<T const*>(dy), input.input.rows, input.input.cols, input.input.ld);
    auto const affine =
        Centered ? rf::affine(static_cast<T const*>(gamma_data), static_cast<T const*>(beta_data))
                 : rf::affine(static_cast<T const*>(gamma_data));
    using affine_t = std::remove_const_t<decltype(affine)>;
    using op_t = rf::op::norm_backward<Centered, affine_t, decltype(gradient)>;
    index_t const rows = input.input.rows, cols = input.input.cols;
    int const log2 = chunk_log2(rows, cols);
    index_t const chunks = (rows + (index_t(1) << log2) - 1) >> log2;
    return op_t{rf::detail::bind_gradient(input, gradient, op_t::name),
                affine.bind(Centered ? "rf::layernorm" : "rf::rmsnorm", cols),
                Centered ? mean_data : nullptr,
                rstd_data,
                partials,
                Centered ? partials + chunks * cols : nullptr,
                log2,
                cols};
  }
  void after(index_t rows, index_t cols) const {
    int const log2 = chunk_log2(rows, cols);
    index_t const chunks = (rows + (index_t(1) << log2) - 1) >> log2;
    float const* const sums[] = {partials, partials + chunks * cols};
    float* const outs[] = {dgamma, dbeta};
    rf::detail::launch_column_sums(sums, outs, Centered ? 2 : 1, chunks, cols, scratch, nullptr,
                                   rf::plan{});
  }
  index_t rows_per_unit(index_t rows, index_t cols) const {
    return index_t(1) << chunk_log2(rows, cols);
  }
};

template <class MakeOp> void after_kernel(MakeOp const& make_op, index_t rows, index_t cols) {
  if constexpr (requires { make_op.after(rows, cols); })
    make_op.after(rows, cols);
}
template <class MakeOp> index_t unit_rows(MakeOp const& make_op, index_t rows, index_t cols) {
  if constexpr (requires { make_op.rows_per_unit(rows, cols); })
    return make_op.rows_per_unit(rows, cols);
  else
    return 1;
}

template <class T, class MakeOp, bool Staged, int P, int B, bool Whole, int C, int MinBlocks,
          bool RowFirst, int RowWarps, rf::tuning::column_placement Columns>
void run_one(char const* opname, MakeOp const& make_op, index_t cols, double copy,
             bool persistent) {
  constexpr int N = misaligned ? 1 : 16 / sizeof(T);
  using config = rf::detail::register_config<
      N, P, B, Whole, Staged, C, MinBlocks, RowFirst, 32 * RowWarps, Columns, false, false, false,
      false, (C > 1 && ROW_SHAPES_EXCHANGES_ONCE), ROW_SHAPES_PADS_VALUES != 0>;
  if (Staged && !config::template staged<T>)
    return; // the same kernel as the direct one
  index_t const ld = misaligned ? cols + 1 : cols;
  index_t const rows = elems / ld;
  auto const input = rf::load(static_cast<T const*>(x) + misaligned, rows, cols, ld);
  auto load = rf::detail::bind(input, "x");
  auto store = rf::detail::bind(rf::store(static_cast<T*>(y) + misaligned, ld), "y", rows, cols);
  auto const op = make_op(input);
  using Op = std::remove_const_t<decltype(op)>;
  auto kernel = rf::engine::register_kernel<config, Op, decltype(load), decltype(store)>;
  int const smem = int(rf::engine::register_shared_bytes<config, Op, decltype(load)>());
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  if (C > 8)
    cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, kernel);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, B, smem);
  int group = Whole ? B * C : RowWarps > 0 ? 32 * RowWarps : 1;
  index_t const packs = (cols + N - 1) / N;
  if (!Whole)
    while (group < 32 && index_t(group) * P < packs)
      group *= 2;
  if (index_t(group) * P * N < cols || (Whole && index_t(group) * P * N / 2 >= cols && P > 1))
    return; // does not hold the row, or would leave half the threads idle
  int group_log2 = 0;
  while ((1 << group_log2) < group)
    ++group_log2;
  // An ordered-rows op (the norms' backward) takes a chunk of rows a row processor.
  index_t const rows_per_block = (Whole ? 1 : B / group) * unit_rows(make_op, rows, cols);
  index_t const tiles = (rows + rows_per_block - 1) / rows_per_block;
  index_t grid = tiles * C;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = C;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t launch{};
  launch.gridDim = dim3(unsigned(grid));
  launch.blockDim = dim3(B);
  launch.dynamicSmemBytes = smem;
  launch.attrs = &attribute;
  launch.numAttrs = 1;
  if (persistent) {
    // Clusters: as many as are resident at once (rounds 1-23 timed cluster rows on tiles only).
    if (C > 1 && ROW_SHAPES_ROUND < 24)
      return;
    int clusters = 0;
    if (C > 1)
      cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch);
    grid = C > 1 ? std::min<index_t>(tiles, clusters) * C
                 : std::min<index_t>(tiles, index_t(blocks) * sms);
    launch.gridDim = dim3(unsigned(grid));
  }
  double const ms = time_ms([&] {
    cudaLaunchKernelEx(&launch, kernel, op, load, store, rows, cols, group_log2);
    after_kernel(make_op, rows, cols);
  });
  cudaError_t const err = cudaDeviceSynchronize();
  char rows_of[8];
  std::snprintf(rows_of, sizeof rows_of, "warps%d", RowWarps);
  std::printf("%-9s %s %6ld P%-2d B%-4d %s C%-2d min%-2d %s%s%s %s regs %3d spill %4zu occ %2d "
              "grid %6ld ratio %.3f %s\n",
              opname, sizeof(T) == 4 ? "fp32" : "fp16", long(cols), P, B,
              Whole           ? "block"
              : RowWarps == 1 ? "warp "
              : RowWarps > 1  ? rows_of
                              : "group",
              C, MinBlocks, N == 1 && sizeof(T) < 4 ? (RowFirst ? "first " : "inloop ") : "",
              Columns == rf::tuning::column_placement::shared  ? "shcols "
              : Columns == rf::tuning::column_placement::ahead ? "ahead "
              : Columns == rf::tuning::column_placement::held  ? "held "
                                                               : "",
              Staged ? "staged" : "direct", persistent ? "persist" : "tiles  ", attr.numRegs,
              attr.localSizeBytes, blocks, long(grid), copy / ms,
              err ? cudaGetErrorString(err) : "");
  std::fflush(stdout);
  (void)cudaGetLastError();
}

template <class T, class MakeOp, int P, int B, bool Whole, int C, int MinBlocks, bool RowFirst,
          int RowWarps, rf::tuning::column_placement Columns>
void run_shape(char const* opname, MakeOp const& make_op, index_t cols, double copy,
               shape<P, B, Whole, C, MinBlocks, RowFirst, RowWarps, Columns>) {
  for (bool persistent : {false, true}) {
    run_one<T, MakeOp, false, P, B, Whole, C, MinBlocks, RowFirst, RowWarps, Columns>(
        opname, make_op, cols, copy, persistent);
    if constexpr (!ROW_SHAPES_DIRECT_ONLY)
      run_one<T, MakeOp, true, P, B, Whole, C, MinBlocks, RowFirst, RowWarps, Columns>(
          opname, make_op, cols, copy, persistent);
  }
}

template <class T, class MakeOp, class... Shapes>
void sweep(char const* opname, MakeOp const& make_op, std::vector<index_t> const& widths,
           Shapes... s) {
  double const copy = copy_ms<T>();
  std::printf("copy %s %zu bytes %.4f ms = %.0f GB/s\n", sizeof(T) == 4 ? "fp32" : "fp16",
              copy_bytes<T>, copy, 2.0 * copy_bytes<T> / copy / 1e6);
  for (index_t cols : widths)
    (run_shape<T>(opname, make_op, cols, copy, s), ...);
}

// Shapes by how many columns they hold (pack 8 for 16-bit types, 4 for fp32). ROW_SHAPES_ROUND
// 1: the first survey; 2: larger blocks of group rows (a block must move several KB, or block
// launches dominate) and clusters of smaller blocks (two or more resident per SM); 3: single
// elements on the misaligned layout (odd widths, each thread holding 8 to 32 of them).
template <class T, class MakeOp> void all_shapes(char const* opname, MakeOp const& op) {
  constexpr bool wide = sizeof(T) == 2; // 8 elements a pack
#if ROW_SHAPES_ROUND == 1
  std::vector<index_t> narrow{32, 64, 128, 256, 512};
  sweep<T>(opname, op, narrow, shape<1, 128, false>{}, shape<1, 128, false, 1, 16>{},
           shape<2, 128, false>{}, shape<2, 128, false, 1, 16>{}, shape<1, 64, true>{});
  if constexpr (wide) {
    sweep<T>(opname, op, {1024, 2048}, shape<4, 128, false>{}, shape<2, 64, true>{},
             shape<1, 128, true>{}, shape<2, 128, true>{}, shape<1, 256, true>{});
    sweep<T>(opname, op, {4096, 8192}, shape<4, 128, true>{}, shape<2, 256, true>{},
             shape<1, 512, true>{}, shape<4, 256, true>{}, shape<2, 512, true>{},
             shape<1, 1024, true>{});
    sweep<T>(opname, op, {16384, 32768}, shape<4, 512, true>{}, shape<2, 1024, true>{},
             shape<8, 256, true>{}, shape<4, 1024, true>{}, shape<8, 512, true>{},
             shape<4, 512, true, 2>{}, shape<2, 1024, true, 2>{});
    sweep<T>(opname, op, {65536}, shape<4, 1024, true, 2>{}, shape<4, 512, true, 4>{},
             shape<2, 1024, true, 4>{}, shape<2, 512, true, 8>{}, shape<8, 512, true, 2>{});
    sweep<T>(opname, op, {131072}, shape<4, 1024, true, 4>{}, shape<4, 512, true, 8>{},
             shape<2, 1024, true, 8>{}, shape<2, 512, true, 16>{}, shape<8, 512, true, 4>{});
    sweep<T>(opname, op, {262144}, shape<4, 1024, true, 8>{}, shape<4, 512, true, 16>{},
             shape<2, 1024, true, 16>{}, shape<8, 512, true, 8>{});
  } else {
    sweep<T>(opname, op, {1024}, shape<4, 128, false>{}, shape<4, 64, true>{},
             shape<2, 128, true>{}, shape<1, 256, true>{});
    sweep<T>(opname, op, {2048, 4096}, shape<4, 128, true>{}, shape<2, 256, true>{},
             shape<8, 128, true>{}, shape<4, 256, true>{}, shape<2, 512, true>{},
             shape<1, 1024, true>{});
    sweep<T>(opname, op, {8192, 16384}, shape<8, 256, true>{}, shape<4, 512, true>{},
             shape<8, 512, true>{}, shape<4, 1024, true>{}, shape<4, 512, true, 2>{},
             shape<8, 256, true, 2>{});
    sweep<T>(opname, op, {32768}, shape<8, 1024, true>{}, shape<8, 512, true, 2>{},
             shape<4, 1024, true, 2>{}, shape<4, 512, true, 4>{});
    sweep<T>(opname, op, {65536}, shape<8, 1024, true, 2>{}, shape<8, 512, true, 4>{},
             shape<4, 1024, true, 4>{}, shape<4, 512, true, 8>{});
    sweep<T>(opname, op, {131072}, shape<8, 1024, true, 4>{}, shape<8, 512, true, 8>{},
             shape<4, 1024, true, 8>{}, shape<4, 512, true, 16>{});
    sweep<T>(opname, op, {262144}, shape<8, 1024, true, 8>{}, shape<8, 512, true, 16>{},
             shape<4, 1024, true, 16>{});
  }
#elif ROW_SHAPES_ROUND == 4
  // Round 4: the norms (and fp32 softmax) on the engine of the fourth session (dense rows,
  // kept gamma/beta), every width to 32768, with register caps (MinBlocks) that buy blocks.
  if constexpr (wide) {
    sweep<T>(opname, op, {32, 64, 128, 256, 512}, shape<1, 256, false>{}, shape<2, 256, false>{},
             shape<1, 512, false>{}, shape<2, 128, false>{}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {1024}, shape<4, 128, false>{}, shape<4, 256, false>{},
             shape<1, 128, true>{}, shape<4, 128, false, 1, 6>{}, shape<4, 256, false, 1, 3>{});
    sweep<T>(opname, op, {2048}, shape<1, 256, true>{}, shape<2, 128, true>{},
             shape<1, 256, true, 1, 4>{}, shape<2, 128, true, 1, 6>{});
    sweep<T>(opname, op, {4096}, shape<2, 256, true>{}, shape<4, 128, true>{},
             shape<1, 512, true>{}, shape<2, 256, true, 1, 3>{}, shape<4, 128, true, 1, 5>{});
    sweep<T>(opname, op, {8192}, shape<2, 512, true>{}, shape<4, 256, true>{},
             shape<1, 1024, true>{}, shape<2, 512, true, 1, 2>{}, shape<4, 256, true, 1, 3>{});
    sweep<T>(opname, op, {16384}, shape<2, 1024, true>{}, shape<4, 512, true>{},
             shape<4, 512, true, 1, 2>{}, shape<8, 256, true, 1, 2>{});
    sweep<T>(opname, op, {32768}, shape<4, 1024, true>{}, shape<8, 512, true>{},
             shape<4, 512, true, 2>{}, shape<4, 512, true, 2, 2>{});
  } else {
    sweep<T>(opname, op, {32, 64, 128, 256}, shape<1, 256, false>{}, shape<2, 256, false>{},
             shape<1, 512, false>{}, shape<2, 512, false>{}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {512}, shape<4, 256, false>{}, shape<4, 128, false>{},
             shape<1, 128, true>{}, shape<4, 256, false, 1, 3>{});
    sweep<T>(opname, op, {1024}, shape<2, 128, true>{}, shape<1, 256, true>{}, shape<4, 64, true>{},
             shape<2, 128, true, 1, 6>{});
    sweep<T>(opname, op, {2048}, shape<2, 256, true>{}, shape<4, 128, true>{},
             shape<1, 512, true>{}, shape<2, 256, true, 1, 3>{});
    sweep<T>(opname, op, {4096}, shape<4, 256, true>{}, shape<2, 512, true>{},
             shape<8, 128, true>{}, shape<4, 256, true, 1, 3>{});
    sweep<T>(opname, op, {8192}, shape<4, 512, true>{}, shape<8, 256, true>{},
             shape<2, 1024, true>{}, shape<4, 512, true, 1, 2>{});
    sweep<T>(opname, op, {16384}, shape<8, 512, true>{}, shape<4, 1024, true>{},
             shape<16, 256, true>{}, shape<8, 512, true, 1, 2>{}, shape<4, 512, true, 2>{});
    sweep<T>(opname, op, {32768}, shape<8, 1024, true>{}, shape<16, 512, true>{},
             shape<8, 512, true, 2>{}, shape<4, 512, true, 4>{});
  }
#elif ROW_SHAPES_ROUND == 3
  sweep<T>(opname, op, {1000}, shape<32, 128, false>{}, shape<16, 128, false>{},
           shape<8, 128, true>{}, shape<16, 64, true>{}, shape<4, 256, true>{});
  sweep<T>(opname, op, {2047}, shape<16, 128, true>{}, shape<8, 256, true>{}, shape<32, 64, true>{},
           shape<4, 512, true>{});
  sweep<T>(opname, op, {4097, 8191}, shape<16, 512, true>{}, shape<32, 256, true>{},
           shape<8, 1024, true>{});
  sweep<T>(opname, op, {16383}, shape<32, 512, true>{}, shape<16, 1024, true>{},
           shape<16, 512, true, 2>{});
  sweep<T>(opname, op, {32767}, shape<32, 1024, true>{}, shape<32, 512, true, 2>{},
           shape<16, 512, true, 4>{}, shape<16, 1024, true, 2>{});
#elif ROW_SHAPES_ROUND == 11
  // Round 11: single elements again, each thread holding 16 or 32 of them, after a hand-written
  // softmax over the same layout (experiments/realign.cu) reached 0.91 at 1000 columns with a warp
  // a row and 32 elements a lane, and 0.90 at 8191 with 256 threads of 32, where round 3's
  // kernels stayed at 0.24-0.65.
  sweep<T>(opname, op, {1000}, shape<32, 128, false>{}, shape<32, 64, false>{},
           shape<32, 256, false>{}, shape<16, 128, false>{}, shape<8, 128, true>{});
  sweep<T>(opname, op, {2047}, shape<32, 64, true>{}, shape<16, 128, true>{},
           shape<8, 256, true>{});
  sweep<T>(opname, op, {4097, 8191}, shape<32, 256, true>{}, shape<16, 512, true>{},
           shape<32, 256, true, 1, 2>{});
  sweep<T>(opname, op, {16383}, shape<32, 512, true>{}, shape<16, 1024, true>{},
           shape<32, 512, true, 1, 2>{});
  sweep<T>(opname, op, {32767}, shape<32, 1024, true>{});
#elif ROW_SHAPES_ROUND == 12
  // Round 12: single elements on the misaligned layout again, with the engine's compile-time
  // warp (register_shape::whole_warp, now row_threads = 32): group rows of 32 values a lane read in
  // the loop at 300-1000 columns (the row a 1024-column table row would give them) under register
  // caps, and against the tables' whole-block rows; widths just past half a 32-value block row
  // (4097, 5000) on narrower or fewer-thread shapes; layernorm's rows from 2047 to 16383.
  using in_loop_warp = shape<32, 128, false, 1, 1, false, true>;
  sweep<T>(opname, op, {300, 520, 1000}, in_loop_warp{}, shape<32, 128, false, 1, 6, false, true>{},
           shape<32, 128, false, 1, 8, false, true>{}, shape<32, 64, false, 1, 1, false, true>{},
           shape<32, 256, false, 1, 2, false, true>{}, shape<32, 128, false, 1, 1, true, true>{},
           shape<16, 128, false, 1, 1, false, true>{}, shape<4, 256, true>{},
           shape<16, 64, true>{});
  sweep<T>(opname, op, {2047}, shape<32, 64, true, 1, 1, false>{}, shape<16, 128, true>{},
           shape<32, 64, true, 1, 4, false>{}, shape<16, 128, true, 1, 4, false>{});
  sweep<T>(opname, op, {4097, 5000, 8191}, shape<32, 256, true, 1, 2, false>{},
           shape<32, 256, true, 1, 3, false>{}, shape<24, 256, true, 1, 2, false>{},
           shape<20, 256, true, 1, 3, false>{}, shape<32, 160, true, 1, 3, false>{},
           shape<16, 512, true, 1, 2, false>{}, shape<16, 512, true, 1, 2, true>{});
  sweep<T>(opname, op, {16383}, shape<32, 512, true, 1, 2, false>{},
           shape<16, 1024, true, 1, 1, false>{}, shape<32, 512, true, 1, 1, false>{});
#elif ROW_SHAPES_ROUND == 13
  // Round 13: after round 12 found 32 x 160 at 4097-5000 above 32 x 256 (whose threads there
  // hold 16-20 values of 32), block rows of 32 values a thread over 64-256 threads, each under a
  // cap near 64 registers and one near 80, at widths between 1500 and 8191.
  sweep<T>(
      opname, op,
      {1500, 2047, 2100, 2600, 3000, 3500, 4000, 4097, 4600, 5000, 5500, 6000, 6500, 7000, 8191},
      shape<32, 64, true, 1, 16, false>{}, shape<32, 64, true, 1, 12, false>{},
      shape<32, 96, true, 1, 10, false>{}, shape<32, 96, true, 1, 8, false>{},
      shape<32, 128, true, 1, 8, false>{}, shape<32, 128, true, 1, 6, false>{},
      shape<32, 160, true, 1, 6, false>{}, shape<32, 160, true, 1, 5, false>{},
      shape<32, 192, true, 1, 5, false>{}, shape<32, 192, true, 1, 4, false>{},
      shape<32, 224, true, 1, 4, false>{}, shape<32, 256, true, 1, 4, false>{},
      shape<32, 256, true, 1, 3, false>{});
#elif ROW_SHAPES_ROUND == 14
  // Round 14: one shape for a profiler run (ncu), layernorm against rmsnorm on the row they share
  // at 8191 columns, and the warp row at 1000.
  sweep<T>(opname, op, {8191}, shape<32, 256, true, 1, 4, false>{});
  sweep<T>(opname, op, {1000}, shape<32, 128, false, 1, 8, false, true>{});
#elif ROW_SHAPES_ROUND == 15
  // Round 15 (fifteenth session): the norms' table rows at the widths they hold, aligned, to time
  // a change of the norms' per-element instructions before and after.
  if constexpr (wide) {
    sweep<T>(opname, op, {64}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {256, 1024}, shape<4, 128, false, 1, 6>{});
    sweep<T>(opname, op, {2048}, shape<2, 128, true>{});
    sweep<T>(opname, op, {4096}, shape<4, 128, true, 1, 6>{});
    sweep<T>(opname, op, {8192}, shape<4, 256, true, 1, 3>{});
    sweep<T>(opname, op, {16384}, shape<4, 512, true, 1, 2>{});
    sweep<T>(opname, op, {32768}, shape<4, 1024, true>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 4, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 256, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {512}, shape<4, 128, false, 1, 6>{});
    sweep<T>(opname, op, {2048}, shape<2, 256, true>{});
    sweep<T>(opname, op, {8192}, shape<4, 512, true, 1, 2>{});
    sweep<T>(opname, op, {32768}, shape<8, 256, true, 4, 2>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16, 2>{});
    // rmsnorm_32bit's row (gamma in shared memory under a cap of two blocks) and r6's before it.
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{},
             shape<8, 512, true, 16, 2, true, false, shared>{});
  }
#elif ROW_SHAPES_ROUND == 17
  // Round 17: one cluster row for a profiler run (ncu), the table's 65536-column 16-bit rmsnorm
  // shape, which layernorm spills on.
  sweep<T>(opname, op, {65536}, shape<8, 256, true, 4, 2>{});
#elif ROW_SHAPES_ROUND == 18
  // Round 18 (sixteenth session): the norms' rows past 16384 columns, block and cluster, under
  // caps that buy blocks, each with the operands placed as the engine chooses and read ahead.
  auto const both = [&](std::vector<index_t> const& widths, auto... shapes) {
    sweep<T>(opname, op, widths, shapes...);
    sweep<T>(opname, op, widths, with_columns<ahead>(shapes)...);
  };
  if constexpr (wide) {
    both({32768}, shape<4, 1024, true>{}, shape<8, 256, true, 2, 2>{}, shape<4, 256, true, 4, 2>{},
         shape<4, 256, true, 4, 3>{}, shape<8, 128, true, 4, 4>{});
    both({65536}, shape<8, 256, true, 4, 2>{}, shape<4, 256, true, 8, 2>{},
         shape<4, 256, true, 8, 3>{}, shape<8, 128, true, 8, 4>{}, shape<4, 512, true, 4, 2>{},
         shape<8, 512, true, 2>{});
    both({131072}, shape<8, 256, true, 8, 2>{}, shape<4, 256, true, 16, 2>{},
         shape<4, 256, true, 16, 3>{}, shape<8, 128, true, 16, 4>{}, shape<4, 512, true, 8, 2>{});
    both({262144}, shape<8, 256, true, 16, 2>{}, shape<8, 512, true, 8>{},
         shape<4, 512, true, 16, 2>{}, shape<8, 512, true, 16>{});
  } else {
    both({65536}, shape<8, 256, true, 8, 2>{}, shape<4, 256, true, 16, 2>{},
         shape<4, 256, true, 16, 3>{}, shape<8, 128, true, 16, 4>{});
    both({131072}, shape<8, 256, true, 16, 2>{}, shape<8, 512, true, 8, 2>{},
         shape<8, 512, true, 8>{});
    both({262144}, shape<8, 512, true, 16>{}, shape<8, 512, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 19
  // Round 19 (seventeenth session): the norms' table rows past 32768 columns, and rmsnorm's
  // cluster shapes beside layernorm's, for the one-round and affine experiments.
  if constexpr (wide) {
    sweep<T>(opname, op, {32768}, shape<4, 1024, true>{});
    sweep<T>(opname, op, {65536}, with_columns<ahead>(shape<4, 512, true, 4, 2>{}),
             shape<8, 256, true, 4, 2>{}, with_columns<ahead>(shape<8, 256, true, 4, 2>{}));
    sweep<T>(opname, op, {131072}, with_columns<ahead>(shape<4, 512, true, 8, 2>{}),
             shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 256, true, 16, 2>{}),
             with_columns<ahead>(shape<4, 512, true, 16, 2>{}), shape<8, 256, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {131072}, with_columns<ahead>(shape<8, 512, true, 8, 2>{}),
             shape<8, 256, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}));
  }
#elif ROW_SHAPES_ROUND == 24
  // Round 24 (nineteenth session): layernorm's rows past 16384 columns with the row read back from
  // its staging slot and gamma and beta held (column_placement::held), beside the tables' rows.
  // A held shape timed direct is the same kernel as ahead; only its staged runs are new.
  if constexpr (wide) {
    sweep<T>(
        opname, op, {32768}, shape<4, 1024, true>{}, with_columns<held>(shape<4, 1024, true>{}),
        with_columns<held>(shape<4, 512, true, 2, 2>{}), with_columns<held>(shape<8, 512, true>{}),
        with_columns<held>(shape<4, 256, true, 4, 2>{}));
    sweep<T>(opname, op, {65536}, with_columns<ahead>(shape<4, 512, true, 4, 2>{}),
             with_columns<held>(shape<4, 512, true, 4, 2>{}),
             with_columns<held>(shape<8, 256, true, 4, 2>{}),
             with_columns<held>(shape<4, 256, true, 8, 2>{}),
             with_columns<held>(shape<8, 512, true, 2>{}),
             with_columns<held>(shape<4, 1024, true, 2>{}));
    sweep<T>(opname, op, {131072}, with_columns<ahead>(shape<4, 512, true, 8, 2>{}),
             with_columns<held>(shape<4, 512, true, 8, 2>{}),
             with_columns<held>(shape<8, 256, true, 8, 2>{}),
             with_columns<held>(shape<8, 512, true, 4>{}),
             with_columns<held>(shape<4, 1024, true, 4>{}));
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 256, true, 16, 2>{}),
             with_columns<held>(shape<8, 256, true, 16, 2>{}),
             with_columns<held>(shape<4, 512, true, 16, 2>{}),
             with_columns<held>(shape<8, 512, true, 8>{}),
             with_columns<held>(shape<4, 1024, true, 8>{}));
  } else {
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8, 2>{},
             with_columns<held>(shape<4, 512, true, 8, 2>{}),
             with_columns<held>(shape<8, 512, true, 4>{}));
    sweep<T>(opname, op, {131072}, with_columns<ahead>(shape<8, 512, true, 8, 2>{}),
             with_columns<held>(shape<4, 512, true, 16, 2>{}),
             with_columns<held>(shape<8, 512, true, 8>{}),
             with_columns<held>(shape<4, 1024, true, 8>{}));
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}),
             with_columns<held>(shape<8, 512, true, 16>{}),
             with_columns<held>(shape<4, 1024, true, 16>{}));
  }
#elif ROW_SHAPES_ROUND == 27
  // Round 27 (twentieth session): the backward ops with their gradient stream staged beside the
  // input (engine::staged_streams; before, a staged shape staged the input alone and read dy
  // straight to registers), against the same shapes direct, on tiles and persistent grids: the
  // tables' rows at each width and neighbours. The norms' backward with the library's chunk rule.
  if constexpr (ROW_SHAPES_PART >= 11 && wide) {
    sweep<T>(opname, op, {256}, shape<1, 256, false, 1, 4>{}, shape<2, 512, false>{},
             shape<2, 256, false>{});
    sweep<T>(opname, op, {1024}, shape<1, 128, true, 1, 8>{}, shape<2, 64, true, 1, 8>{});
    sweep<T>(opname, op, {2048}, shape<1, 256, true, 1, 4>{}, shape<2, 128, true, 1, 8>{});
    sweep<T>(opname, op, {4096}, shape<1, 512, true, 1, 2>{}, shape<2, 256, true, 1, 4>{});
    sweep<T>(opname, op, {8192}, shape<1, 512, true, 2, 2>{}, shape<2, 512, true, 1, 2>{});
    sweep<T>(opname, op, {16384}, shape<2, 512, true, 2>{}, shape<1, 512, true, 4, 2>{},
             shape<2, 256, true, 4, 4>{});
    sweep<T>(opname, op, {32768}, shape<1, 512, true, 8, 2>{}, shape<2, 512, true, 4, 2>{},
             shape<2, 256, true, 8, 4>{});
    sweep<T>(opname, op, {65536}, shape<1, 512, true, 16, 2>{}, shape<2, 512, true, 8, 2>{},
             shape<2, 256, true, 16, 4>{});
    sweep<T>(opname, op, {131072}, shape<2, 512, true, 16>{}, shape<1, 1024, true, 16>{},
             shape<4, 256, true, 16, 2>{}, shape<2, 512, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<4, 512, true, 16>{}, shape<2, 1024, true, 16>{},
             shape<8, 256, true, 16>{});
  } else if constexpr (ROW_SHAPES_PART >= 11) {
    sweep<T>(opname, op, {256}, shape<2, 512, false>{}, shape<1, 256, false, 1, 4>{});
    sweep<T>(opname, op, {1024}, shape<1, 256, true, 1, 4>{}, shape<2, 128, true, 1, 8>{});
    sweep<T>(opname, op, {2048}, shape<2, 256, true, 1, 4>{}, shape<1, 512, true, 1, 2>{});
    sweep<T>(opname, op, {4096}, shape<2, 512, true, 1, 2>{}, shape<1, 1024, true>{},
             shape<2, 256, true, 2, 4>{});
    sweep<T>(opname, op, {8192}, shape<2, 1024, true>{}, shape<2, 512, true, 2, 2>{},
             shape<1, 512, true, 4, 2>{});
    sweep<T>(opname, op, {16384}, shape<1, 512, true, 8, 2>{}, shape<2, 512, true, 4, 2>{},
             shape<2, 256, true, 8, 4>{});
    sweep<T>(opname, op, {32768}, shape<2, 512, true, 8, 2>{}, shape<2, 256, true, 16, 4>{},
             shape<1, 512, true, 16, 2>{});
    sweep<T>(opname, op, {65536}, shape<2, 512, true, 16, 2>{}, shape<4, 512, true, 8>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16>{}, shape<4, 512, true, 16>{},
             shape<2, 1024, true, 16>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<4, 1024, true, 16>{});
  } else if constexpr (wide) {
    sweep<T>(opname, op, {32, 64, 128, 256, 512}, shape<2, 512, false>{}, shape<2, 256, false>{},
             shape<1, 256, false, 1, 4>{}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {1024}, shape<4, 128, false>{}, shape<1, 128, true, 1, 8>{},
             shape<2, 64, true, 1, 8>{});
    sweep<T>(opname, op, {131072}, shape<2, 512, true, 16, 2>{}, shape<4, 512, true, 8>{});
    sweep<T>(opname, op, {262144}, shape<2, 1024, true, 16>{}, shape<4, 512, true, 16>{},
             shape<8, 256, true, 16>{});
  } else {
    sweep<T>(opname, op, {32768}, shape<4, 512, true, 4, 2>{}, shape<4, 256, true, 8, 2>{});
    sweep<T>(opname, op, {65536}, shape<4, 512, true, 8, 2>{}, shape<4, 256, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{});
  }
#elif ROW_SHAPES_ROUND == 28
  // Round 28 (twentieth session): the norms' backward on group rows, 32-512 columns, which no
  // round had surveyed (the tables' rows there were chosen not to spill), under caps that buy
  // blocks, at the library's chunk rule and at two and four times its chunks (main()).
  if constexpr (wide)
    sweep<T>(opname, op, {32, 64, 128, 256, 512}, shape<1, 256, false, 1, 4>{},
             shape<1, 256, false, 1, 8>{}, shape<1, 128, false, 1, 8>{},
             shape<2, 256, false, 1, 4>{}, shape<2, 512, false>{}, shape<1, 512, false, 1, 2>{},
             shape<2, 128, false, 1, 8>{});
  else
    sweep<T>(opname, op, {32, 64, 128, 256, 512}, shape<1, 256, false, 1, 4>{},
             shape<1, 256, false, 1, 8>{}, shape<2, 256, false, 1, 4>{}, shape<2, 512, false>{},
             shape<1, 512, false, 1, 2>{}, shape<4, 256, false>{});
#elif ROW_SHAPES_ROUND == 26
  // Round 26 (nineteenth session): softmax's and log-softmax's 16-bit backward past 32768 columns
  // on persistent clusters as well (round 22's shapes and the tables' rows, every grid).
  static_assert(wide, "round 26 has 16-bit shapes only");
  sweep<T>(opname, op, {65536}, shape<2, 512, true, 8, 2>{}, shape<4, 512, true, 4>{},
           shape<2, 1024, true, 4>{});
  sweep<T>(opname, op, {131072}, shape<2, 512, true, 16, 2>{}, shape<4, 512, true, 8>{},
           shape<4, 256, true, 16, 2>{}, shape<2, 1024, true, 8>{});
  sweep<T>(opname, op, {262144}, shape<4, 512, true, 16>{}, shape<8, 256, true, 16>{},
           shape<2, 1024, true, 16>{}, shape<4, 1024, true, 8>{});
#elif ROW_SHAPES_ROUND == 25
  // Round 25 (nineteenth session): softmax's and log-softmax's 16-bit cluster rows past 32768
  // columns on persistent clusters (staged: the next row's copies in flight while this one is
  // reduced), beside the tables' rows on one cluster a row tile.
  sweep<T>(opname, op, {65536}, shape<8, 128, true, 8>{}, shape<8, 256, true, 4>{},
           shape<4, 512, true, 4, 2>{}, shape<4, 1024, true, 2>{});
  sweep<T>(opname, op, {131072}, shape<8, 128, true, 16>{}, shape<8, 256, true, 8>{},
           shape<4, 512, true, 8, 2>{}, shape<8, 512, true, 4>{}, shape<4, 1024, true, 4>{});
  sweep<T>(opname, op, {262144}, shape<8, 256, true, 16>{}, shape<4, 512, true, 16, 2>{},
           shape<8, 512, true, 8>{}, shape<4, 1024, true, 8>{});
#elif ROW_SHAPES_ROUND == 29
  // Round 29 (twenty-second session): rows of several whole warps, several rows a block
  // (register_shape::row_threads / 32), at 512-8192 16-bit columns, so that a block moves several
  // rows' bytes where one whole-block row is a 1-4 KB block; beside each width's table rows
  // (softmax's, layernorm's, rmsnorm's, the norms' backward's) in the same run. fp32 (packs of 4):
  // 512-4096 columns, the same way.
  if constexpr (!wide) {
    sweep<T>(opname, op, {512}, shape<4, 128, false>{}, shape<4, 256, false, 1, 1, true, 0>{},
             warps<2, 128, 2>{}, warps<2, 256, 2>{}, warps<1, 256, 4>{}, warps<1, 512, 4>{},
             warps<2, 256, 2, 3>{});
    sweep<T>(opname, op, {1024}, shape<2, 128, true>{}, shape<1, 256, true, 1, 4>{},
             warps<4, 128, 2>{}, warps<4, 256, 2>{}, warps<2, 256, 4>{}, warps<2, 512, 4>{},
             warps<1, 512, 8>{}, warps<4, 256, 2, 3>{}, warps<2, 512, 4, 2>{});
    sweep<T>(opname, op, {2048}, shape<2, 256, true>{}, shape<1, 512, true, 1, 2>{},
             warps<4, 256, 4>{}, warps<4, 512, 4>{}, warps<2, 512, 8>{}, warps<2, 1024, 8>{},
             warps<8, 256, 2>{}, warps<4, 512, 4, 2>{}, warps<4, 256, 4, 3>{});
    sweep<T>(opname, op, {4096}, shape<4, 256, true, 1, 3>{}, shape<1, 1024, true>{},
             warps<4, 512, 8>{}, warps<4, 1024, 8>{}, warps<8, 256, 4>{}, warps<8, 512, 4>{},
             warps<2, 1024, 16>{}, warps<4, 512, 8, 2>{});
    return;
  }
  sweep<T>(opname, op, {512}, shape<2, 256, false, 1, 4>{}, shape<2, 256, false, 1, 5>{},
           shape<1, 256, false, 1, 4>{}, warps<1, 128, 2>{}, warps<1, 256, 2>{}, warps<1, 512, 2>{},
           warps<1, 256, 2, 4>{}, warps<1, 512, 2, 2>{});
  sweep<T>(opname, op, {1024}, shape<4, 128, false, 1, 6>{}, shape<4, 256, false, 1, 3>{},
           shape<1, 128, true, 1, 8>{}, warps<2, 128, 2>{}, warps<2, 256, 2>{}, warps<2, 512, 2>{},
           warps<1, 256, 4>{}, warps<1, 512, 4>{}, warps<2, 256, 2, 3>{}, warps<1, 512, 4, 2>{});
  sweep<T>(opname, op, {2048}, shape<8, 128, false, 1, 2>{}, shape<2, 128, true>{},
           shape<1, 256, true, 1, 4>{}, warps<4, 128, 2>{}, warps<4, 256, 2>{}, warps<2, 256, 4>{},
           warps<2, 512, 4>{}, warps<1, 512, 8>{}, warps<1, 1024, 8>{}, warps<4, 256, 2, 3>{},
           warps<2, 512, 4, 2>{});
  sweep<T>(opname, op, {4096}, shape<2, 256, true, 1, 3>{}, shape<4, 128, true, 1, 6>{},
           shape<1, 512, true, 1, 2>{}, warps<4, 256, 4>{}, warps<4, 512, 4>{}, warps<2, 512, 8>{},
           warps<2, 1024, 8>{}, warps<1, 1024, 16>{}, warps<4, 512, 4, 2>{},
           warps<2, 1024, 8, 1>{});
  sweep<T>(opname, op, {8192}, shape<4, 256, true, 1, 3>{}, shape<1, 1024, true, 1, 1>{},
           warps<4, 512, 8>{}, warps<4, 1024, 8>{}, warps<8, 256, 4>{}, warps<8, 512, 4>{},
           warps<2, 1024, 16>{}, warps<4, 512, 8, 2>{});
#elif ROW_SHAPES_ROUND == 20
  // Round 20: layernorm 16-bit's 65536-column table row alone, for a profiler run.
  sweep<T>(opname, op, {65536}, with_columns<ahead>(shape<4, 512, true, 4, 2>{}));
#elif ROW_SHAPES_ROUND == 16
  // Round 16: the single-element norm rows (scalar_heavy_16bit) on the misaligned layout, before
  // and after the same change.
  sweep<T>(opname, op, {1000}, shape<32, 128, false, 1, 8, false, true>{});
  sweep<T>(opname, op, {2047}, shape<16, 128, true>{});
  sweep<T>(opname, op, {3000}, shape<32, 96, true, 1, 10, false>{});
  sweep<T>(opname, op, {5000}, shape<32, 160, true, 1, 6, false>{});
  sweep<T>(opname, op, {8191}, shape<32, 256, true, 1, 4, false>{});
#elif ROW_SHAPES_ROUND == 5
  // Round 5: the backward ops (two streams a thread), 2048 to 131072 columns (fp32 to 262144):
  // whole-block rows of 1, 2, 4 packs a thread over 128-1024 threads with register caps
  // (MinBlocks 1-4), and clusters of 2-16 blocks of 256 or 512 threads, each shape holding the
  // width exactly (262144 fp32 columns: only 8 packs of 512 threads in clusters of 16 hold it).
  if constexpr (wide) {
    sweep<T>(opname, op, {2048}, shape<1, 256, true>{}, shape<2, 128, true>{},
             shape<1, 256, true, 1, 2>{}, shape<1, 256, true, 1, 4>{}, shape<2, 128, true, 1, 4>{});
    sweep<T>(opname, op, {4096}, shape<1, 512, true>{}, shape<2, 256, true>{},
             shape<4, 128, true>{}, shape<1, 512, true, 1, 2>{}, shape<2, 256, true, 1, 2>{},
             shape<2, 256, true, 1, 4>{}, shape<4, 128, true, 1, 4>{}, shape<1, 256, true, 2>{});
    sweep<T>(opname, op, {8192}, shape<1, 1024, true>{}, shape<2, 512, true>{},
             shape<4, 256, true>{}, shape<2, 512, true, 1, 2>{}, shape<4, 256, true, 1, 2>{},
             shape<4, 256, true, 1, 4>{}, shape<1, 512, true, 2>{}, shape<2, 256, true, 2>{},
             shape<1, 256, true, 4>{});
    sweep<T>(opname, op, {16384}, shape<2, 1024, true>{}, shape<4, 512, true>{},
             shape<4, 512, true, 1, 2>{}, shape<2, 512, true, 2>{}, shape<4, 256, true, 2>{},
             shape<1, 512, true, 4>{}, shape<2, 256, true, 4>{}, shape<1, 256, true, 8>{},
             shape<2, 512, true, 2, 2>{}, shape<4, 256, true, 2, 4>{});
    sweep<T>(opname, op, {32768}, shape<4, 1024, true>{}, shape<4, 512, true, 2>{},
             shape<2, 512, true, 4>{}, shape<1, 512, true, 8>{}, shape<4, 256, true, 4>{},
             shape<2, 256, true, 8>{}, shape<1, 256, true, 16>{}, shape<4, 512, true, 2, 2>{},
             shape<2, 512, true, 4, 2>{}, shape<4, 256, true, 4, 4>{});
    sweep<T>(opname, op, {65536}, shape<4, 512, true, 4>{}, shape<2, 512, true, 8>{},
             shape<1, 512, true, 16>{}, shape<4, 256, true, 8>{}, shape<2, 256, true, 16>{},
             shape<4, 512, true, 4, 2>{}, shape<2, 512, true, 8, 2>{}, shape<4, 256, true, 8, 4>{});
    sweep<T>(opname, op, {131072}, shape<4, 512, true, 8>{}, shape<2, 512, true, 16>{},
             shape<4, 256, true, 16>{}, shape<4, 512, true, 8, 2>{}, shape<2, 512, true, 16, 2>{},
             shape<4, 256, true, 16, 4>{});
  } else {
    sweep<T>(opname, op, {2048}, shape<1, 512, true>{}, shape<2, 256, true>{},
             shape<4, 128, true>{}, shape<2, 256, true, 1, 2>{}, shape<2, 256, true, 1, 4>{},
             shape<4, 128, true, 1, 4>{}, shape<1, 256, true, 2>{});
    sweep<T>(opname, op, {4096}, shape<1, 1024, true>{}, shape<2, 512, true>{},
             shape<4, 256, true>{}, shape<2, 512, true, 1, 2>{}, shape<4, 256, true, 1, 2>{},
             shape<4, 256, true, 1, 4>{}, shape<1, 512, true, 2>{}, shape<2, 256, true, 2>{},
             shape<1, 256, true, 4>{});
    sweep<T>(opname, op, {8192}, shape<2, 1024, true>{}, shape<4, 512, true>{},
             shape<4, 512, true, 1, 2>{}, shape<2, 512, true, 2>{}, shape<4, 256, true, 2>{},
             shape<1, 512, true, 4>{}, shape<2, 256, true, 4>{}, shape<1, 256, true, 8>{},
             shape<2, 512, true, 2, 2>{}, shape<4, 256, true, 2, 4>{});
    sweep<T>(opname, op, {16384}, shape<4, 1024, true>{}, shape<4, 512, true, 2>{},
             shape<2, 512, true, 4>{}, shape<1, 512, true, 8>{}, shape<4, 256, true, 4>{},
             shape<2, 256, true, 8>{}, shape<1, 256, true, 16>{}, shape<4, 512, true, 2, 2>{},
             shape<2, 512, true, 4, 2>{}, shape<4, 256, true, 4, 4>{});
    sweep<T>(opname, op, {32768}, shape<4, 512, true, 4>{}, shape<2, 512, true, 8>{},
             shape<1, 512, true, 16>{}, shape<4, 256, true, 8>{}, shape<2, 256, true, 16>{},
             shape<4, 512, true, 4, 2>{}, shape<2, 512, true, 8, 2>{}, shape<4, 256, true, 8, 4>{});
    sweep<T>(opname, op, {65536}, shape<4, 512, true, 8>{}, shape<2, 512, true, 16>{},
             shape<4, 256, true, 16>{}, shape<4, 512, true, 8, 2>{}, shape<2, 512, true, 16, 2>{},
             shape<4, 256, true, 16, 4>{});
    sweep<T>(opname, op, {131072}, shape<4, 512, true, 16>{}, shape<4, 512, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<8, 512, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 21 || ROW_SHAPES_ROUND == 22
  // Rounds 21 and 22: softmax and log-softmax backward on cluster rows again, with the forward's
  // cluster shapes (round 6: blocks of 128-256 threads, several an SM), which round 5 (before
  // the one-exchange cluster rows) did not have. 21: 16-bit 16384-65536, fp32 32768-65536;
  // 22: 16-bit 131072-262144, fp32 131072-262144 (each shape holds the width exactly).
  if constexpr (wide && ROW_SHAPES_ROUND == 21) {
    sweep<T>(opname, op, {16384}, shape<2, 1024, true>{}, shape<2, 512, true, 2, 2>{},
             shape<4, 256, true, 2, 2>{}, shape<2, 256, true, 4, 4>{}, shape<4, 128, true, 4, 4>{},
             shape<1, 512, true, 4, 2>{});
    sweep<T>(opname, op, {32768}, shape<2, 512, true, 4, 2>{}, shape<4, 256, true, 4, 2>{},
             shape<2, 256, true, 8, 4>{}, shape<4, 128, true, 8, 4>{}, shape<8, 128, true, 4, 2>{},
             shape<2, 128, true, 16, 8>{});
    sweep<T>(opname, op, {65536}, shape<2, 512, true, 8, 2>{}, shape<4, 256, true, 8, 2>{},
             shape<2, 256, true, 16, 4>{}, shape<4, 128, true, 16, 4>{},
             shape<8, 128, true, 8, 2>{}, shape<4, 512, true, 4>{});
  } else if constexpr (wide) {
    sweep<T>(opname, op, {131072}, shape<2, 512, true, 16, 2>{}, shape<4, 256, true, 16, 2>{},
             shape<8, 128, true, 16, 2>{}, shape<4, 512, true, 8>{}, shape<8, 256, true, 8>{});
    sweep<T>(opname, op, {262144}, shape<4, 512, true, 16>{}, shape<8, 256, true, 16>{},
             shape<16, 128, true, 16>{}, shape<2, 1024, true, 16>{});
  } else if constexpr (ROW_SHAPES_ROUND == 21) {
    sweep<T>(opname, op, {32768}, shape<4, 512, true, 4, 2>{}, shape<4, 256, true, 8, 2>{},
             shape<2, 256, true, 16, 4>{}, shape<4, 128, true, 16, 4>{}, shape<8, 256, true, 4>{});
    sweep<T>(opname, op, {65536}, shape<4, 512, true, 8, 2>{}, shape<4, 256, true, 16, 2>{},
             shape<8, 128, true, 16, 2>{}, shape<8, 256, true, 8>{});
  } else {
    sweep<T>(opname, op, {131072}, shape<4, 512, true, 16, 2>{}, shape<8, 256, true, 16>{},
             shape<8, 512, true, 8>{}, shape<16, 128, true, 16>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<16, 256, true, 16>{});
  }
#elif ROW_SHAPES_ROUND == 6
  // Round 6: rows spread over the registers of a cluster, 32768 to 262144 columns, each shape
  // holding the width exactly: QuACK's (256-thread blocks, 64 16-bit or 32-128 fp32 values a
  // thread) and its neighbours, to time the cluster exchange of the sixth session.
  if constexpr (wide) {
    sweep<T>(opname, op, {32768}, shape<8, 256, true, 2>{}, shape<4, 512, true, 2>{},
             shape<4, 256, true, 4>{}, shape<8, 128, true, 4>{}, shape<8, 256, true, 2, 2>{},
             shape<8, 128, true, 4, 4>{}, shape<4, 256, true, 4, 2>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 4>{}, shape<4, 512, true, 4>{},
             shape<4, 256, true, 8>{}, shape<8, 128, true, 8>{}, shape<8, 256, true, 4, 2>{},
             shape<8, 128, true, 8, 4>{}, shape<4, 256, true, 8, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 8>{}, shape<4, 512, true, 8>{},
             shape<4, 256, true, 16>{}, shape<8, 128, true, 16>{}, shape<8, 256, true, 8, 2>{},
             shape<8, 128, true, 16, 4>{}, shape<4, 256, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 256, true, 16>{}, shape<4, 512, true, 16>{},
             shape<8, 512, true, 8>{}, shape<8, 256, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {32768}, shape<16, 256, true, 2>{}, shape<8, 512, true, 2>{},
             shape<8, 256, true, 4>{}, shape<4, 512, true, 4>{}, shape<8, 256, true, 4, 2>{});
    sweep<T>(opname, op, {65536}, shape<16, 256, true, 4>{}, shape<8, 512, true, 4>{},
             shape<8, 256, true, 8>{}, shape<4, 512, true, 8>{}, shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {131072}, shape<16, 256, true, 8>{}, shape<8, 512, true, 8>{},
             shape<8, 256, true, 16>{}, shape<4, 512, true, 16>{}, shape<8, 256, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<16, 256, true, 16>{}, shape<8, 512, true, 16>{},
             shape<4, 1024, true, 16>{}, shape<8, 512, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 7
  // Round 7: the norms' backward with dgamma (and dbeta), 256 to 65536 columns: few values a
  // thread (one pack), register caps that buy blocks, clusters past 4096 (16-bit) columns; main()
  // runs the sweep for several chunk sizes. The first pass (the gradient tables' rows, two and
  // four packs a thread, and chunk targets of 256, 1024 and 4096) is in bench/NOTES.md.
  if constexpr (wide) {
    sweep<T>(opname, op, {256}, shape<1, 256, false>{}, shape<1, 256, false, 1, 4>{},
             shape<1, 128, false, 1, 8>{}, shape<2, 512, false>{}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {1024}, shape<1, 128, true, 1, 8>{}, shape<1, 128, true, 1, 6>{},
             shape<2, 64, true, 1, 8>{}, shape<1, 128, true, 1, 4>{});
    sweep<T>(opname, op, {2048}, shape<1, 256, true, 1, 4>{}, shape<1, 256, true, 1, 3>{},
             shape<2, 128, true, 1, 8>{}, shape<1, 128, true, 2, 8>{});
    sweep<T>(opname, op, {4096}, shape<1, 512, true, 1, 2>{}, shape<1, 256, true, 2, 4>{},
             shape<2, 256, true, 1, 4>{}, shape<1, 128, true, 4, 8>{});
    sweep<T>(opname, op, {8192}, shape<1, 512, true, 2, 2>{}, shape<1, 1024, true, 1, 1>{},
             shape<1, 256, true, 4, 4>{}, shape<2, 512, true, 1, 2>{});
    sweep<T>(opname, op, {16384}, shape<1, 512, true, 4, 2>{}, shape<1, 256, true, 8, 4>{},
             shape<2, 512, true, 2>{}, shape<2, 256, true, 4, 4>{});
    sweep<T>(opname, op, {32768}, shape<1, 512, true, 8, 2>{}, shape<1, 256, true, 16, 4>{},
             shape<2, 256, true, 8>{}, shape<2, 256, true, 8, 4>{});
    sweep<T>(opname, op, {65536}, shape<2, 256, true, 16>{}, shape<1, 512, true, 16, 2>{},
             shape<2, 256, true, 16, 4>{}, shape<2, 512, true, 8, 2>{});
  } else {
    sweep<T>(opname, op, {256}, shape<1, 64, true>{}, shape<2, 256, false, 1, 4>{},
             shape<2, 128, false, 1, 8>{}, shape<2, 512, false>{});
    sweep<T>(opname, op, {1024}, shape<1, 256, true, 1, 4>{}, shape<2, 128, true, 1, 8>{},
             shape<1, 256, true, 1, 3>{}, shape<2, 128, true, 1, 6>{});
    sweep<T>(opname, op, {2048}, shape<2, 256, true, 1, 3>{}, shape<1, 512, true, 1, 2>{},
             shape<2, 256, true, 1, 4>{}, shape<1, 256, true, 2, 4>{});
    sweep<T>(opname, op, {4096}, shape<2, 512, true, 1, 2>{}, shape<1, 512, true, 2, 2>{},
             shape<1, 1024, true, 1, 1>{}, shape<2, 256, true, 2, 4>{});
    sweep<T>(opname, op, {8192}, shape<2, 1024, true>{}, shape<2, 512, true, 2, 2>{},
             shape<1, 512, true, 4, 2>{}, shape<2, 256, true, 4, 4>{});
    sweep<T>(opname, op, {16384}, shape<2, 512, true, 4, 2>{}, shape<1, 512, true, 8, 2>{},
             shape<2, 256, true, 8, 4>{}, shape<4, 256, true, 4>{});
    sweep<T>(opname, op, {32768}, shape<2, 512, true, 8, 2>{}, shape<1, 512, true, 16, 2>{},
             shape<2, 256, true, 16, 4>{}, shape<4, 256, true, 8>{});
    sweep<T>(opname, op, {65536}, shape<4, 512, true, 8>{}, shape<2, 512, true, 16, 2>{},
             shape<4, 256, true, 16>{}, shape<4, 256, true, 16, 4>{});
  }
#elif ROW_SHAPES_ROUND == 23
  // Round 23: the norms' backward past the tables' widest rows (16-bit 65536, fp32 131072), which
  // rowfuse-bench runs on the streaming engines at 0.09-0.43 of a copy: clusters of 16 blocks.
  if constexpr (wide) {
    sweep<T>(opname, op, {131072}, shape<2, 512, true, 16, 2>{}, shape<2, 512, true, 16>{},
             shape<4, 256, true, 16, 2>{}, shape<1, 1024, true, 16>{});
    sweep<T>(opname, op, {262144}, shape<4, 512, true, 16>{}, shape<2, 1024, true, 16>{},
             shape<8, 256, true, 16>{});
  } else {
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16>{}, shape<4, 512, true, 16, 2>{},
             shape<2, 1024, true, 16>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<4, 1024, true, 16>{});
  }
#elif ROW_SHAPES_ROUND == 8
  // Round 8: the norms' group rows, 32 to 512 columns, under register caps that buy more blocks
  // an SM (softmax runs these widths at 0.99+ with 34 registers and six blocks; rmsnorm held 56,
  // layernorm 80: tenth session, bench/NOTES.md).
  (void)wide;
  sweep<T>(opname, op, {32, 64, 128, 256, 512}, shape<2, 256, false, 1, 1>{},
           shape<2, 256, false, 1, 4>{}, shape<2, 256, false, 1, 5>{}, shape<2, 256, false, 1, 6>{},
           shape<1, 256, false, 1, 6>{}, shape<1, 256, false, 1, 8>{}, shape<2, 128, false, 1, 8>{},
           shape<2, 128, false, 1, 10>{}, shape<4, 256, false, 1, 3>{},
           shape<4, 128, false, 1, 6>{}, shape<2, 512, false, 1, 3>{});
#elif ROW_SHAPES_ROUND == 9
  // Round 9: 1024-4096 columns (16-bit), where softmax, rmsnorm and layernorm trail QuACK by
  // 0.04-0.07 on r4's persistent 128- and 256-thread rows: a warp a row with 64 values a lane
  // (QuACK's shape to 3072 columns), and one block a tile under caps that buy blocks (round 8).
  (void)wide;
  sweep<T>(opname, op, {1024, 2048}, shape<8, 128, false, 1, 1>{}, shape<8, 128, false, 1, 2>{},
           shape<4, 128, false, 1, 4>{}, shape<2, 128, true, 1, 8>{}, shape<2, 128, true, 1, 10>{},
           shape<1, 256, true, 1, 8>{}, shape<4, 64, true, 1, 8>{}, shape<2, 256, true, 1, 4>{},
           shape<2, 256, true, 1, 5>{});
  sweep<T>(opname, op, {4096}, shape<4, 128, true, 1, 4>{}, shape<4, 128, true, 1, 5>{},
           shape<4, 128, true, 1, 6>{}, shape<2, 256, true, 1, 4>{}, shape<2, 256, true, 1, 5>{},
           shape<2, 256, true, 1, 6>{}, shape<1, 512, true, 1, 4>{}, shape<8, 64, true, 1, 6>{});
#elif ROW_SHAPES_ROUND == 30
  // Round 30 (thirty-first session): widths between the 16-bit cluster rows' powers of two on
  // shapes of five or ten packs a thread, whose capacity is 5/8 of the next power of two (the
  // vocabulary width 151936 fills 93 % of 163840, 58 % of 262144), beside the rows the tables run
  // there on the shape's own threads (the tables' sized twins are not reproduced: a block of five
  // warps is the launch's, not a shape's).
  if constexpr (wide) {
    sweep<T>(opname, op, {18432, 20480}, shape<4, 512, true, 2>{}, shape<5, 512, true>{},
             shape<5, 512, true, 1, 2>{}, shape<5, 256, true, 2>{}, shape<10, 256, true>{});
    sweep<T>(opname, op, {36864, 40960}, shape<8, 128, true, 8>{}, shape<5, 256, true, 4>{},
             shape<5, 128, true, 8>{}, shape<5, 512, true, 2>{}, shape<10, 256, true, 2>{},
             shape<10, 128, true, 4>{});
    sweep<T>(opname, op, {73728, 81920}, shape<8, 128, true, 16>{}, shape<5, 256, true, 8>{},
             shape<5, 128, true, 16>{}, shape<5, 512, true, 4>{}, shape<10, 256, true, 4>{},
             shape<10, 128, true, 8>{});
    sweep<T>(opname, op, {131080, 151936, 163840}, shape<8, 512, true, 8>{},
             shape<8, 256, true, 16>{}, shape<5, 512, true, 8>{}, shape<5, 512, true, 8, 2>{},
             shape<5, 256, true, 16>{}, shape<5, 1024, true, 4>{}, shape<10, 256, true, 8>{},
             shape<10, 512, true, 4>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 8>{}, shape<8, 256, true, 16>{});
  }
#elif ROW_SHAPES_ROUND == 31
  // Round 31 (thirty-first session): the widths from 5/8 to 3/4 of a 16-bit power of two (past
  // round 30's rows of five packs) on shapes of six packs a thread (3/4 of it) and of three, beside
  // the rows the tables run there on the shape's own threads.
  if constexpr (wide) {
    sweep<T>(opname, op, {20488, 22528, 24576}, shape<4, 256, true, 4>{}, shape<8, 128, true, 4>{},
             shape<4, 1024, true>{}, shape<6, 512, true>{}, shape<6, 512, true, 1, 2>{},
             shape<6, 256, true, 2>{}, shape<3, 1024, true>{});
    sweep<T>(opname, op, {40968, 45056, 49152}, shape<8, 128, true, 8>{}, shape<8, 256, true, 4>{},
             shape<6, 256, true, 4>{}, shape<6, 256, true, 4, 3>{}, shape<6, 128, true, 8>{},
             shape<6, 512, true, 2>{}, shape<3, 512, true, 4>{});
    sweep<T>(opname, op, {81928, 90112, 98304}, shape<8, 128, true, 16>{},
             shape<4, 1024, true, 4>{}, shape<8, 256, true, 8>{}, shape<6, 256, true, 8>{},
             shape<6, 256, true, 8, 3>{}, shape<6, 128, true, 16>{}, shape<6, 512, true, 4>{},
             shape<3, 1024, true, 4>{});
    sweep<T>(opname, op, {163848, 180224, 196608}, shape<8, 512, true, 8>{},
             shape<8, 256, true, 16>{}, shape<6, 256, true, 16>{}, shape<6, 256, true, 16, 3>{},
             shape<6, 512, true, 8>{}, shape<6, 1024, true, 4>{}, shape<3, 1024, true, 8>{});
  }
#elif ROW_SHAPES_ROUND == 32
  // Round 32 (thirty-first session): layernorm's widths between the 16-bit powers of two on shapes
  // of five and six packs a thread, gamma and beta read where the tables' rows take them (held on
  // staged cluster rows; a held shape timed direct is the same kernel as ahead), beside the rows
  // the tables run there on the shape's own threads.
  if constexpr (wide) {
    sweep<T>(opname, op, {18432, 20480}, shape<4, 1024, true>{}, shape<5, 512, true>{},
             shape<5, 512, true, 1, 2>{}, with_columns<held>(shape<5, 512, true>{}),
             shape<5, 256, true, 2>{}, with_columns<held>(shape<5, 256, true, 2>{}));
    sweep<T>(opname, op, {20488, 24576}, shape<4, 1024, true>{}, shape<6, 512, true, 1, 2>{},
             with_columns<held>(shape<6, 512, true, 1, 2>{}), shape<6, 256, true, 2>{},
             with_columns<held>(shape<6, 256, true, 2>{}), shape<3, 1024, true>{});
    sweep<T>(opname, op, {36864, 40960}, with_columns<held>(shape<4, 1024, true, 2>{}),
             shape<5, 256, true, 4>{}, with_columns<held>(shape<5, 256, true, 4>{}),
             with_columns<held>(shape<5, 512, true, 2>{}),
             with_columns<held>(shape<5, 128, true, 8>{}));
    sweep<T>(opname, op, {45056, 49152}, with_columns<held>(shape<4, 1024, true, 2>{}),
             shape<6, 256, true, 4, 3>{}, with_columns<held>(shape<6, 256, true, 4>{}),
             with_columns<held>(shape<6, 512, true, 2>{}));
    sweep<T>(opname, op, {73728, 81920}, with_columns<held>(shape<8, 512, true, 4>{}),
             with_columns<held>(shape<5, 256, true, 8>{}),
             with_columns<held>(shape<5, 512, true, 4>{}),
             with_columns<held>(shape<5, 1024, true, 2>{}));
    sweep<T>(opname, op, {90112, 98304}, with_columns<held>(shape<8, 512, true, 4>{}),
             with_columns<held>(shape<6, 256, true, 8>{}),
             with_columns<held>(shape<6, 512, true, 4>{}));
    sweep<T>(opname, op, {151936, 163840}, with_columns<held>(shape<8, 256, true, 16, 2>{}),
             with_columns<held>(shape<5, 512, true, 8>{}),
             with_columns<held>(shape<5, 256, true, 16>{}),
             with_columns<held>(shape<5, 1024, true, 4>{}));
    sweep<T>(opname, op, {180224, 196608}, with_columns<held>(shape<8, 256, true, 16, 2>{}),
             with_columns<held>(shape<6, 256, true, 16>{}),
             with_columns<held>(shape<6, 512, true, 8>{}));
  }
#elif ROW_SHAPES_ROUND == 33
  // Round 33 (thirty-third session): the aligned 16-bit cells where QuACK led rowfuse in the same
  // lease (bench/RESULTS.md, 2026-11-28). Layernorm at 32-256 columns trails it by 0.01-0.11 on the
  // tables' 2 x 256 persistent group row (64 and below) and 4 x 128 row under a cap of six; QuACK
  // runs a pack a lane, 8 lanes a row at 64 columns and 16 at 128, in 128-thread blocks, one block
  // a tile: shapes of one pack a lane in blocks of 64-256 threads under caps of 8-16 were never
  // timed for the norms (round 8's narrowest was one pack over 256 threads). At 262144 columns
  // softmax (0.92 against 0.99) and rmsnorm (0.95 against 0.98): QuACK's shape (8 packs over 256
  // threads in clusters of 16, two blocks an SM) and its neighbours, beside the tables' rows.
  static_assert(wide, "round 33 has 16-bit shapes only");
  sweep<T>(opname, op, {32, 64, 128, 256}, shape<2, 256, false, 1, 4>{},
           shape<4, 128, false, 1, 6>{}, shape<1, 128, false, 1, 8>{},
           shape<1, 128, false, 1, 12>{}, shape<1, 128, false, 1, 16>{},
           shape<1, 64, false, 1, 16>{}, shape<1, 256, false, 1, 8>{}, shape<2, 128, false, 1, 8>{},
           shape<2, 128, false, 1, 12>{});
  sweep<T>(opname, op, {262144}, shape<8, 512, true, 8>{}, shape<8, 256, true, 16>{},
           shape<8, 256, true, 16, 2>{}, shape<16, 128, true, 16, 2>{},
           shape<4, 512, true, 16, 2>{}, shape<16, 256, true, 8>{});
#elif ROW_SHAPES_ROUND == 34
  // Round 34 (thirty-fourth session): layernorm 16-bit at 32-128 columns. ncu on the tables' row
  // (2 x 256 persistent under a cap of four, 64 registers) shows 8 bytes spilled and reloaded in
  // every row's loop (four LDL a row) and DRAM at 76 % of peak, where rmsnorm on the same shape
  // (47-56 registers, no spill) runs at 0.98 of a copy. The same rows under caps that leave the
  // registers layernorm needs (three blocks of 256, five or six of 128) and one pack a lane over
  // 256 threads, beside the tables' row.
  static_assert(wide, "round 34 has 16-bit shapes only");
  sweep<T>(opname, op, {32, 64, 128}, shape<2, 256, false, 1, 4>{}, shape<2, 256, false, 1, 3>{},
           shape<2, 128, false, 1, 6>{}, shape<2, 128, false, 1, 5>{}, shape<1, 256, false, 1, 4>{},
           shape<1, 256, false, 1, 5>{}, shape<2, 512, false, 1, 1>{});
#elif ROW_SHAPES_ROUND == 35
  // Round 35 (forty-fifth session): the 16-bit ops alone on an H200, where the tables' rows (chosen
  // on an H100) run at 0.77-0.90 of a copy: wide rows past 16384 columns, and log-softmax's rows
  // at 512-8192; block rows holding more values a thread, clusters of fewer and larger blocks.
  if constexpr (wide) {
    sweep<T>(opname, op, {512}, shape<2, 256, false>{}, shape<4, 128, false>{},
             shape<4, 256, false>{}, shape<2, 256, false, 1, 5>{}, shape<4, 128, false, 1, 8>{});
    sweep<T>(opname, op, {2048}, shape<8, 128, false>{}, shape<2, 128, true>{},
             shape<1, 256, true>{});
    sweep<T>(opname, op, {8192}, shape<4, 256, true>{}, shape<8, 128, true>{},
             shape<2, 512, true>{}, shape<4, 256, true, 1, 2>{}, shape<8, 128, true, 1, 3>{});
    sweep<T>(opname, op, {16384}, shape<8, 256, true>{}, shape<4, 512, true>{},
             shape<16, 128, true>{}, shape<8, 256, true, 1, 2>{}, shape<4, 512, true, 1, 2>{},
             shape<8, 128, true, 2>{}, shape<4, 256, true, 2>{});
    sweep<T>(opname, op, {32768}, shape<8, 512, true>{}, shape<4, 1024, true>{},
             shape<16, 256, true>{}, shape<8, 256, true, 2>{}, shape<4, 512, true, 2>{},
             shape<4, 256, true, 4>{}, shape<8, 128, true, 4>{}, shape<8, 256, true, 2, 2>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 4>{}, shape<4, 512, true, 4>{},
             shape<4, 256, true, 8>{}, shape<8, 128, true, 8>{}, shape<8, 512, true, 2>{},
             shape<16, 256, true, 2>{}, shape<8, 256, true, 4, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 8>{}, shape<4, 512, true, 8>{},
             shape<4, 256, true, 16>{}, shape<8, 128, true, 16>{}, shape<8, 512, true, 4>{},
             shape<16, 256, true, 4>{});
    sweep<T>(opname, op, {262144}, shape<8, 256, true, 16>{}, shape<8, 512, true, 8>{},
             shape<16, 256, true, 8>{}, shape<16, 128, true, 16>{}, shape<4, 1024, true, 8>{});
  }
#elif ROW_SHAPES_ROUND == 36
  // Round 36 (forty-sixth session): the cluster rows under ncu on an H200 (ROW_SHAPES_PROFILE: one
  // launch a case): QuACK's shapes at 65536 and 131072 columns (8 packs of 256 threads, clusters of
  // 4 and 8) and the H100 table's at 65536 (8 packs of 128 threads in 8).
  if constexpr (wide) {
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 4>{}, shape<8, 128, true, 8>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 8>{});
  }
#elif ROW_SHAPES_ROUND == 37
  // Round 37 (forty-sixth session): the cluster rows' register caps on an H200. ncu (round 36) put
  // QuACK's 8 x 256 shape at 96 registers here, two blocks an SM, where QuACK's own kernel has 80
  // and three (../shared/anchors/h100-ncu-2026-11-23.md); rmsnorm's at 189, one block. Caps of
  // three blocks of 256 threads (six of 128), and rmsnorm's gamma placed elsewhere than with the
  // row.
  if constexpr (wide) {
    auto const at = [&](index_t cols, auto cluster) {
      constexpr int C = decltype(cluster)::value;
      sweep<T>(opname, op, {cols}, shape<8, 256, true, C>{}, shape<8, 256, true, C, 2>{},
               shape<8, 256, true, C, 3>{}, shape<8, 128, true, 2 * C, 6>{});
      if constexpr (ROW_SHAPES_PART == 3)
        sweep<T>(opname, op, {cols}, with_columns<ahead>(shape<8, 256, true, C, 3>{}),
                 with_columns<shared>(shape<8, 256, true, C, 3>{}));
    };
    at(32768, std::integral_constant<int, 2>{});
    at(65536, std::integral_constant<int, 4>{});
    at(131072, std::integral_constant<int, 8>{});
    sweep<T>(opname, op, {262144}, shape<8, 256, true, 16>{}, shape<8, 256, true, 16, 3>{});
    if constexpr (ROW_SHAPES_PART == 3)
      sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 256, true, 16, 3>{}),
               with_columns<shared>(shape<8, 256, true, 16, 3>{}));
  }
#elif ROW_SHAPES_ROUND == 38
  // Round 38 (forty-sixth session): round 37's caps on more shapes, for softmax and log-softmax
  // built with and without one exchange a row; rmsnorm's row read back from its staging slot
  // (held) under caps of two and three blocks of 256 threads.
  if constexpr (wide && ROW_SHAPES_PART != 3) {
    sweep<T>(opname, op, {32768}, shape<8, 256, true, 2>{}, shape<8, 256, true, 2, 3>{},
             shape<8, 128, true, 4>{}, shape<8, 128, true, 4, 6>{}, shape<4, 256, true, 4, 4>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 4, 3>{}, shape<8, 128, true, 8>{},
             shape<8, 128, true, 8, 6>{}, shape<4, 256, true, 8, 4>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 8>{}, shape<8, 256, true, 8, 3>{},
             shape<8, 128, true, 16, 6>{});
    sweep<T>(opname, op, {262144}, shape<16, 128, true, 16>{}, shape<8, 256, true, 16, 3>{},
             shape<8, 512, true, 8>{});
  }
  if constexpr (wide && ROW_SHAPES_PART == 3) {
    auto const at = [&](index_t cols, auto cluster) {
      constexpr int C = decltype(cluster)::value;
      sweep<T>(opname, op, {cols}, with_columns<held>(shape<8, 256, true, C, 2>{}),
               with_columns<held>(shape<8, 256, true, C, 3>{}), shape<8, 256, true, C, 2>{});
      if constexpr (C < 16)
        sweep<T>(opname, op, {cols}, with_columns<held>(shape<8, 128, true, 2 * C, 6>{}));
    };
    at(32768, std::integral_constant<int, 2>{});
    at(65536, std::integral_constant<int, 4>{});
    at(131072, std::integral_constant<int, 8>{});
    at(262144, std::integral_constant<int, 16>{});
  }
#elif ROW_SHAPES_ROUND == 39
  // Round 39 (forty-sixth session): fp32 softmax, log-softmax and rmsnorm on an H200 where their
  // rows (chosen on an H100) run at 0.79-0.87 of a copy (thirty-sixth session): 16384 columns on
  // blocks and small clusters, 131072 and 262144 on clusters of 64 values a thread under caps
  // (packs of 4: P x B x C x 4 = cols); rmsnorm at 65536 too.
  if constexpr (!wide) {
    sweep<T>(opname, op, {16384}, shape<8, 512, true>{}, shape<16, 256, true>{},
             shape<16, 256, true, 1, 2>{}, shape<4, 1024, true>{}, shape<8, 256, true, 2>{},
             shape<8, 256, true, 2, 3>{}, shape<8, 128, true, 4, 6>{}, shape<16, 128, true, 2>{});
    if constexpr (ROW_SHAPES_PART == 5)
      sweep<T>(opname, op, {65536}, shape<8, 256, true, 8>{}, shape<8, 256, true, 8, 2>{},
               shape<16, 256, true, 4, 2>{}, shape<16, 128, true, 8, 4>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16>{}, shape<8, 256, true, 16, 3>{},
             shape<8, 256, true, 16, 2>{}, shape<16, 256, true, 8>{}, shape<16, 256, true, 8, 2>{},
             shape<16, 128, true, 16, 4>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<8, 512, true, 16, 2>{},
             shape<16, 256, true, 16>{}, shape<16, 256, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 40
  // Round 40 (forty-seventh session): the widths between the powers of two on an H200, where the
  // rows chosen on an H100 (five and six packs a thread, rounds 30-31) and the powers of two's
  // rows filled to 3/4 run at 0.63-0.88 of a copy (16-bit) and 0.46-0.92 (fp32): rows of five,
  // six and seven packs a thread (5/8, 3/4, 7/8 of the next power of two) on small clusters under
  // caps of three blocks of 256 threads (six of 128; rmsnorm 16-bit: two and four, where it
  // spills under three), beside the rows the tables run there (first in each list).
  if constexpr (wide) {
    constexpr int cap256 = ROW_SHAPES_PART == 3 ? 2 : 3;
    constexpr int cap128 = ROW_SHAPES_PART == 3 ? 4 : 6;
    sweep<T>(opname, op, {20488, 24576}, shape<6, 512, true, 1, 2>{},
             shape<6, 256, true, 2, cap256>{}, shape<6, 128, true, 4, cap128>{},
             shape<6, 256, true, 2>{});
    sweep<T>(opname, op, {24584, 28672}, shape<8, 256, true, 2, cap256>{},
             shape<7, 256, true, 2, cap256>{}, shape<7, 128, true, 4, cap128>{});
    sweep<T>(opname, op, {40968, 49152}, shape<6, 128, true, 8, 7>{},
             shape<6, 256, true, 4, cap256>{}, shape<6, 128, true, 8, cap128>{});
    sweep<T>(opname, op, {49160, 57344}, shape<8, 128, true, 8, cap128>{},
             shape<7, 256, true, 4, cap256>{}, shape<7, 128, true, 8, cap128>{});
    sweep<T>(opname, op, {81928, 98304}, shape<6, 128, true, 16, 7>{},
             shape<6, 256, true, 8, cap256>{}, shape<6, 128, true, 16, cap128>{});
    sweep<T>(opname, op, {98312, 114688}, shape<8, 256, true, 8>{},
             shape<7, 256, true, 8, cap256>{}, shape<7, 128, true, 16, cap128>{});
    sweep<T>(opname, op, {163848, 196608}, shape<6, 256, true, 16>{},
             shape<6, 256, true, 16, cap256>{}, shape<12, 128, true, 16>{});
    sweep<T>(opname, op, {196616, 229376}, shape<16, 128, true, 16>{},
             shape<7, 256, true, 16, cap256>{}, shape<14, 128, true, 16>{});
  } else {
    sweep<T>(opname, op, {8200, 10240}, shape<8, 512, true>{}, shape<5, 512, true, 1, 2>{},
             shape<5, 256, true, 2, 3>{}, shape<5, 128, true, 4, 6>{},
             shape<10, 256, true, 1, 2>{});
    sweep<T>(opname, op, {12288}, shape<8, 128, true, 4, 6>{}, shape<6, 512, true, 1, 2>{},
             shape<6, 256, true, 2, 3>{}, shape<6, 128, true, 4, 6>{});
    sweep<T>(opname, op, {24584, 28672}, shape<8, 256, true, 4>{}, shape<8, 128, true, 8, 6>{},
             shape<7, 256, true, 4, 3>{}, shape<7, 128, true, 8, 6>{});
    sweep<T>(opname, op, {32776, 40960}, shape<8, 256, true, 8>{}, shape<5, 256, true, 8, 3>{},
             shape<5, 128, true, 16, 6>{}, shape<10, 256, true, 4, 2>{});
    sweep<T>(opname, op, {49160, 57344}, shape<8, 256, true, 8>{}, shape<7, 256, true, 8, 3>{},
             shape<7, 128, true, 16, 6>{}, shape<14, 128, true, 8, 4>{});
    sweep<T>(opname, op, {65544, 81920}, shape<8, 256, true, 16>{}, shape<16, 128, true, 16, 4>{},
             shape<5, 256, true, 16, 3>{}, shape<10, 128, true, 16, 4>{},
             shape<10, 256, true, 8, 2>{});
    sweep<T>(opname, op, {98312, 114688}, shape<8, 256, true, 16, 3>{},
             shape<7, 256, true, 16, 3>{}, shape<14, 128, true, 16, 4>{});
    sweep<T>(opname, op, {131080, 163840}, shape<16, 256, true, 16, 2>{},
             shape<10, 256, true, 16, 2>{}, shape<5, 512, true, 16, 2>{});
    sweep<T>(opname, op, {196616, 229376}, shape<16, 256, true, 16, 2>{},
             shape<14, 256, true, 16, 2>{}, shape<7, 512, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 41
  // Round 41 (forty-seventh session): layernorm on an H200 past 8192 columns, where its rows
  // (chosen on an H100) run at 0.64-0.85 of a copy in 16-bit (forty-fifth session): round 40's
  // rows of five to eight packs a thread (and of ten to sixteen in fp32) in small clusters under
  // caps, beside the tables' rows (first in each list; 16-bit past 32768 columns the rows read back
  // from staging with gamma and beta held).
  if constexpr (wide) {
    sweep<T>(opname, op, {8200, 10240}, shape<4, 512, true, 1, 2>{}, shape<5, 256, true, 1, 3>{},
             shape<5, 256, true, 1, 2>{}, shape<5, 128, true, 2, 6>{}, shape<5, 128, true, 2, 4>{});
    sweep<T>(opname, op, {12288}, shape<4, 512, true, 1, 2>{}, shape<6, 256, true, 1, 3>{},
             shape<6, 128, true, 2, 6>{}, shape<6, 128, true, 2, 4>{});
    sweep<T>(opname, op, {16384}, shape<4, 512, true, 1, 2>{}, shape<8, 256, true, 1, 2>{},
             shape<8, 128, true, 2, 4>{}, shape<4, 256, true, 2, 3>{}, shape<4, 128, true, 4, 6>{});
    sweep<T>(opname, op, {20488, 24576}, shape<5, 512, true, 1, 2>{}, shape<6, 128, true, 4, 4>{},
             shape<6, 256, true, 2, 2>{}, shape<6, 128, true, 4, 6>{}, shape<3, 256, true, 4, 4>{});
    sweep<T>(opname, op, {24584, 28672}, shape<4, 1024, true>{}, shape<7, 128, true, 4, 4>{},
             shape<7, 256, true, 2, 2>{}, shape<4, 256, true, 4, 3>{});
    sweep<T>(opname, op, {32768}, shape<4, 1024, true>{}, shape<8, 256, true, 2, 2>{},
             shape<8, 128, true, 4, 4>{}, shape<4, 256, true, 4, 4>{},
             with_columns<held>(shape<8, 256, true, 2, 2>{}));
    sweep<T>(opname, op, {40968, 49152}, with_columns<held>(shape<4, 1024, true, 2>{}),
             shape<6, 128, true, 8, 4>{}, shape<6, 256, true, 4, 2>{}, shape<3, 256, true, 8, 4>{});
    sweep<T>(opname, op, {65536}, with_columns<held>(shape<4, 1024, true, 2>{}),
             shape<8, 128, true, 8, 4>{}, shape<8, 256, true, 4, 2>{}, shape<4, 256, true, 8, 4>{},
             with_columns<held>(shape<8, 256, true, 4, 2>{}));
    sweep<T>(opname, op, {81928, 98304}, with_columns<held>(shape<8, 512, true, 4>{}),
             shape<6, 128, true, 16, 4>{}, shape<6, 256, true, 8, 2>{},
             with_columns<held>(shape<6, 256, true, 8, 2>{}));
    sweep<T>(opname, op, {131072}, with_columns<held>(shape<8, 512, true, 4>{}),
             shape<8, 256, true, 8, 2>{}, shape<8, 128, true, 16, 4>{},
             shape<4, 256, true, 16, 4>{});
    sweep<T>(opname, op, {163848, 196608}, with_columns<held>(shape<6, 512, true, 8>{}),
             shape<6, 256, true, 16, 2>{}, shape<3, 512, true, 16, 2>{},
             with_columns<held>(shape<6, 256, true, 16, 2>{}));
    sweep<T>(opname, op, {262144}, with_columns<held>(shape<8, 256, true, 16, 2>{}),
             shape<8, 256, true, 16, 2>{}, shape<4, 512, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {8200, 10240}, shape<8, 512, true>{}, shape<5, 256, true, 2, 3>{},
             shape<5, 256, true, 2, 2>{}, shape<5, 128, true, 4, 6>{}, shape<5, 512, true, 1, 2>{});
    sweep<T>(opname, op, {12288, 16384}, shape<8, 512, true>{}, shape<8, 128, true, 4, 6>{},
             shape<8, 128, true, 4, 4>{}, shape<4, 256, true, 4, 4>{});
    sweep<T>(opname, op, {24584, 28672}, shape<8, 256, true, 4, 2>{}, shape<7, 128, true, 8, 6>{},
             shape<7, 128, true, 8, 4>{}, shape<7, 256, true, 4, 3>{});
    sweep<T>(opname, op, {32768}, shape<8, 256, true, 4, 2>{}, shape<8, 128, true, 8, 6>{},
             shape<8, 128, true, 8, 4>{});
    sweep<T>(opname, op, {32776, 40960}, shape<8, 256, true, 8, 2>{}, shape<5, 256, true, 8, 3>{},
             shape<10, 256, true, 4, 2>{}, shape<5, 128, true, 16, 6>{});
    sweep<T>(opname, op, {49160, 57344}, shape<8, 256, true, 8, 2>{}, shape<7, 128, true, 16, 6>{},
             shape<7, 256, true, 8, 3>{}, shape<14, 128, true, 8, 4>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8, 2>{}, shape<8, 128, true, 16, 6>{},
             shape<8, 128, true, 16, 4>{}, shape<16, 128, true, 8, 4>{});
    sweep<T>(opname, op, {65544, 81920}, shape<8, 256, true, 16, 2>{},
             shape<10, 128, true, 16, 4>{}, shape<5, 256, true, 16, 3>{},
             shape<10, 256, true, 8, 2>{});
    sweep<T>(opname, op, {98312, 114688}, shape<8, 256, true, 16, 2>{},
             shape<14, 128, true, 16, 4>{}, shape<7, 256, true, 16, 3>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16, 2>{}, shape<16, 128, true, 16, 4>{},
             shape<8, 256, true, 16, 3>{}, shape<16, 256, true, 8, 2>{});
    sweep<T>(opname, op, {131080, 163840}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}),
             shape<10, 256, true, 16, 2>{}, shape<5, 512, true, 16, 2>{});
    sweep<T>(opname, op, {196616, 229376}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}),
             shape<14, 256, true, 16, 2>{}, shape<7, 512, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}),
             shape<16, 256, true, 16, 2>{}, with_columns<ahead>(shape<16, 256, true, 16, 2>{}));
  }
#elif ROW_SHAPES_ROUND == 42
  // Round 42 (forty-seventh session): fp32 layernorm on an H200 past 8192 columns, where round 41
  // found its rows of 28-40 values a thread at 114-128 registers (gamma and beta held with the
  // row) and 0.60-0.91 of a copy: the same shapes with gamma and beta read ahead, kept in shared
  // memory, or held while the row is read back from its staging slot (column_placement).
  if constexpr (!wide) {
    auto const placed = [&](std::vector<index_t> const& cols, auto... shapes) {
      sweep<T>(opname, op, cols, with_columns<ahead>(shapes)..., with_columns<shared>(shapes)...,
               with_columns<held>(shapes)...);
    };
    placed({12288, 16384}, shape<8, 128, true, 4, 6>{}, shape<8, 128, true, 4, 4>{});
    placed({24584, 28672}, shape<7, 128, true, 8, 6>{}, shape<7, 128, true, 8, 4>{});
    placed({32768}, shape<8, 128, true, 8, 6>{}, shape<8, 128, true, 8, 4>{});
    placed({32776, 40960}, shape<5, 256, true, 8, 3>{}, shape<10, 128, true, 8, 4>{});
    placed({49160, 57344}, shape<7, 128, true, 16, 6>{}, shape<7, 256, true, 8, 3>{});
    placed({65536}, shape<8, 128, true, 16, 6>{}, shape<8, 256, true, 8, 3>{});
    placed({65544, 81920}, shape<10, 128, true, 16, 4>{}, shape<5, 256, true, 16, 3>{});
    placed({98312, 114688}, shape<14, 128, true, 16, 4>{}, shape<7, 256, true, 16, 3>{});
    placed({131072}, shape<16, 128, true, 16, 4>{}, shape<8, 256, true, 16, 3>{});
    placed({131080, 163840}, shape<10, 256, true, 16, 2>{}, shape<5, 512, true, 16, 2>{});
    placed({196616, 229376}, shape<14, 256, true, 16, 2>{}, shape<7, 512, true, 16, 2>{});
    placed({262144}, shape<16, 256, true, 16, 2>{}, shape<8, 512, true, 16, 2>{});
  }
#elif ROW_SHAPES_ROUND == 43
  // Round 43 (forty-seventh session): the 16-bit norms and log-softmax at 32-16384 columns on an
  // H200, where their rows (chosen on an H100) run at 0.78-0.92 of a copy (layernorm 32-1024,
  // rmsnorm 32-256, log-softmax 32-256 and 2048-16384): group rows, rows of whole warps and block
  // rows under caps that buy blocks.
  if constexpr (wide) {
    sweep<T>(opname, op, {32, 64, 128}, shape<1, 256, false, 1, 8>{}, shape<2, 256, false, 1, 6>{},
             shape<1, 512, false, 1, 4>{}, shape<2, 128, false, 1, 8>{},
             shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {256, 512}, shape<2, 256, false, 1, 6>{}, shape<4, 128, false, 1, 8>{},
             shape<2, 128, false, 1, 8>{}, shape<4, 256, false, 1, 4>{},
             shape<2, 256, false, 1, 5>{});
    sweep<T>(opname, op, {1024}, shape<4, 128, false, 1, 8>{}, shape<4, 256, false, 1, 4>{},
             shape<8, 128, false, 1, 4>{}, warps<2, 256, 2, 4>{}, warps<4, 128, 1, 8>{});
    sweep<T>(opname, op, {2048}, shape<8, 128, false, 1, 4>{}, warps<4, 256, 2, 3>{},
             warps<2, 256, 4, 4>{}, shape<2, 128, true, 1, 8>{}, warps<8, 128, 1, 4>{});
    sweep<T>(opname, op, {4096}, shape<4, 128, true, 1, 6>{}, shape<2, 256, true, 1, 4>{},
             shape<4, 128, true, 1, 8>{}, warps<8, 256, 2, 2>{}, warps<4, 256, 4, 3>{});
    sweep<T>(opname, op, {8192}, shape<4, 256, true, 1, 3>{}, shape<8, 128, true, 1, 4>{},
             shape<4, 256, true, 1, 4>{}, shape<2, 512, true, 1, 2>{});
    sweep<T>(opname, op, {16384}, shape<8, 256, true, 1, 2>{}, shape<4, 512, true, 1, 2>{},
             shape<16, 128, true, 1, 2>{}, shape<8, 128, true, 2, 4>{});
  }
#elif ROW_SHAPES_ROUND == 44
  // Round 44 (forty-eighth session): the 16-bit ops at the widths between the powers of two to
  // 6144 columns on an H200, where their rows (a power of two's packs) run half to three quarters
  // filled at 0.55-0.80 of a copy: group rows and rows of whole warps of three, five, six, seven
  // and nine packs a lane that the widths fill to 78-100 %, beside the rows the tables take (first
  // in each list).
  if constexpr (wide) {
    sweep<T>(opname, op, {96}, shape<2, 256, false, 1, 4>{}, shape<3, 128, false, 1, 8>{},
             shape<3, 256, false, 1, 4>{}, shape<6, 128, false, 1, 8>{},
             shape<3, 256, false, 1, 6>{});
    sweep<T>(opname, op, {200}, shape<2, 256, false, 1, 4>{}, shape<4, 128, false, 1, 8>{},
             shape<7, 128, false, 1, 8>{}, shape<7, 256, false, 1, 4>{},
             shape<4, 256, false, 1, 4>{});
    sweep<T>(opname, op, {264}, shape<4, 128, false, 1, 8>{}, shape<5, 128, false, 1, 8>{},
             shape<5, 256, false, 1, 4>{}, shape<3, 128, false, 1, 8>{},
             shape<9, 128, false, 1, 6>{});
    sweep<T>(opname, op, {384}, shape<4, 128, false, 1, 8>{}, shape<3, 128, false, 1, 8>{},
             shape<6, 128, false, 1, 8>{}, shape<6, 256, false, 1, 4>{},
             shape<3, 256, false, 1, 4>{});
    sweep<T>(opname, op, {600}, shape<4, 128, false, 1, 8>{}, shape<5, 128, false, 1, 8>{},
             shape<5, 256, false, 1, 4>{}, shape<3, 128, false, 1, 8>{},
             shape<3, 256, false, 1, 6>{});
    sweep<T>(opname, op, {2056}, shape<4, 128, true, 1, 6>{}, warps<5, 256, 2, 3>{},
             warps<5, 128, 2, 6>{}, warps<9, 128, 1, 4>{}, warps<3, 256, 4, 4>{});
    sweep<T>(opname, op, {2560}, shape<4, 128, true, 1, 6>{}, warps<5, 256, 2, 3>{},
             warps<5, 128, 2, 6>{}, warps<10, 128, 1, 4>{});
    sweep<T>(opname, op, {3000}, shape<4, 128, true, 1, 6>{}, warps<6, 256, 2, 3>{},
             warps<6, 128, 2, 6>{}, warps<3, 256, 4, 4>{});
    sweep<T>(opname, op, {4104, 5120}, shape<4, 256, true, 1, 4>{}, warps<5, 256, 4, 3>{},
             warps<5, 128, 4, 6>{}, warps<10, 256, 2, 2>{}, shape<5, 128, true, 1, 6>{});
    sweep<T>(opname, op, {6144}, shape<4, 256, true, 1, 4>{}, warps<6, 256, 4, 3>{},
             shape<3, 256, true, 1, 4>{}, shape<6, 128, true, 1, 6>{});
  }
#elif ROW_SHAPES_ROUND == 45
  // Round 45 (forty-eighth session): the 16-bit widths round 44's rows left under 0.93 of a copy
  // on an H200 (rowfuse-bench): 72, 160, 192, 200, 448, 648, 1000, 2568, 3080 and 6152 columns,
  // on groups of three to seven packs a lane under caps of 64-128 registers, rows of two warps and
  // block rows of seven packs, beside the rows the tables take (first in each list).
  if constexpr (wide) {
    sweep<T>(opname, op, {72}, shape<3, 256, false, 1, 4>{}, shape<5, 128, false, 1, 8>{},
             shape<5, 256, false, 1, 4>{}, shape<3, 128, false, 1, 8>{});
    sweep<T>(opname, op, {160}, shape<3, 256, false, 1, 4>{}, shape<5, 128, false, 1, 8>{},
             shape<5, 256, false, 1, 4>{}, shape<2, 256, false, 1, 4>{});
    sweep<T>(opname, op, {192}, shape<2, 256, false, 1, 4>{}, shape<3, 256, false, 1, 4>{},
             shape<6, 128, false, 1, 8>{}, shape<3, 128, false, 1, 8>{});
    sweep<T>(opname, op, {200}, shape<2, 256, false, 1, 4>{}, shape<7, 128, false, 1, 5>{},
             shape<7, 128, false, 1, 4>{}, shape<4, 128, false, 1, 8>{});
    sweep<T>(opname, op, {448}, shape<4, 256, false, 1, 1>{}, shape<4, 128, false, 1, 8>{},
             shape<7, 128, false, 1, 5>{}, shape<7, 128, false, 1, 4>{});
    sweep<T>(opname, op, {648, 768}, shape<4, 128, false, 1, 6>{}, shape<3, 256, false, 1, 4>{},
             shape<6, 128, false, 1, 6>{}, shape<6, 128, false, 1, 8>{},
             shape<7, 128, false, 1, 5>{});
    sweep<T>(opname, op, {1000}, shape<4, 128, false, 1, 6>{}, warps<2, 256, 2, 4>{},
             warps<2, 128, 2, 8>{}, shape<4, 256, false, 1, 4>{}, warps<4, 128, 1, 8>{});
    sweep<T>(opname, op, {2568, 3080}, warps<3, 256, 4, 4>{}, warps<7, 128, 2, 5>{},
             warps<4, 256, 4, 4>{}, warps<6, 128, 2, 6>{}, shape<4, 128, true, 1, 6>{});
    sweep<T>(opname, op, {6152}, shape<4, 256, true, 1, 4>{}, shape<7, 128, true, 1, 5>{},
             warps<7, 128, 4, 5>{}, shape<4, 256, true, 1, 3>{});
  }
#elif ROW_SHAPES_ROUND == 46
  // Round 46 (forty-eighth session): rounds 44 and 45 in fp32 (packs of 4): the widths between the
  // powers of two to 6144 columns on rows their packs fill to 75-100 %, beside the rows the
  // tables take (first in each list).
  if constexpr (!wide) {
    sweep<T>(opname, op, {72, 96}, shape<2, 512, false>{}, shape<3, 256, false, 1, 4>{},
             shape<3, 128, false, 1, 8>{}, shape<5, 128, false, 1, 8>{});
    sweep<T>(opname, op, {160}, shape<2, 512, false>{}, shape<5, 128, false, 1, 8>{},
             shape<3, 256, false, 1, 4>{}, shape<5, 256, false, 1, 4>{});
    sweep<T>(opname, op, {200}, shape<2, 512, false>{}, shape<7, 128, false, 1, 5>{},
             shape<4, 128, false, 1, 8>{}, shape<7, 128, false, 1, 4>{});
    sweep<T>(opname, op, {264, 320}, shape<4, 256, false>{}, shape<5, 128, false, 1, 8>{},
             shape<3, 256, false, 1, 4>{}, shape<5, 256, false, 1, 4>{});
    sweep<T>(opname, op, {384}, shape<4, 256, false>{}, shape<3, 256, false, 1, 4>{},
             shape<6, 128, false, 1, 8>{}, shape<6, 128, false, 1, 6>{});
    sweep<T>(opname, op, {600, 640}, shape<2, 128, true>{}, shape<5, 128, false, 1, 8>{},
             shape<5, 256, false, 1, 4>{}, warps<5, 128, 1, 8>{});
    sweep<T>(opname, op, {2056, 2560}, shape<4, 256, true>{}, warps<5, 128, 4, 6>{},
             shape<5, 128, true, 1, 6>{}, warps<5, 256, 4, 3>{});
    sweep<T>(opname, op, {3000}, shape<4, 256, true>{}, shape<3, 256, true, 1, 4>{},
             warps<3, 256, 8, 4>{}, shape<6, 128, true, 1, 6>{});
    sweep<T>(opname, op, {4104, 5120}, shape<4, 512, true>{}, shape<5, 256, true, 1, 3>{},
             shape<5, 256, true, 1, 2>{}, warps<5, 256, 8, 3>{});
    sweep<T>(opname, op, {6144}, shape<4, 512, true>{}, shape<3, 512, true, 1, 2>{},
             shape<6, 256, true, 1, 3>{}, shape<6, 256, true, 1, 2>{});
  }
#elif ROW_SHAPES_ROUND == 47
  // Round 47 (forty-ninth session): the 16-bit ops just past 8192 and 16384 columns on an H200,
  // where rowfuse-bench runs 0.65-0.79 (8200) and 0.76-0.89 (16392) against 0.90-0.99 at the
  // powers of two: block rows of three to eight packs on blocks of 160-512 threads (a block of 160,
  // 224 or 288 threads is the launch's sized twin of 256 or 512 at 8200), clusters of two and four
  // blocks of five packs, beside the rows the tables take (first in each list: softmax's sized
  // twin; log-softmax's and rmsnorm's; layernorm's).
  if constexpr (wide) {
    sweep<T>(opname, op, {8200, 9216, 10240}, shape<8, 160, true, 1, 1>{},
             shape<4, 288, true, 1, 2>{}, shape<5, 224, true, 1, 3>{}, shape<5, 256, true, 1, 3>{},
             shape<5, 128, true, 2, 6>{}, shape<3, 384, true, 1, 2>{}, shape<6, 192, true, 1, 3>{});
    sweep<T>(opname, op, {12288}, shape<16, 128, true, 1, 1>{}, shape<6, 256, true, 1, 3>{},
             shape<3, 512, true, 1, 2>{}, shape<6, 128, true, 2, 6>{});
    sweep<T>(opname, op, {16392, 18432, 20480}, shape<5, 512, true, 1, 1>{},
             shape<5, 512, true, 1, 2>{}, shape<5, 256, true, 2, 3>{}, shape<5, 128, true, 4, 6>{},
             shape<3, 704, true, 1, 1>{});
  }
#elif ROW_SHAPES_ROUND == 48
  // Round 48 (forty-ninth session): the 16-bit ops at 64-512 columns on an H200, where QuACK runs
  // 0.96-1.00 of a copy in the same lease and rowfuse-bench 0.93-0.98 (softmax, rmsnorm) and
  // 0.78-0.91 (layernorm, whose group rows spill 8-16 bytes under their caps of 64 registers,
  // round 43): one or two packs a lane under caps of 2-16 blocks, layernorm's gamma and beta
  // held, read ahead or in shared memory, beside the tables' rows (first in each list).
  if constexpr (wide) {
    if constexpr (ROW_SHAPES_PART == 1) {
      sweep<T>(opname, op, {64, 128, 256, 512}, shape<2, 256, false, 1, 4>{},
               shape<2, 256, false, 1, 3>{}, shape<2, 128, false, 1, 6>{},
               shape<1, 256, false, 1, 4>{}, shape<1, 128, false, 1, 8>{},
               shape<1, 256, false, 1, 6>{}, with_columns<ahead>(shape<2, 256, false, 1, 4>{}),
               with_columns<shared>(shape<2, 256, false, 1, 4>{}),
               with_columns<shared>(shape<1, 256, false, 1, 8>{}), shape<4, 128, false, 1, 6>{},
               shape<4, 256, false, 1, 3>{});
    } else {
      sweep<T>(opname, op, {64, 128, 256, 512}, shape<2, 256, false, 1, 4>{},
               shape<2, 256, false, 1, 6>{}, shape<1, 256, false, 1, 8>{},
               shape<1, 128, false, 1, 16>{}, shape<1, 512, false, 1, 4>{},
               shape<2, 128, false, 1, 8>{}, shape<4, 128, false, 1, 8>{},
               shape<4, 256, false, 1, 4>{});
    }
  }
#elif ROW_SHAPES_ROUND == 49
  // Round 49 (fiftieth session): where the norms' narrow rows spend their time on an H200. At
  // 64-512 16-bit columns layernorm runs 0.78-0.89 of a copy on the shapes where rmsnorm runs
  // 0.95-0.98 (round 48); the tables' shapes with gamma and beta, gamma alone or neither
  // (ROW_SHAPES_AFFINE), timed and, built with ROW_SHAPES_PROFILE, under ncu; then gamma and beta
  // read ahead, caps of five blocks of 128 and twelve of 64; log-softmax's and softmax's rows
  // (part 10, part 0) beside them.
  if constexpr (wide)
    sweep<T>(opname, op, {64, 128, 256, 512}, shape<4, 128, false, 1, 6>{},
             shape<2, 256, false, 1, 4>{}, shape<2, 128, false, 1, 6>{},
             with_columns<ahead>(shape<4, 128, false, 1, 6>{}), shape<4, 128, false, 1, 5>{},
             shape<4, 64, false, 1, 12>{}, shape<4, 128, false, 1, 8>{},
             shape<4, 256, false, 1, 4>{});
#elif ROW_SHAPES_ROUND == 50
  // Round 50 (sixtieth session): the 16-bit cluster rows against QuACK's own shapes (8 packs of
  // 256 threads a block, a block 16384 columns, three blocks an SM), built with and without the
  // padding (ROW_SHAPES_PADS_VALUES) and exchanging once; the tables' rows beside them (softmax:
  // 8 x 128 in 8 under six at 65536, 8 x 256 in 8 staged persistent at 131072, 16 x 128 in 16
  // staged persistent at 262144; rmsnorm: 8 x 256 in 8 under two, persistent, at 131072), and
  // the rows read back from their staging slot (held), which QuACK's rmsnorm does past 8K.
  if constexpr (wide) {
    sweep<T>(opname, op, {65536}, shape<8, 128, true, 8, 6>{}, shape<8, 256, true, 4, 3>{},
             shape<8, 256, true, 4, 2>{}, with_columns<held>(shape<8, 256, true, 4, 3>{}));
    sweep<T>(opname, op, {98312, 114688, 131072}, shape<8, 256, true, 8, 1>{},
             shape<8, 256, true, 8, 2>{}, shape<8, 256, true, 8, 3>{}, shape<8, 128, true, 16, 6>{},
             with_columns<held>(shape<8, 256, true, 8, 3>{}),
             with_columns<held>(shape<8, 256, true, 8, 2>{}));
    sweep<T>(opname, op, {196616, 262144}, shape<16, 128, true, 16, 1>{},
             shape<8, 256, true, 16, 3>{}, shape<8, 256, true, 16, 2>{},
             with_columns<held>(shape<8, 256, true, 16, 3>{}));
  }
#elif ROW_SHAPES_ROUND == 51
  // Round 51 (sixty-seventh session): on an H100, where the full run put the 16-bit ops 0.02-0.08
  // under QuACK (softmax, log-softmax and rmsnorm at 262144 columns, log-softmax at 65536-131072,
  // layernorm at 64 and 32768; fp32 layernorm past 32768), QuACK's own shapes (8 packs of 256
  // threads in clusters of 2-16 under caps of two and three blocks, one cluster a row tile) beside
  // the H100 tables' rows (first in each list). Built as each table's kernels are: softmax and
  // log-softmax padded and exchanging once (ROW_SHAPES_PADS_VALUES, ROW_SHAPES_EXCHANGES_ONCE) for
  // QuACK's shapes, the norms as they are (layernorm's cluster rows exchange once by the op,
  // rmsnorm has one reduction).
  if constexpr (wide) {
    if constexpr (ROW_SHAPES_PART == 1) {
      sweep<T>(opname, op, {64}, shape<2, 128, false, 1, 6>{}, shape<1, 128, false, 1, 6>{},
               shape<1, 128, false, 1, 8>{}, shape<1, 256, false, 1, 4>{},
               shape<4, 128, false, 1, 6>{}, with_columns<ahead>(shape<1, 128, false, 1, 8>{}));
      sweep<T>(opname, op, {32768}, shape<4, 1024, true, 1, 1>{},
               with_columns<held>(shape<8, 256, true, 2, 3>{}),
               with_columns<held>(shape<8, 256, true, 2, 2>{}), shape<8, 256, true, 2, 3>{},
               with_columns<shared>(shape<8, 256, true, 2, 3>{}));
      sweep<T>(opname, op, {65536}, with_columns<held>(shape<4, 1024, true, 2, 1>{}),
               with_columns<held>(shape<8, 256, true, 4, 3>{}),
               with_columns<held>(shape<8, 256, true, 4, 2>{}));
      sweep<T>(opname, op, {131072}, with_columns<held>(shape<8, 512, true, 4, 1>{}),
               with_columns<held>(shape<8, 256, true, 8, 3>{}),
               with_columns<held>(shape<8, 256, true, 8, 2>{}));
      sweep<T>(opname, op, {262144}, with_columns<held>(shape<8, 256, true, 16, 2>{}),
               with_columns<held>(shape<8, 256, true, 16, 3>{}),
               with_columns<shared>(shape<8, 256, true, 16, 3>{}));
    } else if constexpr (ROW_SHAPES_PART == 3) {
      sweep<T>(opname, op, {131072}, shape<8, 256, true, 8, 2>{}, shape<8, 256, true, 8, 3>{},
               with_columns<held>(shape<8, 256, true, 8, 3>{}));
      sweep<T>(opname, op, {262144}, shape<8, 256, true, 16, 2>{}, shape<8, 256, true, 16, 3>{},
               with_columns<held>(shape<8, 256, true, 16, 3>{}),
               with_columns<held>(shape<8, 256, true, 16, 2>{}),
               with_columns<shared>(shape<8, 256, true, 16, 3>{}),
               with_columns<ahead>(shape<8, 256, true, 16, 3>{}));
    } else {
      sweep<T>(opname, op, {65536}, shape<8, 128, true, 8, 1>{}, shape<8, 256, true, 4, 3>{},
               shape<8, 128, true, 8, 6>{});
      sweep<T>(opname, op, {131072}, shape<8, 128, true, 16, 1>{}, shape<4, 1024, true, 4, 1>{},
               shape<8, 256, true, 8, 3>{}, shape<8, 256, true, 8, 2>{});
      sweep<T>(opname, op, {262144}, shape<8, 512, true, 8, 1>{}, shape<8, 256, true, 16, 1>{},
               shape<8, 256, true, 16, 3>{}, shape<8, 256, true, 16, 2>{},
               shape<16, 128, true, 16, 1>{});
    }
  } else if constexpr (ROW_SHAPES_PART == 4) {
    // fp32 layernorm, 0.96 / 0.92 / 0.86 at 65536 / 131072 / 262144 in the full run: the tables'
    // rows with gamma and beta read ahead, in shared memory or held, and on twice the packs.
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8, 2>{},
             with_columns<shared>(shape<8, 256, true, 8, 2>{}),
             with_columns<ahead>(shape<8, 256, true, 8, 2>{}),
             with_columns<ahead>(shape<8, 512, true, 4, 2>{}));
    sweep<T>(opname, op, {131072}, with_columns<ahead>(shape<8, 512, true, 8, 2>{}),
             with_columns<shared>(shape<8, 512, true, 8, 2>{}),
             with_columns<held>(shape<8, 512, true, 8, 2>{}),
             with_columns<shared>(shape<8, 256, true, 16, 2>{}),
             with_columns<ahead>(shape<8, 256, true, 16, 2>{}));
    sweep<T>(opname, op, {262144}, with_columns<ahead>(shape<8, 512, true, 16, 2>{}),
             with_columns<shared>(shape<8, 512, true, 16, 2>{}),
             with_columns<held>(shape<8, 512, true, 16, 2>{}),
             with_columns<shared>(shape<16, 256, true, 16, 1>{}),
             with_columns<held>(shape<16, 256, true, 16, 1>{}));
  }
#elif ROW_SHAPES_ROUND == 52
  // Round 52 (seventy-first session): on an H100, the 16-bit widths round 51's block did not take
  // (log-softmax 131080-196608 at 0.83-0.89 on the H100's staged persistent rows, V57's 5 x 256 and
  // 6 x 256 in 16 under three losing at 131080 and off the grid; rmsnorm 114688-262144 at
  // 0.93-0.94 where QuACK ran 0.99 at 262144): each table's row first, then fewer values a thread
  // on more threads or blocks, and more packs on fewer. Log-softmax built padded and exchanging
  // once, rmsnorm as its table builds it.
  if constexpr (wide) {
    if constexpr (ROW_SHAPES_PART == 3) {
      sweep<T>(opname, op, {114688}, shape<8, 256, true, 8, 2>{}, shape<7, 256, true, 8, 2>{},
               shape<7, 512, true, 4, 1>{}, shape<4, 512, true, 8, 2>{},
               with_columns<held>(shape<7, 256, true, 8, 2>{}));
      sweep<T>(opname, op, {196608}, shape<6, 256, true, 16, 3>{}, shape<6, 256, true, 16, 2>{},
               shape<3, 512, true, 16, 2>{}, shape<6, 512, true, 8, 1>{},
               with_columns<held>(shape<6, 256, true, 16, 2>{}));
      sweep<T>(opname, op, {262144}, shape<8, 256, true, 16, 2>{}, shape<4, 512, true, 16, 2>{},
               shape<8, 512, true, 8, 1>{}, shape<4, 1024, true, 8, 1>{},
               shape<16, 128, true, 16, 4>{}, with_columns<held>(shape<4, 512, true, 16, 2>{}));
    } else {
      sweep<T>(opname, op, {131080, 147456, 163840}, shape<5, 512, true, 8, 2>{},
               shape<5, 256, true, 16, 3>{}, shape<10, 128, true, 16, 4>{},
               shape<10, 128, true, 16, 3>{}, shape<5, 512, true, 8, 1>{},
               shape<10, 256, true, 8, 2>{}, shape<5, 1024, true, 4, 1>{});
      sweep<T>(opname, op, {163848, 180224, 196608}, shape<6, 256, true, 16, 3>{},
               shape<6, 256, true, 16, 2>{}, shape<6, 512, true, 8, 2>{},
               shape<6, 512, true, 8, 1>{}, shape<12, 128, true, 16, 4>{},
               shape<3, 1024, true, 8, 1>{}, shape<6, 1024, true, 4, 1>{});
    }
  }
#elif ROW_SHAPES_ROUND == 53
  // Round 53 (seventy-first session): on an H100, round 52's forms (one cluster a row tile, read
  // straight, under caps; twelve packs of 128 threads) at the 16-bit softmax and log-softmax widths
  // still under 0.97: softmax 81928 and 131080-196608, log-softmax 24576, 81928 and 262144. Each
  // table's row first. Built padded and exchanging once, as those tables' cluster rows are.
  if constexpr (wide) {
    sweep<T>(opname, op, {81928, 90112, 98304}, shape<6, 128, true, 16, 1>{},
             shape<6, 256, true, 8, 3>{}, shape<12, 128, true, 8, 4>{}, shape<3, 512, true, 8, 2>{});
    if constexpr (ROW_SHAPES_PART == 10) {
      sweep<T>(opname, op, {20488, 24576}, shape<6, 512, true, 1, 2>{}, shape<6, 256, true, 2, 3>{},
               shape<12, 128, true, 2, 4>{}, shape<3, 1024, true, 1, 1>{});
      sweep<T>(opname, op, {229376, 262144}, shape<8, 256, true, 16, 3>{},
               shape<4, 512, true, 16, 2>{}, shape<8, 512, true, 8, 2>{},
               shape<4, 1024, true, 8, 1>{});
    } else {
      sweep<T>(opname, op, {131080, 147456, 163840}, shape<5, 256, true, 16, 1>{},
               shape<5, 512, true, 8, 2>{}, shape<10, 128, true, 16, 4>{},
               shape<10, 256, true, 8, 2>{}, shape<5, 256, true, 16, 3>{});
      sweep<T>(opname, op, {163848, 180224, 196608}, shape<6, 256, true, 16, 3>{},
               shape<12, 128, true, 16, 4>{}, shape<6, 512, true, 8, 2>{});
    }
  }
#elif ROW_SHAPES_ROUND == 54
  // Round 54 (seventy-first session): on an H100, rmsnorm 16-bit where it stays under 0.97: the
  // widths just past 98304 and 196608 (V63's 7 x 256 in 8 and 4 x 512 in 16 persistent first) and
  // at 24576 / 24584 (the 32768-column row's 4 x 1024 first), on shapes one cluster a row tile.
  if constexpr (wide) {
    sweep<T>(opname, op, {98312, 106496}, shape<7, 256, true, 8, 2>{}, shape<4, 512, true, 8, 2>{},
             shape<7, 512, true, 4, 1>{}, shape<14, 128, true, 8, 4>{});
    sweep<T>(opname, op, {196616, 229376}, shape<4, 512, true, 16, 2>{},
             shape<7, 256, true, 16, 2>{}, shape<14, 128, true, 16, 4>{},
             shape<7, 512, true, 8, 1>{});
    sweep<T>(opname, op, {24576, 24584}, shape<4, 1024, true, 1, 1>{}, shape<6, 512, true, 1, 2>{},
             shape<6, 256, true, 2, 3>{}, shape<12, 128, true, 2, 4>{}, shape<7, 512, true, 1, 2>{});
  }
#elif ROW_SHAPES_ROUND == 55
  // Round 55 (seventy-first session): on an H100, layernorm 16-bit just past the rows whose widths
  // it fills in part (20488, 81928 and 163848 at 0.83-0.89 in rowfuse-bench) and at those rows'
  // next widths, gamma and beta held (the row read back from its staging slot: staged shapes
  // only); the shape of the row that takes each width first.
  if constexpr (wide && ROW_SHAPES_PART == 1) {
    sweep<T>(opname, op, {20488, 24576}, with_columns<held>(shape<6, 256, true, 2, 2>{}),
             with_columns<held>(shape<6, 512, true, 1, 1>{}),
             with_columns<held>(shape<3, 1024, true, 1, 1>{}),
             with_columns<held>(shape<6, 128, true, 4, 4>{}));
    sweep<T>(opname, op, {81928, 98304}, with_columns<held>(shape<8, 512, true, 4, 1>{}),
             with_columns<held>(shape<6, 256, true, 8, 2>{}),
             with_columns<held>(shape<6, 512, true, 4, 1>{}),
             with_columns<held>(shape<3, 1024, true, 4, 1>{}),
             with_columns<held>(shape<6, 128, true, 16, 4>{}));
    sweep<T>(opname, op, {163848, 196608}, with_columns<held>(shape<6, 512, true, 8, 1>{}),
             with_columns<held>(shape<6, 256, true, 16, 2>{}),
             with_columns<held>(shape<3, 1024, true, 8, 1>{}));
  }
#elif ROW_SHAPES_ROUND == 10
  // Round 10: where log-softmax trails softmax on softmax's rows (16-bit 2048 and 16384-262144,
  // fp32 262144: ptxas gives log-softmax 76 registers on the 8 x 512 cluster row, one block an
  // SM, where softmax fits 63), and layernorm 16-bit past 32768 columns (block_cluster today):
  // clusters of blocks holding 32 or 64 values a thread under caps that buy blocks.
  if constexpr (wide) {
    sweep<T>(opname, op, {2048}, shape<8, 128, false, 1, 1>{}, shape<8, 128, false, 1, 2>{},
             shape<4, 128, false, 1, 4>{}, shape<2, 128, true, 1, 6>{});
    sweep<T>(opname, op, {16384}, shape<8, 256, true>{}, shape<8, 256, true, 1, 2>{},
             shape<4, 512, true>{}, shape<4, 512, true, 1, 2>{}, shape<8, 128, true, 2, 4>{},
             shape<4, 256, true, 2, 3>{});
    sweep<T>(opname, op, {32768}, shape<4, 256, true, 4>{}, shape<4, 256, true, 4, 3>{},
             shape<8, 128, true, 4, 4>{}, shape<8, 256, true, 2, 2>{}, shape<4, 512, true, 2, 2>{});
    sweep<T>(opname, op, {65536}, shape<8, 128, true, 8>{}, shape<8, 128, true, 8, 4>{},
             shape<4, 256, true, 8, 2>{}, shape<4, 256, true, 8, 3>{}, shape<8, 256, true, 4, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 128, true, 16>{}, shape<8, 128, true, 16, 4>{},
             shape<4, 256, true, 16, 2>{}, shape<4, 256, true, 16, 3>{},
             shape<8, 256, true, 8, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 256, true, 16>{}, shape<8, 256, true, 16, 2>{},
             shape<4, 512, true, 16>{}, shape<4, 512, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16>{}, shape<8, 256, true, 16, 2>{},
             shape<4, 512, true, 16, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16>{}, shape<8, 512, true, 16, 2>{});
  }
#else
  sweep<T>(opname, op, {32, 64, 128, 256, 512, 1024}, shape<1, 256, false>{},
           shape<1, 512, false>{}, shape<2, 256, false>{}, shape<2, 512, false>{},
           shape<4, 256, false>{}, shape<1, 512, false, 1, 4>{}, shape<2, 256, false, 1, 8>{});
  if constexpr (wide) {
    sweep<T>(opname, op, {32768}, shape<4, 256, true, 4>{}, shape<4, 256, true, 4, 3>{},
             shape<4, 512, true, 2, 2>{}, shape<8, 256, true, 2>{});
    sweep<T>(opname, op, {65536}, shape<4, 256, true, 8>{}, shape<4, 256, true, 8, 3>{},
             shape<4, 512, true, 4, 2>{}, shape<8, 256, true, 4>{});
    sweep<T>(opname, op, {131072}, shape<4, 256, true, 16>{}, shape<4, 256, true, 16, 3>{},
             shape<4, 512, true, 8, 2>{}, shape<8, 256, true, 8>{});
    sweep<T>(opname, op, {262144}, shape<4, 512, true, 16, 2>{}, shape<8, 256, true, 16>{},
             shape<8, 256, true, 16, 2>{});
  } else {
    sweep<T>(opname, op, {32768}, shape<8, 256, true, 4>{}, shape<4, 256, true, 8, 3>{},
             shape<8, 512, true, 2, 2>{});
    sweep<T>(opname, op, {65536}, shape<8, 256, true, 8>{}, shape<4, 256, true, 16, 3>{},
             shape<8, 512, true, 4, 2>{});
    sweep<T>(opname, op, {131072}, shape<8, 256, true, 16>{}, shape<8, 512, true, 8, 2>{});
    sweep<T>(opname, op, {262144}, shape<8, 512, true, 16, 2>{});
  }
#endif
}

/// Layernorm over inputs, gamma and beta of T: x uniform in [-4, 4), gamma in [0.5, 1.5), beta in
/// [-0.5, 0.5). The affine is bound per width (it checks cols); rebinding inside the sweep is not
/// needed for timing, so it is bound to the widest row once.
/// ROW_SHAPES_AFFINE 1 leaves beta out, 2 gamma too (the operands' share of the time).
template <class T> void layernorm_shapes(char const* opname) {
  fill<<<1024, 256>>>(static_cast<T*>(x), elems, -4.0f, 4.0f);
  fill<<<256, 256>>>(static_cast<T*>(gamma_data), 262144, 0.5f, 1.5f);
  fill<<<256, 256>>>(static_cast<T*>(beta_data), 262144, -0.5f, 0.5f);
  auto const affine = [] {
    if constexpr (ROW_SHAPES_AFFINE == 2)
      return rf::no_affine_t{};
    else if constexpr (ROW_SHAPES_AFFINE == 1)
      return rf::affine(static_cast<T const*>(gamma_data)).bind("rf::layernorm", 262144);
    else
      return rf::affine(static_cast<T const*>(gamma_data), static_cast<T const*>(beta_data))
          .bind("rf::layernorm", 262144);
  }();
  all_shapes<T>(opname, same_op{rf::op::layernorm<decltype(affine)>{affine, 1e-5f, {}}});
}

} // namespace

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  cudaMalloc(&flush, 256u << 20);
  cudaMalloc(&x, buffer_bytes);
  cudaMalloc(&y, buffer_bytes);
  cudaMalloc(&gamma_data, 262144 * 4);
  cudaMalloc(&beta_data, 262144 * 4);
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
#if ROW_SHAPES_PART == 0
  fill<<<1024, 256>>>(static_cast<__half*>(x), elems, -4.0f, 4.0f);
  all_shapes<__half>("softmax", same_op{rf::op::softmax<false, false>{}});
#elif ROW_SHAPES_PART == 1
  layernorm_shapes<__half>("layernorm");
#elif ROW_SHAPES_PART == 2
  fill<<<1024, 256>>>(static_cast<float*>(x), elems, -4.0f, 4.0f);
  all_shapes<float>("softmax", same_op{rf::op::softmax<false, true>{}});
#elif ROW_SHAPES_PART == 3
  fill<<<1024, 256>>>(static_cast<__half*>(x), elems, -4.0f, 4.0f);
  fill<<<256, 256>>>(static_cast<__half*>(gamma_data), 262144, 0.5f, 1.5f);
  auto const affine = [] {
    if constexpr (ROW_SHAPES_AFFINE == 2)
      return rf::no_affine_t{};
    else
      return rf::affine(static_cast<__half const*>(gamma_data)).bind("rf::rmsnorm", 262144);
  }();
  all_shapes<__half>("rmsnorm", same_op{rf::op::rmsnorm<decltype(affine)>{affine, 1e-6f, nullptr}});
#elif ROW_SHAPES_PART == 14
  fill<<<1024, 256>>>(static_cast<__nv_bfloat16*>(x), elems, -4.0f, 4.0f);
  fill<<<256, 256>>>(static_cast<__nv_bfloat16*>(gamma_data), 262144, 0.5f, 1.5f);
  auto const affine =
      rf::affine(static_cast<__nv_bfloat16 const*>(gamma_data)).bind("rf::rmsnorm", 262144);
  all_shapes<__nv_bfloat16>("rmsnorm_bf16",
                            same_op{rf::op::rmsnorm<decltype(affine)>{affine, 1e-6f, nullptr}});
#elif ROW_SHAPES_PART == 16
  layernorm_shapes<__nv_bfloat16>("layernorm_bf16");
#elif ROW_SHAPES_PART == 10
  fill<<<1024, 256>>>(static_cast<__half*>(x), elems, -4.0f, 4.0f);
  all_shapes<__half>("log_softmax", same_op{rf::op::softmax<true, false>{}});
#elif ROW_SHAPES_PART == 15
  fill<<<1024, 256>>>(static_cast<float*>(x), elems, -4.0f, 4.0f);
  all_shapes<float>("log_softmax", same_op{rf::op::softmax<true, true>{}});
#elif ROW_SHAPES_PART == 4
  layernorm_shapes<float>("layernorm");
#elif ROW_SHAPES_PART == 5
  fill<<<1024, 256>>>(static_cast<float*>(x), elems, -4.0f, 4.0f);
  fill<<<256, 256>>>(static_cast<float*>(gamma_data), 262144, 0.5f, 1.5f);
  auto const affine = rf::affine(static_cast<float const*>(gamma_data)).bind("rf::rmsnorm", 262144);
  all_shapes<float>("rmsnorm", same_op{rf::op::rmsnorm<decltype(affine)>{affine, 1e-6f, nullptr}});
#elif ROW_SHAPES_PART >= 11 && ROW_SHAPES_PART <= 13
  // The norms' backward: x uniform in [-4, 4), dy in [-1, 1), the forward's statistics of a row
  // of such x (mean near 0, rstd near 1 / sqrt(16 / 3)), gamma and beta as the forward parts'.
  constexpr bool centered = ROW_SHAPES_PART != 12;
  using T = std::conditional_t<ROW_SHAPES_PART == 13, float, __half>;
  cudaMalloc(&dy, elems * 4);
  cudaMalloc(&mean_data, (elems / 256) * sizeof(float));
  cudaMalloc(&rstd_data, (elems / 256) * sizeof(float));
  cudaMalloc(&partials, (elems / 16) * 2 * sizeof(float));
  cudaMalloc(&scratch, (elems / 16) * sizeof(float));
  cudaMalloc(&dgamma, 262144 * sizeof(float));
  cudaMalloc(&dbeta, 262144 * sizeof(float));
  fill<<<1024, 256>>>(static_cast<T*>(x), elems, -4.0f, 4.0f);
  fill<<<1024, 256>>>(static_cast<T*>(dy), elems, -1.0f, 1.0f);
  fill<<<256, 256>>>(mean_data, elems / 256, -0.05f, 0.05f);
  fill<<<256, 256>>>(rstd_data, elems / 256, 0.42f, 0.45f);
  fill<<<256, 256>>>(static_cast<T*>(gamma_data), 262144, 0.5f, 1.5f);
  fill<<<256, 256>>>(static_cast<T*>(beta_data), 262144, -0.5f, 0.5f);
  // Partials of about 2^19, 2^20 and 2^21 floats a gradient; rounds 27 and 29: the library's rule;
  // round 28: the library's rule and partials of 2^21 and 2^22 floats.
  for (int target_log2 : ROW_SHAPES_ROUND == 27 || ROW_SHAPES_ROUND == 29 ? std::vector<int>{0}
                         : ROW_SHAPES_ROUND == 28 ? std::vector<int>{0, 21, 22}
                                                  : std::vector<int>{19, 20, 21}) {
    char name[32];
    std::snprintf(name, sizeof name, "%s_e%d", centered ? "lnb" : "rmsb", target_log2);
    all_shapes<T>(name, norm_backward_maker<T, centered>{target_log2});
  }
#else
  // The backward ops: y a forward's output (softmax: probabilities in (0, 1e-3), never 0, which
  // would read as masked; log-softmax: log-probabilities in [-12, -4)), dy in [-1, 1).
  cudaMalloc(&dy, elems * 4);
  constexpr bool log = ROW_SHAPES_PART >= 8;
  constexpr bool fp32 = ROW_SHAPES_PART % 2 == 1;
  using T = std::conditional_t<fp32, float, __half>;
  fill<<<1024, 256>>>(static_cast<T*>(x), elems, log ? -12.0f : 1e-5f, log ? -4.0f : 1e-3f);
  fill<<<1024, 256>>>(static_cast<T*>(dy), elems, -1.0f, 1.0f);
  all_shapes<T>(log ? "log_softmax_backward" : "softmax_backward",
                softmax_backward_maker<T, log>{});
#endif
  cudaDeviceSynchronize();
  return 0;
}
