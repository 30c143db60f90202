// What every engine does the same way: reducing an op's partial statistics across the threads
// that share a row, and the per-thread state that outlives the row loop.
#pragma once

#include <concepts>
#include <utility>

#include <cub/block/block_reduce.cuh>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../expr/node.hpp"

namespace rowfuse::engine {

/// CUB's reduction operator for an op's partials.
template <class Op> struct merge_partials {
  Op const& op;
  __device__ typename Op::partial operator()(typename Op::partial const& a,
                                             typename Op::partial const& b) const {
    return op.merge(a, b);
  }
};

/// Merges `value` across `group` consecutive lanes (a power of two up to 32) with `merge`, by
/// butterfly shuffles: every lane ends with the group's total. All 32 lanes must call it.
template <class T, class Merge> __device__ T allreduce_in_group(T value, int group, Merge merge) {
  for (int lane_mask = group / 2; lane_mask > 0; lane_mask /= 2)
    value = merge(value, detail::shfl_xor(value, lane_mask));
  return value;
}

/// The warps' totals block_allreduce posts, in two buffers (see below).
template <class T, int BlockThreads> struct posted_warp_totals { T posted[2][BlockThreads / 32]; };

/// Merges `value` across each run of `RowWarps` consecutive warps of a block (the block's rows
/// of that many warps; by default the whole block) with `merge` and gives every thread its run's
/// total, with one barrier for the block: each warp reduces by shuffles, its lane 0 posts the
/// warp's total, and after the barrier every thread folds its run's posted totals in warp order
/// (so all get bit-identical results). The posts alternate between two buffers (`buffer`,
/// flipped by the caller on each call with the same storage): a fast warp's next post cannot
/// overwrite a total a slow warp has yet to read, because both are separated by the barrier of
/// the call in between. One barrier a call, where a CUB BlockReduce followed by a broadcast
/// takes three: the two-phase ops reduce twice a row. A block of fewer warps than BlockThreads /
/// 32 (a launch that sizes it: register_config::sized_at_launch) posts the identity for its
/// absent warps once (post_absent), so that the fold stays one over every warp, unrolled and
/// unguarded.
template <class T, int BlockThreads, int RowWarps = BlockThreads / 32> struct block_allreduce {
  static constexpr int warps = BlockThreads / 32;
  static_assert(warps % RowWarps == 0, "a block holds whole runs of warps");
  /// The same for every RowWarps: a block's rows of any width share one storage.
  using TempStorage = posted_warp_totals<T, BlockThreads>;

  TempStorage& storage;
  int buffer;

  /// Posts `identity` (merge(x, identity) == x) in both buffers for the warps at and past the
  /// block's `block_warps`, which never post; before the first call, whose barrier orders it
  /// before any fold. Folding those after the present warps' totals gives their total (the ops'
  /// merges are exact with their identity). A fold guarded by the block's warps instead gave the
  /// sized twin of log-softmax's 8192-column row 117 registers where this gives 78 (ptxas -v,
  /// bench/NOTES.md, twenty-eighth session).
  static __device__ void post_absent(TempStorage& storage, T const& identity, int block_warps) {
    for (int w = block_warps + int(threadIdx.x); w < warps; w += int(blockDim.x))
      storage.posted[0][w] = storage.posted[1][w] = identity;
  }

  template <class Merge> __device__ T operator()(T value, Merge merge) {
    value = allreduce_in_group(value, 32, merge);
    if ((threadIdx.x & 31) == 0)
      storage.posted[buffer][threadIdx.x / 32] = value;
    __syncthreads();
    unsigned const first = RowWarps == warps ? 0u : threadIdx.x / 32 / RowWarps * RowWarps;
    T total = storage.posted[buffer][first];
    ROWFUSE_UNROLL
    for (int w = 1; w < RowWarps; ++w)
      total = merge(total, storage.posted[buffer][first + w]);
    return total;
  }
};

/// The register engines' fast protocol: an op whose row statistics are two plain reductions,
/// the second over values that know the first's total (softmax: the max, then the sum of
/// exp(x - max); layernorm: the sum, then the sums of x - mean and its square). Cheaper than
/// merging a compound partial at every shuffle. Engines that stream the row keep `local`/`merge`.
/// v holds a thread's values, n of them real and +0 past them (the packs it does not hold;
/// padded_phases_op below: Op::padding):
///   phase1(v, n) -> A;  merge1(A, A) -> A;  phase2(v, n, A total, cols) -> B (may rewrite v);
///   merge2(B, B) -> B;  finalize2(A total, B total, cols) -> stats;  finish2<N>(x, stats, row,
///   col0), or with the op's per-column operands after col0 where it reads them (read_columns),
///   which the engine passes where it calls finish2 (the one member not checked here).
template <class Op>
concept two_phase_op = requires(Op const& op, float (&v)[1]) {
  op.phase1(v, 1);
  op.merge1(op.phase1(v, 1), op.phase1(v, 1));
  op.phase2(v, 1, op.phase1(v, 1), index_t(1));
  op.merge2(op.phase2(v, 1, op.phase1(v, 1), index_t(1)),
            op.phase2(v, 1, op.phase1(v, 1), index_t(1)));
  op.finalize2(op.phase1(v, 1), op.phase2(v, 1, op.phase1(v, 1), index_t(1)), index_t(1));
};

/// A two_phase_op with a value that its phases take as no value at all, whatever n says
/// (softmax: -inf, which leaves the max and adds a term of +0): an engine may hold it in the
/// places past a thread's real values instead of +0 and run phase1 and phase2 over every place,
/// n = the places (the loops without a compare an element, and without a second, guarded copy).
/// `Op::padding` is that value.
template <class Op>
concept padded_phases_op = two_phase_op<Op> && requires {
  { Op::padding } -> std::convertible_to<float>;
};

/// A two_phase_op whose phase-2 sums, taken by each part of a row (a warp) about that part's own
/// phase-1 total, can be moved to the row's total afterwards (softmax: the max, and the sum of
/// exp(x - max) about it, rescaled by exp(own max - row max)), so that an engine whose reductions
/// are costly rounds (a cluster's exchange) reduces phase 1 over each part alone and then both
/// phases' part totals in one round:
///   part_phase2(v, n, A part total) -> B, phase 2 about the part's total (may rewrite v);
///   sums_about(A part total, B part sums, A row total) -> B;  merge2 of the moved sums;
///   finalize_shifted(A row total, B row sums, A part total, cols) -> the part's stats;
///   finish_shifted<N>(x, stats, row, col0) finishes phase 2's v of the part.
template <class Op>
concept shifted_sums_op = two_phase_op<Op> && requires(Op const& op, float (&v)[1]) {
  op.merge2(op.sums_about(op.phase1(v, 1), op.part_phase2(v, 1, op.phase1(v, 1)), op.phase1(v, 1)),
            op.part_phase2(v, 1, op.phase1(v, 1)));
  op.finalize_shifted(op.phase1(v, 1), op.part_phase2(v, 1, op.phase1(v, 1)), op.phase1(v, 1),
                      index_t(1));
};

/// A two_phase_op whose statistics also come from one pass about a centre c that every thread
/// of the row knows before the pass (taken from the row's first pack of N values), with a second
/// pass where that one cannot be trusted:
///   centre_of<N>(first pack's values) -> c;  deviations_about(v, n, c) -> B (rewrites v into
///   v - c), or over packs read one by one add_deviations(running, pack, c) into a
///   running_deviations and total_deviations(running) -> B;  centre_suffices(B total, cols) ->
///   bool, the same on every thread;  if not, centre_shift(B total, cols) -> s and deviations
///   about c + s;  finalize_about(c, B total, cols) -> stats;  recentre(x, c);
///   finish_centred<N>(x - c, stats, row, col0, columns)
template <class Op>
concept centred_op = two_phase_op<Op> && requires(Op const& op, float (&v)[1], float (&pack)[4],
                                                  typename Op::running_deviations& running) {
  Op::centre_of(pack);
  Op::add_deviations(running, pack, 0.0f);
  op.merge2(Op::total_deviations(running), op.deviations_about(v, 1, 0.0f));
  op.centre_suffices(op.deviations_about(v, 1, 0.0f), index_t(1));
  op.centre_shift(op.deviations_about(v, 1, 0.0f), index_t(1));
  op.finalize_about(0.0f, op.deviations_about(v, 1, 0.0f), index_t(1));
  Op::recentre(v, 0.0f);
};

/// Ops that read a second per-element stream besides their input (the backward ops: the incoming
/// gradient dy). `Op::gradient_type` is its load expression and `op.gradient` the bound one. Every
/// engine reads the gradient's packs, and its chain's operand packs, with the input's, before any
/// arithmetic; runs its chain (its own draws: a dropout replayed on dy); and hands the op both
/// value arrays, x (the input's) and g (the gradient's), through the one-phase protocol:
///   read_row(row) -> values       the op's per-row operands (the norms' backward: the forward's
///                                saved mean and rstd; detail::no_state where it has none);
///   stage_row(row, values* to)    optional: starts copying them to shared memory by cp.async,
///                                for an engine that stages them with the row's packs;
///   prepare<N>(x, g, values, row, col0[, columns], emit)  once per pack after both chains, with
///                                read_row(row); may rewrite both. `emit` is false on a pass whose
///                                values are loaded again later (block_uncached's statistics
///                                pass): per-element side effects happen where it is true, once
///                                per element;
///   local(x, g, n) -> partial;  merge;  finalize(partial, cols) -> stats;
///   finish<N>(x, g, stats, row, col0)  x becomes the output.
/// `columns` (the register engines, for an op with read_columns) are read_columns<N>(col0).
/// Engines that cache the row (block_smem, block_cluster) cache x and g after prepare, each in its
/// own fp32 cache.
template <class Op>
concept gradient_op = requires {
  typename Op::gradient_type;
};

/// A gradient_op's per-row operands, as read_row gives them.
template <class Op> using row_values_t = decltype(std::declval<Op const&>().read_row(index_t(0)));

/// A gradient_op's values at (row, col0) for the engines that load pack by pack: the input's and
/// the gradient's packs and every operand of both chains are loaded before either chain runs;
/// then both chains, then op.prepare (with context.emit).
template <int N, class Op, class Load>
__device__ void load_pair(Op const& op, Load const& load, index_t row, index_t col0, float (&x)[N],
                          float (&g)[N], load_context& context) {
  typename Load::element_type raw[N];
  load.template read_input<N>(row, col0, raw);
  auto const reads = load.template read<N>(row, col0);
  typename Op::gradient_type::element_type gradient_raw[N];
  op.gradient.template read_input<N>(row, col0, gradient_raw);
  auto const gradient_reads = op.gradient.template read<N>(row, col0);
  load.template transform<N>(raw, row, col0, x, context, reads,
                             load.template draw<N>(row, col0, context.cols));
  op.gradient.template transform<N>(gradient_raw, row, col0, g, context, gradient_reads,
                                    op.gradient.template draw<N>(row, col0, context.cols));
  op.template prepare<N>(x, g, op.read_row(row), row, col0, context.emit);
}

/// Ops that accumulate across rows in an order fixed by the row index alone (the norm backward's
/// dgamma and dbeta): `op.chunk_log2()` > 0 asks every engine to visit the rows in chunks of
/// 2^chunk_log2 consecutive rows, each chunk by one row processor (a lane group, a block or a
/// cluster) in increasing row order, and every element (row, c) of a chunk by the same thread,
/// or, on phased rows (register_kernel), by threads of the processor that all pass a barrier of
/// it (release and acquire) between one row and the next. The op then sums its per-column terms
/// in row order, whatever the engine (op/norm_backward.cuh).
template <class Op>
concept ordered_rows_op = requires(Op const& op) {
  op.chunk_log2();
};

/// An ordered_rows_op whose per-chunk sums a thread may hold in registers across the rows of its
/// chunk instead of reading and writing them in global memory at every row:
///   typename Op::chunk_sums<N>   one pack's running sums, `clear()` for a chunk's first row:
///                                `count` a column, sum k of column j `value(k, j)` (a float&), so
///                                that an engine may keep them elsewhere (in shared memory)
///                                between rows;
///   prepare<N>(x, g, row, columns, sums)   prepare with emit, the terms added to sums;
///   ends_chunk(row, rows)         whether row is the last its chunk sums;
///   flush<N>(sums, row, col0)     writes the sums of row's chunk and clears them;
///   prepare<N, true>, flush<N, true>   the same bits with sums the chunk's first row sets and
///                                flush leaves (register_config::sums_from_first_row).
/// An engine that holds them calls prepare for every row of a chunk in row order, the chunk's
/// first row with cleared sums (by `clear()`, or flush) and every other with each column's sums as
/// the row before left them (kept by the same thread, or in shared memory), and flush once a
/// column, at the row that ends the chunk.
template <class Op, int N>
concept chunk_accumulating_op = ordered_rows_op<Op> && requires {
  typename Op::template chunk_sums<N>;
};

/// Where row processor `processor` of `processors` goes at its step k, for an ordered_rows_op:
/// chunk processor + (k / R) * processors, its row k % R, R = 2^log2. A processor's rows increase
/// with k, so an engine whose processor shares one row (a block, a cluster) stops at the first
/// row past the last; one whose processors are lane groups of a block runs steps(rows) steps in
/// every group, keeping shuffles and barriers uniform (a row past the last: nothing to do).
struct chunk_walk {
  index_t processor;
  index_t processors;
  int log2;

  __device__ index_t row(index_t k) const {
    return ((processor + (k >> log2) * processors) << log2) + (k & ((index_t(1) << log2) - 1));
  }
  /// row(k + 1) from row(k): the next row of the chunk, or past its last the first row of the
  /// processor's next chunk (an add and a select, where row(k) takes a shift, a multiply and a
  /// mask).
  __device__ index_t next(index_t row) const {
    index_t const last_of_chunk = (index_t(1) << log2) - 1;
    return (row & last_of_chunk) != last_of_chunk ? row + 1 : row + 1 + ((processors - 1) << log2);
  }
  __device__ index_t steps(index_t rows) const {
    index_t const chunks = (rows + (index_t(1) << log2) - 1) >> log2;
    return ((chunks + processors - 1) / processors) << log2;
  }
};

/// Rows (2^chunk_log2) a row processor takes as one unit: 1 for the ops that do not order rows.
template <class Op> __host__ __device__ index_t rows_per_unit(Op const& op) {
  if constexpr (ordered_rows_op<Op>)
    return index_t(1) << op.chunk_log2();
  else
    return 1;
}

/// Merges the partials of a whole block (CUB BlockReduce) and gives every thread the total.
template <class Op, int BlockThreads> struct block_reducer {
  using partial = typename Op::partial;
  using block_reduce = cub::BlockReduce<partial, BlockThreads>;
  struct TempStorage {
    typename block_reduce::TempStorage reduce;
    partial total;
  };

  TempStorage& storage;

  /// Also a barrier: after it returns, every thread may reuse what the block shared before.
  __device__ partial operator()(Op const& op, partial part) {
    partial const total = block_reduce(storage.reduce).Reduce(part, merge_partials<Op>{op});
    if (threadIdx.x == 0)
      storage.total = total;
    __syncthreads();
    partial const result = storage.total;
    __syncthreads(); // the next row's Reduce may overwrite storage only after all have read
    return result;
  }
};

/// rf::cast's amax: each thread's running max |y| leaves the block as one atomic update of the
/// global amax, because grids of one block a row tile run tens of thousands of blocks and
/// updates of one address serialise in L2. `scratch` is 4 bytes of the block's shared memory
/// that nothing uses any more (an engine's reduction storage after its last row), because a
/// __shared__ variable of this function moves the dynamic shared memory, the staging slots, and
/// staged kernels ran slower so, with or without a cast (bench/NOTES.md, seventeenth session).
/// Every thread of the block must call it (it shuffles and waits at barriers), at the end of the
/// kernel.
template <class StoreExpr>
__device__ void flush_amax(StoreExpr const& store, store_context<float> const& context,
                           void* scratch) {
  if constexpr (StoreExpr::has_cast) {
    float* amax = store.amax_output();
    if (amax == nullptr)
      return;
    int& block_max = *static_cast<int*>(scratch); // the bits of the block's max |y|
    float m = context.amax;
    for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, lane_mask));
    __syncthreads(); // every thread is done with what the scratch held
    if (threadIdx.x == 0)
      block_max = 0;
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
      atomicMax(&block_max, __float_as_int(m)); // non-negative floats order as their bits
    __syncthreads();
    if (threadIdx.x == 0)
      detail::atomic_max_nonnegative(amax, __int_as_float(block_max));
  }
}

} // namespace rowfuse::engine
