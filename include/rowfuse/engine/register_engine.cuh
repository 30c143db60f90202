// The register engine: a row lives in the registers of the threads that share it, is read once,
// reduced, and written once. One kernel template covers every width up to 2^19 columns through
// three numbers:
//
//  - threads per row: a group of 1-32 lanes (a run-time power of two; several rows a warp), a
//    compile-time number of whole warps (several rows a block), or the whole block;
//  - packs per thread: how many N-element pieces of the row each thread holds;
//  - blocks per row: 1, or a thread-block cluster of 2-16 blocks (sm_90+), each holding a slice
//    of the row in its registers; the blocks exchange their partial statistics once per
//    reduction through distributed shared memory (no global memory, no atomics), or once a row
//    for both of softmax's (exchanges_once).
//
// A whole-block row, of one block or of a cluster's, may run on a twin kernel whose blocks the
// launch sizes (register_config::sized_at_launch): fewer whole warps than the shape's, for rows
// that would leave most of the shape's pack slots empty; its offsets are run-time products of
// blockDim.x, but for single elements, whose warps hold consecutive chunks of the row (below).
//
// Thread `lane` of a row's group (for a cluster: rank * block threads + thread) holds packs
// p = 0 .. Packs-1 at columns (p * group + lane) * N .. +N: consecutive lanes touch consecutive
// 16-byte pieces (coalesced), and a lane's valid packs are a prefix, which the op's reductions
// take as a count. Single elements on a sized block: warp w's lane l at columns
// (w * Packs + p) * 32 + l, a prefix too. On phased rows (views off the 16-byte grid,
// phased_row.cuh) the packs start at the row's first column on the grid, and the row's head and
// tail elements (its edges) are spread over the lanes: edge e on lane e % group, one a lane but on
// compile-time groups narrower than 2N - 2 lanes (register_config::edges_per_lane).
//
// The grid is one block (or cluster) per tile of rows, or fewer that loop over the tiles: the
// launcher decides (dispatch/launch.cuh). Every loop bound depends only on the block (cluster),
// so every shuffle and barrier is uniform.
#pragma once

#include <type_traits>
#include <utility>

#include <cooperative_groups.h>

#include "../detail/async_copy.cuh"
#include "../detail/config.hpp"
#include "../detail/vector_io.hpp"
#include "cluster_exchange.cuh"
#include "common.cuh"
#include "flat_tile.cuh"
#include "operand_streams.cuh"
#include "phased_row.cuh"
#include "pure_chain.hpp"

namespace rowfuse::engine {

/// The kernel's compile-time shape, `Config` (dispatch/register_config.cuh builds it from a row
/// of the tuning table):
///  - `pack`, `packs`: elements a pack, packs a thread;
///  - `block_threads`, `whole_block` (the row spans the block and cluster; otherwise a group of
///    1-32 lanes, or `row_threads` threads known at compile time), `cluster_blocks` (1, or 2-16
///    with whole_block), `min_blocks_per_sm`
///    (__launch_bounds__' register cap);
///  - `staged<T>`, `staging_slots(bytes)` (1 or 2), `staging_bytes(bytes)`: whether inputs of T
///    travel by cp.async through shared memory, in how many slots of `packs x block_threads`
///    packs of each stream (elements of `bytes` together); `staged_gradient_max_bytes`: the most
///    bytes of slots with which a gradient_op's second stream is staged too; `stages_operands`:
///    whether a load chain's operand streams are (staged_streams);
///  - `kept_column_values`: an op's per-column operands are kept in registers across rows when a
///    thread holds at most this many values;
///  - `columns_in_shared`, `columns_ahead` (0, or packs), `rereads_row`: where they wait
///    otherwise (column_residence_of), and whether the row is read back from its staging slot
///    instead of held (rereads_staged_row);
///  - `keeps_chunk_sums(values)`: whether a chunk_accumulating_op's running sums, `values` of
///    them a thread, are kept in registers across the rows of a chunk;
///  - `sized_at_launch`: the block (each block of a cluster) has blockDim.x threads (whole
///    warps, at most block_threads) instead of block_threads.
/// How a block's whole-block rows are reduced: across the block (block_allreduce), or across
/// the cluster's warps at once (cluster_exchange).
template <class T, int B, int C>
using row_allreduce = std::conditional_t<C == 1, block_allreduce<T, B>, cluster_exchange<T, B, C>>;

/// Whether register_kernel<Config>'s cluster rows reduce a shifted_sums_op in one exchange a row
/// (Config::exchanges_once): each warp's phase 1 by shuffles, its phase 2 about that total, then
/// both totals of every warp in one round, where the two phases take two rounds, each waiting for
/// the cluster's slowest block.
template <class Config, class Op>
inline constexpr bool exchanges_once = Config::exchanges_once&& shifted_sums_op<Op>;

/// A two_phase_op's totals of each phase.
template <class Op>
using first_total_t = decltype(std::declval<Op const&>().phase1(std::declval<float (&)[1]>(), 0));
template <class Op>
using second_total_t = decltype(std::declval<Op const&>().phase2(
    std::declval<float (&)[1]>(), 0, std::declval<first_total_t<Op>>(), index_t(1)));

/// What each warp sends where a shifted_sums_op exchanges once: its phase-1 total and its phase-2
/// sums about it.
template <class Op> struct warp_phase_totals {
  first_total_t<Op> first;
  second_total_t<Op> second;
};

/// The block's shared memory for its reductions (block and cluster rows); `Once`: exchanges_once.
template <class Op, int B, int C, bool Once, bool TwoPhase = two_phase_op<Op>>
struct reduce_storage {
  typename row_allreduce<typename Op::partial, B, C>::TempStorage partials;
};
template <class Op, int B, int C> struct reduce_storage<Op, B, C, false, true> {
  using first_t = first_total_t<Op>;
  using second_t = second_total_t<Op>;
  typename row_allreduce<first_t, B, C>::TempStorage first;
  typename row_allreduce<second_t, B, C>::TempStorage second;
};
template <class Op, int B, int C> struct reduce_storage<Op, B, C, true, true> {
  typename cluster_exchange<warp_phase_totals<Op>, B, C>::TempStorage totals;
};

/// Ops with per-column operands (the norms' gamma and beta) read them with `read_columns<N>(col0)`
/// and take the result in finish / finish2 (a gradient_op: in prepare). Its return type must be
/// spelled out (a trailing decltype will do): the host's pass of nvcc deduces `auto` of a
/// __device__ function as void, and register_shared_bytes sizes shared memory by it there.
template <class Op, int N, class = void> inline constexpr bool reads_columns = false;
template <class Op, int N>
inline constexpr bool reads_columns<
    Op, N, std::void_t<decltype(std::declval<Op const&>().template read_columns<N>(index_t(0)))>> =
    true;

/// Whether an op reads its per-column operands off their grid too: `read_columns_off_grid<N>
/// (row_first, col0)` on a phased row whose packs start at row_first, of read_columns' type.
template <class Op, int N, class = void> inline constexpr bool reads_columns_off_grid = false;
template <class Op, int N>
inline constexpr bool reads_columns_off_grid<
    Op, N,
    std::void_t<decltype(std::declval<Op const&>().template read_columns_off_grid<N>(
        index_t(0), index_t(0)))>> = true;

/// Whether register_kernel<Config>'s phased rows read Op's per-column operands from copies at each
/// phase of the pack grid (op.at_phases, detail::phase_copies), which the dispatcher makes for
/// these kernels alone (dispatch/launch.cuh, launch_register): for an op that holds copies, on
/// the rows it names (Op::copies_at_phases_on), or on all of them where it names none; never for
/// an op without (the norms' backward, which reads its operands in place).
template <class Op, class Config> constexpr bool takes_copies_at_phases() {
  if constexpr (!requires(Op const& op) { op.at_phases; })
    return false;
  else if constexpr (requires { Op::copies_at_phases_on(1, 1); })
    return Op::copies_at_phases_on(Config::cluster_blocks, Config::min_blocks_per_sm);
  else
    return true;
}

/// Ops whose rows can be phased (register_config::phased, phased_row.cuh): every op without
/// per-column operands or that reads them off their grid (the forward ops, the softmax family's
/// and the norms' backward; a gradient_op's gradient view starts its rows as far off the grid as
/// its input: the launch checks it). A lane's edge elements join each reduction as a pack of
/// their count, a gradient_op's beside the gradient's elements at their columns. An
/// ordered_rows_op's chunk sums (the norms' dgamma and dbeta) then follow a column from thread to
/// thread, in shared memory on rows of one block (shares_chunk_sums) and in global memory on
/// cluster rows.
template <class Op, int N>
inline constexpr bool phased_op = !reads_columns<Op, N> || reads_columns_off_grid<Op, N>;

/// A gradient_op's second stream as the kernel holds it; a stand-in of no size for other ops.
/// `row_values`: its per-row operands (read_row).
template <class Op, bool = gradient_op<Op>> struct second_stream {
  using element_type = float;
  template <int N> using reads_type = detail::no_state;
  using row_values = detail::no_state;
};
template <class Op> struct second_stream<Op, true> {
  using element_type = typename Op::gradient_type::element_type;
  template <int N> using reads_type = typename Op::gradient_type::template reads_type<N>;
  using row_values = row_values_t<Op>;
};

/// The streams register_kernel<Config> stages through shared memory, where the shape stages its
/// input: the input's; a gradient_op's second stream beside it (`gradient`) where its packs can
/// travel by cp.async too and the slots of both take at most Config::staged_gradient_max_bytes;
/// and the load chain's operand streams (`operands`, operand_streams) where theirs can and the
/// shape says so (Config::stages_operands). Then the next row's gradient and operands are in
/// flight while this row is reduced, as its input is; read straight to registers, they are issued
/// only once the row before is stored. `slots`: the staging slots (sized for the shape's
/// block_threads). On a block of `threads` threads (Config::sized_at_launch) the staging memory
/// holds the input's region first, then the gradient's (at `gradient_offset(threads)` bytes), then
/// the operands' (at `operands_offset(threads)`), each of `region_elements(threads)` elements
/// (every slot's packs: operand_streams), `bytes(threads)` in all.
template <class Config, class Op, class Load> struct staged_streams {
  using input_t = typename Load::element_type;
  /// Group rows of a known group (Config::stages_flat): the block's rows as a flat tile, two
  /// slots (one read while the next tile's copies land), in place of the input's packs; strides
  /// up to a row's capacity and a chunk more (ld = cols + 1 at any width the row takes).
  static constexpr bool flat = Config::stages_flat;
  static constexpr int flat_group = flat ? Config::row_threads : 1;
  using tile = flat_tile<input_t, Config::block_threads / flat_group,
                         Config::packs * flat_group * Config::pack + int(16 / sizeof(input_t))>;
  static constexpr int flat_bytes = flat ? 2 * tile::slot_bytes : 0;
  using gradient_t = typename second_stream<Op>::element_type;
  using operand_types = operand_streams<Load>;
  static constexpr bool input = Config::template staged<input_t>;
  static constexpr int input_bytes = int(sizeof(input_t));
  static constexpr int gradient_bytes = int(sizeof(gradient_t));
  static constexpr bool gradient =
      gradient_op<Op> && input && Config::template staged<gradient_t> &&
      Config::staging_bytes(input_bytes + gradient_bytes) <= Config::staged_gradient_max_bytes;
  static constexpr int first_bytes = input_bytes + (gradient ? gradient_bytes : 0);
  static constexpr bool operands = Config::stages_operands && operand_types::count > 0 &&
                                   input&& operand_types::template copyable<Config::pack>;
  static constexpr int element_bytes = first_bytes + (operands ? operand_types::element_bytes : 0);
  static constexpr int slots = input ? Config::staging_slots(element_bytes) : 0;
  static constexpr ROWFUSE_HD int region_elements(int threads) {
    return slots * Config::packs * threads * Config::pack;
  }
  /// Every slot: the flat tile's, or the streams' regions.
  static constexpr ROWFUSE_HD int bytes(int threads) {
    return flat_bytes + region_elements(threads) * element_bytes;
  }
  static constexpr ROWFUSE_HD int gradient_offset(int threads) {
    return region_elements(threads) * input_bytes;
  }
  static constexpr ROWFUSE_HD int operands_offset(int threads) {
    return region_elements(threads) * first_bytes;
  }
};

template <class Op, int N, bool = reads_columns<Op, N>> struct column_packs {
  using type = detail::no_state;
};
template <class Op, int N> struct column_packs<Op, N, true> {
  using type = decltype(std::declval<Op const&>().template read_columns<N>(index_t(0)));
};

/// Where a thread holds an op's per-column operands between their loads and their use. They
/// are the same for every row a thread meets (its columns do not change from row to row).
enum class column_residence {
  none,        // the op has none
  each_pack,   // read where each pack is finished (a gradient_op: prepared)
  kept,        // read once, before the first row, and kept in registers
  with_row,    // read for the whole row with the row's input, held in registers to the finish
  kept_shared, // read once, at the first row, and kept in shared memory
  ahead,       // read Config::columns_ahead packs ahead of the pack being finished
};

/// A two-phase op whose phase2 rewrites the row's values from them and the first total alone,
/// and names that rewrite `phase2_rewrite(v, first total, cols)` (layernorm: v - the pivot), so
/// that an engine can redo it on values it reads again.
template <class Op>
concept rewrites_row = two_phase_op<Op> && requires(Op const& op, float (&v)[1]) {
  op.phase2_rewrite(v, op.phase1(v, 1), index_t(1));
};

/// Whether register_kernel<Config> reads a row back from its staging slot for each phase and for
/// the finish instead of holding its values in registers through the row
/// (tuning::column_placement::held): a staged whole-block shape, a load chain that can run again
/// on each read (engine::replayable_load_chain, its operand streams staged beside the input) and
/// an op that rewrites_row. The slot then holds the row until the finish (the next row's copies
/// into a single slot wait for it): its raw packs, or from the first phase on the chain's values
/// written over them (keeps_chain_values), so that after the first phase it is read as those.
template <class Config, class Op, class Load>
inline constexpr bool rereads_staged_row =
    Config::rereads_row&& Config::whole_block&& staged_streams<Config, Op, Load>::input&&
        replayable_load_chain<Load, staged_streams<Config, Op, Load>::operands>&&
            rewrites_row<Op> &&
    !gradient_op<Op>;

/// Whether register_kernel<Config> keeps a row read back from its staging slot
/// (rereads_staged_row) as its load chain's values where the chain is not pure: the first read
/// runs the chain (and its tee) and writes each pack's floats over the pack's staged bytes, and
/// the later phases and the finish read them there instead of running the chain again (each run
/// widens the input and the staged operands, reads a bias again and adds). A pack's floats take
/// the bytes of its input pack and, past them, of its first staged operand stream's (16-bit input
/// and residual: half each), both this thread's own copies.
template <class Config, class Op, class Load, class Streams = staged_streams<Config, Op, Load>>
inline constexpr bool keeps_chain_values = [] {
  constexpr int input_bytes = Config::pack * int(sizeof(typename Load::element_type));
  constexpr int operand_bytes =
      Streams::operands ? Config::pack * operand_streams<Load>::first_bytes : 0;
  return rereads_staged_row<Config, Op, Load> && !pure_load_chain<Load> && input_bytes % 4 == 0 &&
         operand_bytes % 4 == 0 && input_bytes + operand_bytes >= 4 * Config::pack;
}();

/// The residence register_kernel<Config> gives Op's operands (packs of N). Where a thread holds
/// few values (Config::kept_column_values) they are kept in registers. Where the shape says so,
/// a forward op's are kept in shared memory (Config::columns_in_shared) or read ahead
/// (Config::columns_ahead; tuning::column_placement says where each won). Otherwise, on cluster
/// rows a forward op's are read with the row, so that they arrive during the cluster exchange
/// (read where each pack is finished, each load waits behind the stores of the packs before it,
/// which may alias: P round trips after the statistics); elsewhere each pack's are read where
/// it is finished: held for the row, they cost registers that capped whole-block shapes spill
/// (round 6 of row_shapes.cu, bench/NOTES.md). A gradient_op reads them where it prepares each
/// pack, so only `kept` and `kept_shared` change where it finds them. Where the row is read back
/// from its staging slot (rereads_staged_row) its registers are free, and the operands are held
/// with it; on such aligned rows of 16-bit inputs under a bare load chain, in clusters of four
/// blocks or more, they are kept across rows: read with each row, 16-bit gamma and beta (4 bytes a
/// column) went through L2 as many bytes as the row's input and output, and keeping them took
/// layernorm 16-bit at 98304-262144 columns +0.01 to +0.14 of a copy on an H200, where in
/// clusters of two it moved -0.02 to +0.03 (bench/NOTES.md, seventy-sixth session; fp32 rows,
/// not timed so, grew registers): keeps_staged_row_columns. Phased rows (Config::phased) move
/// their columns from row to row, so nothing is kept across rows there.
template <class Config, class Op, class Load>
inline constexpr bool keeps_staged_row_columns =
    rereads_staged_row<Config, Op, Load> && !Config::phased && Config::cluster_blocks >= 4 &&
    sizeof(typename Load::element_type) == 2 && pure_load_chain<Load>;
template <class Config, class Op, class Load, int N>
inline constexpr column_residence column_residence_of =
    !reads_columns<Op, N>                                                ? column_residence::none
    : Config::packs * N <= Config::kept_column_values && !Config::phased ? column_residence::kept
    : Config::columns_in_shared && !Config::phased   ? column_residence::kept_shared
    : keeps_staged_row_columns<Config, Op, Load>     ? column_residence::kept
    : rereads_staged_row<Config, Op, Load>           ? column_residence::with_row
    : !gradient_op<Op> && Config::columns_ahead > 0  ? column_residence::ahead
    : !gradient_op<Op> && Config::cluster_blocks > 1 ? column_residence::with_row
                                                     : column_residence::each_pack;

/// The running sums a column has in a chunk_accumulating_op's chunk_sums, 0 for other ops.
template <class Op, int N, bool = chunk_accumulating_op<Op, N>&& reads_columns<Op, N>>
inline constexpr int chunk_sums_per_column = 0;
template <class Op, int N>
inline constexpr int chunk_sums_per_column<Op, N, true> = Op::template chunk_sums<N>::count;

/// Whether register_kernel<Config> keeps a chunk_accumulating_op's running sums in shared memory
/// across the rows of a chunk: on phased rows of one block or lane group, where a column moves
/// from thread to thread with each row's first column on the grid (phased_row), so that no
/// thread can keep it. A row processor holds `count` sums a column at shared_sum_slot(col) of
/// each of its `shared_sum_stride(cols)` floats, so that a warp's lanes, a pack of N columns
/// apart, reach 32 different banks. Phased cluster rows, whose columns move between blocks too,
/// read and write them in global memory (in shared memory, with the columns two blocks hold on
/// different phases in global memory, they ran no faster: bench/NOTES.md, thirtieth session).
template <class Config, class Op>
inline constexpr bool shares_chunk_sums =
    Config::phased&& Config::cluster_blocks == 1 && chunk_sums_per_column<Op, Config::pack> > 0;
__host__ __device__ constexpr index_t shared_sum_slot(index_t col) {
  return col + col / 32;
}
__host__ __device__ constexpr index_t shared_sum_stride(index_t cols) {
  return shared_sum_slot(cols) + 1;
}

/// Whether register_kernel<Config> runs a centred_op's one pass about the mean of each row's first
/// pack: on rows read back from their staging slot (rereads_staged_row), where the pass it saves
/// is a read of the slot, a widen and an add an element, and a reduction a row; of 16-bit inputs
/// in packs (a phased row's first pack is its first whole one, at its first column on the grid, and
/// its edge elements join the deviations); a pure load chain, which the first pack runs through
/// once more. Whole-block rows, so that the choice of a second pass is the same on every thread of
/// the block (cluster).
/// H200, the library call (bench/NOTES.md, thirty-sixth session): layernorm fp16 / bf16 at
/// 40960-262144 columns +0.03-0.08 / +0.02-0.06 of a copy, to fp8 +0.01-0.07; fp32 -> fp8 (no widen
/// saved) -0.01 to -0.07 at 20480-65536, so fp32 keeps the two passes; on rows held in registers
/// (every width from 2048) it lost up to 0.26.
/// Rows kept as their chain's values (keeps_chain_values: the residual block) take it too where
/// unphased and of at most four packs a thread: the first pack's chain runs on its staged input
/// and operand packs with its own draws (one Philox block a thread and row), and the pass that
/// runs the chain and keeps its values sums the deviations. rowfuse-bench (H100, eighty-first and
/// eighty-second sessions, fp16 / bf16, against two passes): the residual block at 32768 / 65536 /
/// 131072 +0.01 / +0.00 / +0.03, its tee'd form +0.00-0.01 / +0.01 / +0.02; on rows of five and
/// six packs (40960, 49152, 98304) -0.04 to +0.01, and on phased rows of four packs one element
/// off the grid -0.05 to +0.01, so those keep two passes.
template <class Config, class Op, class Load>
inline constexpr bool centred_rows = centred_op<Op>&& rereads_staged_row<Config, Op, Load> &&
                                     (pure_load_chain<Load> ||
                                      (keeps_chain_values<Config, Op, Load> && !Config::phased &&
                                       Config::packs <= 4)) &&
                                     sizeof(typename Load::element_type) == 2 && Config::pack > 1;

/// Whether register_kernel<Config> runs a centred_op's one pass on group rows held in registers
/// (a row in one warp or part of one): the centre is the mean of the row's first pack, lane 0's
/// pack 0, which one shuffle gives the group, and the pass saves the first reduction (an add an
/// element and a butterfly a row). Packs of four values or more, so that a second pass is rare
/// (one normal row in 1900 at four, op/norm.cuh); the warp makes it for all its groups where any
/// needs it, since their shuffles run on every lane. Threads of 32 values: on others (2-3 and 5-8
/// packs of 8, fp32 rows of 2-6 packs of 4) ptxas took 8-32 registers more and spilled 8-200
/// bytes, and the 16-bit ones lost up to 0.4 of a copy (bench/NOTES.md, fifty-first session).
template <class Config, class Op, class Load>
inline constexpr bool centred_group_rows =
    centred_op<Op> && !Config::whole_block && Config::row_threads <= 32 && !Config::phased &&
    Config::pack >= 4 && Config::packs * Config::pack == 32 &&
    !rereads_staged_row<Config, Op, Load> && !ordered_rows_op<Op>;

/// Bytes of the centred rows' first packs in shared memory: lane 0 of each warp copies the row's
/// first pack beside the row's own copies, a pack a warp and slot, and its warp reads it there
/// (read a row ahead into registers instead, it spilled the 64-register 1024-thread rows).
/// Where the chain is not pure, its operand streams' first packs follow (operand_streams' regions
/// of a pack a warp and slot).
template <class Config, class Op, class Load> constexpr std::size_t centre_pack_bytes(int threads) {
  if constexpr (centred_rows<Config, Op, Load>)
    return std::size_t(staged_streams<Config, Op, Load>::slots) * std::size_t(threads / 32) *
           std::size_t(Config::pack) *
           (sizeof(typename Load::element_type) +
            std::size_t(pure_load_chain<Load> ? 0 : operand_streams<Load>::element_bytes));
  else
    return 0;
}

/// Whether register_kernel<Config> stages a gradient_op's per-row operands (read_row) beside its
/// row: where they are one 4-byte value (rmsnorm's backward: the saved rstd), on staged
/// whole-block rows. Lane 0 of each warp copies it with the row's packs (op.stage_row), and its
/// warp reads it from there where it prepares the row. Read from global memory there instead, its
/// load waits behind the row's wait (the asm's memory clobber) and its latency is the row's (the
/// largest stall of the 1024-column rows). Elsewhere they are read where the row is prepared:
/// layernorm's two values staged cost its 64-register fp32 rows 0.02-0.07 of a copy, and a row
/// ahead in registers the group rows lost 0.01-0.03 (bench/NOTES.md, thirty-ninth session).
template <class Config, class Op, class Load>
inline constexpr bool
    stages_row_values = Config::whole_block&& staged_streams<Config, Op, Load>::input &&
                        sizeof(typename second_stream<Op>::row_values) == 4;

/// Bytes of the staged per-row operands: one copy a warp and slot.
template <class Config, class Op, class Load> constexpr std::size_t row_values_bytes(int threads) {
  if constexpr (stages_row_values<Config, Op, Load>)
    return std::size_t(staged_streams<Config, Op, Load>::slots) * std::size_t(threads / 32) *
           sizeof(typename second_stream<Op>::row_values);
  else
    return 0;
}

/// Dynamic shared memory of register_kernel<Config, Op, Load, Store> on blocks of `threads`
/// threads, in this order: the staging slots; the operands' packs where they are kept in shared
/// memory; the centred rows' first packs; the staged per-row operands; the chunk sums of the
/// block's `row_processors` on rows of `sum_cols` columns (shares_chunk_sums; 0 where the op sums
/// nothing).
template <class Config, class Op, class Load>
constexpr std::size_t register_shared_bytes(int threads = Config::block_threads,
                                            index_t sum_cols = 0, int row_processors = 1) {
  constexpr int N = Config::pack;
  std::size_t bytes = std::size_t(staged_streams<Config, Op, Load>::bytes(threads));
  using columns_t = typename column_packs<Op, N>::type;
  static_assert(!std::is_void_v<columns_t>, "read_columns needs a return type the host sees");
  if constexpr (column_residence_of<Config, Op, Load, N> == column_residence::kept_shared)
    bytes += std::size_t(Config::packs) * std::size_t(threads) * sizeof(columns_t);
  bytes += centre_pack_bytes<Config, Op, Load>(threads);
  bytes += row_values_bytes<Config, Op, Load>(threads);
  if constexpr (shares_chunk_sums<Config, Op>)
    if (sum_cols > 0)
      bytes += std::size_t(row_processors) * std::size_t(chunk_sums_per_column<Op, N>) *
               std::size_t(shared_sum_stride(sum_cols)) * sizeof(float);
  return bytes;
}

/// A chunk_accumulating_op's sums of one pack; a stand-in of no size for other ops.
template <class Op, int N, bool = chunk_accumulating_op<Op, N>> struct chunk_sums_of {
  using type = detail::no_state;
};
template <class Op, int N> struct chunk_sums_of<Op, N, true> {
  using type = typename Op::template chunk_sums<N>;
};

/// One launch: row tiles blockIdx.x / C, + gridDim.x / C, ... of the op. `group_log2` is log2
/// of the lanes per row for group rows (ignored for whole-block rows and where the shape fixes
/// the threads a row: Config::row_threads).
template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads, Config::min_blocks_per_sm)
    register_kernel(Op op, Load load, Store store, index_t rows, index_t cols, int group_log2) {
  constexpr int pack_width = Config::pack, packs_per_thread = Config::packs,
                block_threads = Config::block_threads, cluster_blocks = Config::cluster_blocks;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  if constexpr (cluster_blocks > 1) {
    // Built for an older architecture too: never launched there (the plan refuses clusters
    // below compute capability 9.0).
    __trap();
    return;
  }
#endif
  constexpr bool once = exchanges_once<Config, Op>;
  __shared__ reduce_storage<Op, block_threads, cluster_blocks, once> shared;

  int rank = 0; // this block's place in its cluster
  if constexpr (cluster_blocks > 1) {
    rank = int(cooperative_groups::this_cluster().block_rank());
    if constexpr (once) {
      cluster_exchange<warp_phase_totals<Op>, block_threads, cluster_blocks>{shared.totals}
          .initialize();
    } else if constexpr (two_phase_op<Op>) {
      row_allreduce<typename reduce_storage<Op, block_threads, cluster_blocks, once>::first_t,
                    block_threads, cluster_blocks>{shared.first}
          .initialize();
      row_allreduce<typename reduce_storage<Op, block_threads, cluster_blocks, once>::second_t,
                    block_threads, cluster_blocks>{shared.second}
          .initialize();
    } else {
      row_allreduce<typename Op::partial, block_threads, cluster_blocks>{shared.partials}
          .initialize();
    }
    cluster_exchange_start();
  }
  // Threads a group row, where the shape fixes them (0: the launch's group_log2).
  constexpr int row_threads = Config::row_threads;
  // Rows of several warps reduce through shared memory, group rows of a warp or less by shuffles.
  constexpr int row_warps = row_threads / 32;
  // The block's threads: blockDim.x where the launch sizes the block (Config::sized_at_launch),
  // block_threads else.
  int const threads = Config::sized_at_launch ? int(blockDim.x) : block_threads;
  int const group = Config::whole_block ? threads * cluster_blocks
                    : row_threads > 0   ? row_threads
                                        : 1 << group_log2;
  int const lane =
      Config::whole_block ? rank * threads + int(threadIdx.x) : int(threadIdx.x) & (group - 1);
  int const rows_per_block = Config::whole_block ? 1 : block_threads / group;
  // A block the launch sized below block_threads holds the identity of each reduction for its
  // absent warps (a phase of no values, or the op's identity: the contract of over_slot's empty
  // lanes); on cluster rows for the absent warps of every block, which the first round's fold reads
  // after the barrier here (a block row's first reduction has its own barrier before its fold).
  if constexpr (Config::sized_at_launch) {
    float none[pack_width] = {};
    if constexpr (once) {
      auto const first = op.phase1(none, 0);
      cluster_exchange<warp_phase_totals<Op>, block_threads, cluster_blocks>::post_absent(
          shared.totals, {first, op.phase2(none, 0, first, cols)}, threads / 32);
    } else if constexpr (two_phase_op<Op>) {
      using storage_t = reduce_storage<Op, block_threads, cluster_blocks, once>;
      auto const first = op.phase1(none, 0);
      row_allreduce<typename storage_t::first_t, block_threads, cluster_blocks>::post_absent(
          shared.first, first, threads / 32);
      row_allreduce<typename storage_t::second_t, block_threads, cluster_blocks>::post_absent(
          shared.second, op.phase2(none, 0, first, cols), threads / 32);
    } else {
      row_allreduce<typename Op::partial, block_threads, cluster_blocks>::post_absent(
          shared.partials, op.identity(), threads / 32);
    }
    if constexpr (cluster_blocks > 1)
      __syncthreads();
  }
  index_t const row_step = index_t(gridDim.x / cluster_blocks) * rows_per_block;
  index_t const first_row = index_t(blockIdx.x / cluster_blocks) * rows_per_block;

  // Rows: tile first (a multiple of row_step past first_row) gives the group its row first +
  // threadIdx.x / group. An ordered_rows_op walks chunks instead: the group (block, cluster) is
  // row processor first_row + threadIdx.x / group of row_step, and its k-th step is the row
  // chunk_walk names; the loop runs walk.steps(rows) steps in every block.
  constexpr bool chunked = ordered_rows_op<Op>;
  [[maybe_unused]] chunk_walk walk{};
  index_t walk_end = rows;
  if constexpr (chunked) {
    walk = chunk_walk{first_row + int(threadIdx.x) / group, row_step, op.chunk_log2()};
    walk_end = walk.steps(rows) * row_step;
  }
  auto const row_at = [&](index_t first, index_t step) {
    if constexpr (chunked)
      return walk.row(step);
    else
      return first + int(threadIdx.x) / group;
  };
  // Rows of one block advance the walk from the step before (chunk_walk::next): fewer instructions
  // a row. Cluster rows derive it from the step: the row carried from step to step holds two more
  // registers through the cluster's exchanges, which their capped kernels spilled (bench/NOTES.md,
  // thirty-ninth and fortieth sessions).
  constexpr bool walk_carried = chunked && cluster_blocks == 1;
  [[maybe_unused]] index_t carried_row = 0;
  if constexpr (walk_carried)
    carried_row = walk.row(0);

  // This lane's packs inside the row: a prefix of 0 .. packs_per_thread - 1, the same for every row
  // but on phased rows (phased_row), whose whole packs start at each row's first column on the
  // grid.
  constexpr bool phased = Config::phased;
  // The op's phases over every place, those past the lane's values padded (padded_phases_op).
  constexpr bool padded = Config::pads_values && padded_phases_op<Op>;
  static_assert(!phased || phased_op<Op, pack_width>,
                "phased rows run the ops of engine::phased_op");
  // In 32 bits: a lane holds at most packs_per_thread packs, so whole packs past the group's
  // packs_per_thread * group (an int) count as that many.
  auto const lane_packs = [&](index_t whole_packs) {
    int const held = packs_per_thread * group;
    int const packs = whole_packs < index_t(held) ? int(whole_packs) : held;
    int count = 0;
    ROWFUSE_UNROLL
    for (int p = 0; p < packs_per_thread; ++p)
      if (p * group + lane < packs)
        count = p + 1;
    return count;
  };
  // A lane's column of pack p, in 32 bits on the group rows of a forward op that reads per-column
  // operands (the norms' gamma and beta), whose finish recomputes each pack's column and valid
  // packs for the operands' loads: in 64 bits some 40 instructions a pack (ptxas, sm_90). A group
  // row holds at most 32 lanes' packs, so its columns fit an int. Elsewhere 64 bits: in 32 ptxas
  // issued a row's pack loads one after another's use, and log-softmax lost 0.06-0.1
  // (bench/NOTES.md, fiftieth session).
  constexpr bool int_columns =
      !Config::whole_block && reads_columns<Op, pack_width> && !gradient_op<Op>;
  // Single elements on a block the launch sizes: each warp holds its own 32 x packs_per_thread
  // consecutive columns, 32 consecutive ones at each p (coalesced), so that a lane's values lie at
  // compile-time distances from its first: at the block's run-time threads apart, ptxas kept an
  // address a value and spilled 220-300 bytes under the 64-register cap (bench/NOTES.md,
  // fifty-sixth session). Every warp but the row's last then holds only valid values.
  constexpr bool warp_chunks =
      pack_width == 1 && Config::whole_block && cluster_blocks == 1 && Config::sized_at_launch;
  [[maybe_unused]] index_t const warp_first =
      index_t(int(threadIdx.x) / 32) * 32 * packs_per_thread + (int(threadIdx.x) & 31);
  // The distance between a lane's consecutive packs, in packs.
  [[maybe_unused]] int const pack_stride = warp_chunks ? 32 : group;
  auto const lane_col = [&](int p) {
    if constexpr (warp_chunks)
      return warp_first + p * 32;
    else if constexpr (int_columns)
      return index_t((p * group + lane) * pack_width);
    else
      return (index_t(p) * group + lane) * pack_width;
  };
  int valid_packs = 0;
  if constexpr (!phased) {
    ROWFUSE_UNROLL
    for (int p = 0; p < packs_per_thread; ++p)
      if (int_columns ? (p * group + lane) * pack_width < int(cols) : lane_col(p) < cols)
        valid_packs = p + 1;
  }
  [[maybe_unused]] index_t row_first = 0; // a phased row's first column on the grid
  auto const col_of = [&](int p) {
    if constexpr (phased)
      return row_first + lane_col(p);
    else
      return lane_col(p);
  };

  // Group rows reduce by shuffles in the group, rows of several warps through shared memory
  // across them (every row of the block at one barrier), whole-block rows across the block,
  // cluster rows across every warp of the cluster. Each reduction has its own storage; `buffer`
  // alternates the posts from row to row (see block_allreduce), and `step` numbers a cluster's
  // rounds.
  int buffer = 0;
  index_t step = 0;
  // A whole-block row's reduction with `storage`'s posts in `posts` (block_allreduce's buffer)
  // and its cluster round `round`.
  auto const reduce_whole_block = [&](auto value, auto merge, auto& storage, int posts,
                                      index_t round) {
    using T = decltype(value);
    if constexpr (cluster_blocks == 1)
      return block_allreduce<T, block_threads>{storage, posts}(value, merge);
    else
      return cluster_exchange<T, block_threads, cluster_blocks>{storage, threads / 32}(
          allreduce_in_group(value, 32, merge), int(round), merge);
  };
  // A reduction of a storage used once a row: its posts alternate with the rows, the row's step
  // is its round.
  auto const reduce = [&](auto value, auto merge, auto& storage) {
    using T = decltype(value);
    if constexpr (!Config::whole_block && row_warps > 1)
      return block_allreduce<T, block_threads, row_warps>{storage, buffer}(value, merge);
    else if constexpr (!Config::whole_block)
      return allreduce_in_group(value, group, merge);
    else
      return reduce_whole_block(value, merge, storage, buffer, step);
  };

  // A phased ordered_rows_op's chunk sums (sums_kept below): every thread of the row processor
  // has written this row's terms (to shared memory, or on cluster rows to the partials), which
  // other threads of it read and add to at the next row, before any goes on (release and acquire
  // at the processor's scope). A block's reduction is a barrier of the block already; a lane
  // group's (shuffles) orders no memory, nor does a cluster's (distributed shared memory,
  // mbarriers) order global memory.
  [[maybe_unused]] auto const order_chunk_rows = [] {
    if constexpr (cluster_blocks > 1)
      cooperative_groups::this_cluster().sync();
    else if constexpr (!Config::whole_block && row_warps <= 1)
      __syncwarp();
  };

  load_context load_ctx{true, cols};
  store_context<float> store_ctx{cols, 0.0f};

  // The op's per-column operands (column_residence_of). Kept in shared memory, pack p of
  // thread t is at [p][t] in units of the widest word that divides it (detail::word_slots), so
  // that a warp's accesses of one word are consecutive; a thread reads back only what it wrote.
  constexpr column_residence columns_at = column_residence_of<Config, Op, Load, pack_width>;
  using columns_t = typename column_packs<Op, pack_width>::type;
  // On phased rows a pack's columns are off the operands' grid in most rows; a warp's lanes at
  // one row's phase on rows of whole warps, at several rows' on narrower group rows (a group the
  // launch sets counts as narrower: most of them are).
  constexpr auto warp_column_phases = Config::whole_block || row_threads >= 32
                                          ? detail::column_phases::per_warp
                                          : detail::column_phases::per_lane;
  [[maybe_unused]] auto const read_columns_at = [&](index_t col0) {
    if constexpr (!reads_columns<Op, pack_width>)
      return columns_t{};
    else if constexpr (phased)
      return op.template read_columns_off_grid<pack_width, warp_column_phases,
                                               takes_copies_at_phases<Op, Config>()>(row_first,
                                                                                     col0);
    else
      return op.template read_columns<pack_width>(col0);
  };
  constexpr bool columns_held =
      columns_at == column_residence::kept || columns_at == column_residence::with_row;
  [[maybe_unused]] columns_t held_columns[columns_held ? packs_per_thread : 1];
  auto const read_row_columns = [&] {
    if constexpr (columns_held) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p)
        if (p < valid_packs)
          held_columns[p] = read_columns_at(col_of(p));
    }
  };
  extern __shared__ float4 staging_shared[];
  using column_words = detail::word_slots<columns_t>;
  [[maybe_unused]] auto* const shared_columns = reinterpret_cast<typename column_words::word*>(
      staging_shared + staged_streams<Config, Op, Load>::bytes(threads) / 16);
  auto const keep_columns_shared = [&] {
    if constexpr (columns_at == column_residence::kept_shared) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p)
        if (p < valid_packs)
          column_words::store(shared_columns, p, int(threadIdx.x), threads,
                              op.template read_columns<pack_width>(col_of(p)));
    }
  };
  if constexpr (columns_at == column_residence::kept)
    read_row_columns();
  // Read ahead, pack p's operands wait in ahead_columns[p % ahead_packs] from the read of pack
  // p - ahead_packs's (or from before the row's last reduction, for the first ones) to its finish.
  constexpr int ahead_packs = columns_at != column_residence::ahead      ? 1
                              : Config::columns_ahead < packs_per_thread ? Config::columns_ahead
                                                                         : packs_per_thread;
  [[maybe_unused]] columns_t ahead_columns[ahead_packs];
  auto const read_ahead = [&](int p) {
    if constexpr (columns_at == column_residence::ahead)
      if (p < packs_per_thread && p < valid_packs)
        ahead_columns[p % ahead_packs] = read_columns_at(col_of(p));
  };
  auto const read_first_ahead = [&] {
    ROWFUSE_UNROLL
    for (int p = 0; p < ahead_packs; ++p)
      read_ahead(p);
  };
  auto const columns_of = [&](int p) {
    if constexpr (columns_at == column_residence::kept &&
                  keeps_staged_row_columns<Config, Op, Load> && sizeof(columns_t) % 4 == 0)
      // Through an empty asm a word at a time, so that they are widened at each row's finish and
      // held across rows as words, half the registers of their widened values.
      return detail::shuffle_words(held_columns[p], [](unsigned word) {
        asm volatile("" : "+r"(word));
        return word;
      });
    else if constexpr (columns_held)
      return held_columns[p];
    else if constexpr (columns_at == column_residence::kept_shared)
      return column_words::load(shared_columns, p, int(threadIdx.x), threads);
    else if constexpr (columns_at == column_residence::each_pack)
      return read_columns_at(col_of(p));
    else
      return columns_t{};
  };

  // A chunk_accumulating_op's running sums stay in registers across the rows of a chunk (every
  // row of a chunk comes to this thread, in row order: chunk_walk) where the shape allows
  // (Config::keeps_chunk_sums); elsewhere prepare adds each row's terms to the partials in global
  // memory. A compile-time choice from the shape, so that the kernel spills in neither. On phased
  // rows a column moves from thread to thread with each row's first column on the grid, so the
  // sums wait in shared memory there (shares_chunk_sums, below), on cluster rows in global memory,
  // read and written an element at a time; every thread of the row processor has written a row's
  // before any reads them for the next (order_chunk_rows).
  using chunk_sums_t = typename chunk_sums_of<Op, pack_width>::type;
  constexpr bool sums_kept =
      chunk_accumulating_op<Op, pack_width> && reads_columns<Op, pack_width> && !Config::phased &&
      Config::keeps_chunk_sums(packs_per_thread * int(sizeof(chunk_sums_t) / sizeof(float)));
  [[maybe_unused]] chunk_sums_t chunk_sums[sums_kept ? packs_per_thread : 1];
  if constexpr (sums_kept && !Config::sums_from_first_row)
    for (auto& sums : chunk_sums)
      sums.clear(); // as a chunk's first row finds them (flush clears them for the next)

  using row_values_type = typename second_stream<Op>::row_values;

  // Staging: slot `s` holds this thread's packs at ((s * packs_per_thread + p) * threads + thread)
  // * pack_width, so a warp's 16-byte reads of one pack index are consecutive (no bank conflicts);
  // a staged gradient's and operand stream's packs are laid out the same way in their own regions
  // after every slot's input packs (staged_streams). A thread reads back only what it copied
  // itself.
  using input_t = typename Load::element_type;
  using gradient_element = typename second_stream<Op>::element_type;
  using streams = staged_streams<Config, Op, Load>;
  constexpr bool two_streams = gradient_op<Op>;
  constexpr bool staged = streams::input;
  constexpr bool gradient_staged = streams::gradient;
  constexpr bool operands_staged = streams::operands;
  constexpr int slots = streams::slots;
  constexpr bool rereads = rereads_staged_row<Config, Op, Load>;
  // Rows that whole warps hold (whole-block rows, rows of whole warps): a warp's lanes hold
  // consecutive packs at every step, so a load chain that can draws its decisions for the lane's
  // packs with the whole warp at once, at the top of each row and outside every guard, so that all
  // its lanes take part (draw_by_warp): on single elements (rf::dropout: one Philox call for about
  // six elements instead of one for each), and on staged phased rows, whose packs start mid-block
  // (Steps + 1 calls for a lane's packs of 8 instead of 2 Steps). Staged, because there the row is
  // in shared memory before its draws, which have no loads to overlap; on a row read straight to
  // registers the per-pack draws run while the next packs load. Two to seven packs a thread in
  // blocks of up to 512 threads: the staged rows timed (bench/NOTES.md, seventy-ninth to
  // eighty-first sessions); at eight (the residual block's 262144-column row, 8 x 256) they moved
  // it -0.02 to +0.02 one element off, and it draws a pack at a time. Aligned packs of 8 are a
  // block each. The store side keeps its draws in place, which skip the packs of +0 a mask leaves
  // and so cost less there.
  constexpr bool phased_drawn_by_warp =
      phased && staged && packs_per_thread >= 2 && packs_per_thread <= 7 && block_threads <= 512;
  constexpr bool load_drawn_by_warp = (pack_width == 1 || phased_drawn_by_warp) &&
                                      (Config::whole_block || row_warps > 0) &&
                                      Load::template draws_by_warp<pack_width, packs_per_thread>;
  constexpr bool keeps_values = keeps_chain_values<Config, Op, Load>;
  constexpr bool centred = centred_rows<Config, Op, Load>;
  constexpr bool centred_group = centred_group_rows<Config, Op, Load>;
  // The centred pass's uses of the second reduction's storage: one a row, two where the row takes
  // a second pass.
  [[maybe_unused]] index_t centred_rounds = 0;
  // Lane 0 of each warp stages the row's first pack there (centre_pack_bytes), after the operands
  // kept in shared memory.
  [[maybe_unused]] input_t* const centre_packs = reinterpret_cast<input_t*>(
      reinterpret_cast<char*>(staging_shared) + streams::bytes(threads) +
      (columns_at == column_residence::kept_shared
           ? std::size_t(packs_per_thread) * std::size_t(threads) * sizeof(columns_t)
           : 0));
  [[maybe_unused]] auto const centre_index = [&](int slot) {
    return slot * (threads / 32) + int(threadIdx.x) / 32;
  };
  [[maybe_unused]] auto const centre_pack_of = [&](int slot) {
    return centre_packs + centre_index(slot) * pack_width;
  };
  // The operand streams' first packs, in regions of a pack a warp and slot after the input's.
  [[maybe_unused]] int const centre_region_elements = slots * (threads / 32) * pack_width;
  [[maybe_unused]] char* const centre_operand_regions =
      reinterpret_cast<char*>(centre_packs + centre_region_elements);
  // The staged per-row operands of each warp and slot, after the centred rows' packs.
  constexpr bool row_values_staged = stages_row_values<Config, Op, Load>;
  [[maybe_unused]] auto const row_values_of = [&](int slot) {
    return reinterpret_cast<row_values_type*>(reinterpret_cast<char*>(centre_packs) +
                                              centre_pack_bytes<Config, Op, Load>(threads)) +
           slot * (threads / 32) + int(threadIdx.x) / 32;
  };
  input_t* const staging = reinterpret_cast<input_t*>(staging_shared);
  auto const staged_index = [&](int slot, int p) {
    return (slot * packs_per_thread + p) * threads + int(threadIdx.x);
  };
  int const region_elements = streams::region_elements(threads);
  auto const staged_pack = [&](int slot, int p) {
    return staging + staged_index(slot, p) * pack_width;
  };
  [[maybe_unused]] auto const staged_gradient_pack = [&](int slot, int p) {
    return reinterpret_cast<gradient_element*>(reinterpret_cast<char*>(staging_shared) +
                                               streams::gradient_offset(threads)) +
           staged_index(slot, p) * pack_width;
  };
  [[maybe_unused]] char* const operand_regions =
      reinterpret_cast<char*>(staging_shared) + streams::operands_offset(threads);

  // A phased row processor's chunk sums in shared memory (shares_chunk_sums), after every other
  // region (register_shared_bytes); none where the op sums nothing (chunks of one row:
  // rows_per_unit).
  constexpr bool sums_shared = shares_chunk_sums<Config, Op>;
  constexpr int sums_per_column = chunk_sums_per_column<Op, pack_width>;
  [[maybe_unused]] index_t const chunk_rows = rows_per_unit(op);
  [[maybe_unused]] bool const sums_in_shared = sums_shared && chunk_rows > 1;
  [[maybe_unused]] index_t const sum_stride = shared_sum_stride(cols);
  [[maybe_unused]] float* const shared_sums =
      reinterpret_cast<float*>(reinterpret_cast<char*>(centre_packs) +
                               centre_pack_bytes<Config, Op, Load>(threads) +
                               row_values_bytes<Config, Op, Load>(threads)) +
      (Config::whole_block ? 0 : int(threadIdx.x) / group) * sums_per_column * sum_stride;
  // prepare of pack (or edge element) `x` at col0 with its columns' running sums, from shared
  // memory and back; a chunk's first row adds to cleared sums instead of reading any.
  [[maybe_unused]] auto const prepare_shared = [&](auto& x, auto& gradient,
                                                   row_values_type const& values, index_t row,
                                                   index_t col0, auto const& columns) {
    if constexpr (sums_shared) {
      constexpr int count = int(sizeof(x) / sizeof(float));
      typename chunk_sums_of<Op, count>::type sums;
      if ((row & (chunk_rows - 1)) != 0) {
        ROWFUSE_UNROLL
        for (int j = 0; j < count; ++j)
          ROWFUSE_UNROLL
        for (int k = 0; k < sums_per_column; ++k)
          sums.value(k, j) = shared_sums[k * sum_stride + shared_sum_slot(col0 + j)];
      } else {
        sums.clear();
      }
      op.template prepare<count>(x, gradient, values, row, columns, sums);
      ROWFUSE_UNROLL
      for (int j = 0; j < count; ++j)
        ROWFUSE_UNROLL
      for (int k = 0; k < sums_per_column; ++k)
        shared_sums[k * sum_stride + shared_sum_slot(col0 + j)] = sums.value(k, j);
    }
  };
  // At the row that ends a chunk (after the row processor's barrier: every term is in) its sums go
  // to the partials, a column a lane. The next chunk's first row rewrites them after a barrier at
  // the chunk's last step, the same step in every row processor of the block; a chunk cut short
  // by the last row is its processor's last.
  [[maybe_unused]] auto const flush_shared_sums = [&](index_t row, bool row_ok, index_t step) {
    if constexpr (sums_shared) {
      if (!sums_in_shared)
        return;
      if (row_ok && op.ends_chunk(row, rows)) {
        for (index_t col = lane; col < cols; col += group) {
          typename chunk_sums_of<Op, 1>::type sums;
          ROWFUSE_UNROLL
          for (int k = 0; k < sums_per_column; ++k)
            sums.value(k, 0) = shared_sums[k * sum_stride + shared_sum_slot(col)];
          op.template flush<1>(sums, row, col);
        }
      }
      if ((step & (chunk_rows - 1)) == chunk_rows - 1) {
        if constexpr (Config::whole_block || row_warps > 1)
          __syncthreads();
        else
          __syncwarp();
      }
    }
  };
  // A phased row's edge elements of this lane (phased_row): edges lane, lane + group, ... (a
  // prefix of its edges_per_lane slots, which the reductions take as a count).
  constexpr int edges_per_lane = Config::edges_per_lane;
  // On staged cluster rows of a forward op under a pure load chain, a row's edge elements are
  // loaded where its packs are staged, a row ahead of their use, and held in registers, so that
  // the lanes that hold them (warp 0 of the first block), and with them every block of the cluster
  // at its exchange, do not wait a load's round trip after the staged packs land. A row of one
  // block takes less than that round trip, and taking its loaded edges at the top of the row would
  // wait for them before the next row's copies are issued; other chains and the gradient ops read
  // theirs at the row (bench/NOTES.md, seventy-second session).
  constexpr bool edges_ahead =
      phased && staged && !two_streams && cluster_blocks > 1 && pure_load_chain<Load>;
  [[maybe_unused]] input_t edges_loaded_ahead[edges_ahead ? edges_per_lane : 1][1];
  auto const stage_row = [&](index_t r, int slot) {
    if constexpr (staged) {
      if (r < rows) {
        // Row r's packs: on phased rows its own (r is the next row, not this one).
        int packs = valid_packs;
        index_t first_col = 0;
        if constexpr (phased) {
          auto const layout = phased_row<pack_width>::at(load.input.dense_row(r), cols);
          packs = lane_packs(layout.packs);
          first_col = layout.first;
          if constexpr (edges_ahead) {
            ROWFUSE_UNROLL
            for (int k = 0; k < edges_per_lane; ++k)
              if (lane + k * group < layout.edges)
                load.template read_input<1>(r, layout.edge_column(lane + k * group),
                                            edges_loaded_ahead[k]);
          }
        }
        ROWFUSE_UNROLL
        for (int p = 0; p < packs_per_thread; ++p) {
          if (p < packs) {
            index_t const col = first_col + lane_col(p);
            detail::async_copy_pack<pack_width>(staged_pack(slot, p),
                                                load.input.dense_row(r) + col);
            if constexpr (gradient_staged)
              detail::async_copy_pack<pack_width>(staged_gradient_pack(slot, p),
                                                  op.gradient.input.dense_row(r) + col);
            if constexpr (operands_staged)
              operand_streams<Load>::template stage<pack_width>(
                  load, r, col, operand_regions, region_elements, staged_index(slot, p));
          }
        }
        if constexpr (centred) {
          if ((threadIdx.x & 31) == 0) {
            detail::async_copy_pack<pack_width>(centre_pack_of(slot),
                                                load.input.dense_row(r) + first_col);
            if constexpr (!pure_load_chain<Load>)
              operand_streams<Load>::template stage<pack_width>(
                  load, r, first_col, centre_operand_regions, centre_region_elements,
                  centre_index(slot));
          }
        }
        if constexpr (row_values_staged)
          if ((threadIdx.x & 31) == 0)
            op.stage_row(r, row_values_of(slot));
      }
      detail::async_copy_commit();
    }
  };
  if constexpr (staged)
    stage_row(row_at(first_row, 0), 0);

  // The block's rows as one flat tile (streams::flat), where the input's stride fits it (the same
  // in every block): the first tile's copies before the loop, each next one's once every thread
  // has passed the barrier that completes the tile before it, which also ends every read of the
  // slot they land in (read two tiles ago).
  using tile_t = typename streams::tile;
  constexpr bool flat = streams::flat;
  static_assert(!flat || !chunked, "a flat tile holds consecutive rows");
  [[maybe_unused]] bool const flat_fits = flat && tile_t::fits(load.input.ld);
  [[maybe_unused]] tile_t tile, next_tile;
  [[maybe_unused]] auto const stage_tile = [&](index_t tile_first, int slot) {
    if (tile_first < rows)
      next_tile = tile_t::stage(
          staging + slot * tile_t::slot_elements, load.input.dense_row(tile_first), load.input.ld,
          cols, rows - tile_first < rows_per_block ? rows - tile_first : index_t(rows_per_block),
          int(threadIdx.x), threads);
  };
  if constexpr (flat)
    if (flat_fits)
      stage_tile(first_row, 0);

  for (index_t first = first_row; first < walk_end; first += row_step, buffer ^= 1, ++step) {
    index_t const row = walk_carried ? carried_row : row_at(first, step);
    if constexpr (walk_carried)
      carried_row = walk.next(row);
    bool const row_ok = row < rows;
    [[maybe_unused]] phased_row<pack_width> layout{};
    if constexpr (phased) {
      layout = phased_row<pack_width>::at(load.input.dense_row(row), cols);
      row_first = layout.first;
      valid_packs = lane_packs(layout.packs);
    }
    auto const next_row = [&] {
      if constexpr (walk_carried)
        return carried_row;
      else if constexpr (chunked)
        return row_at(first + row_step, step + 1);
      else
        return row + row_step;
    };
    int const n = row_ok ? valid_packs * pack_width : 0;

    // This row's edge elements loaded ahead (edges_ahead), taken before the next row's staging
    // reloads them.
    [[maybe_unused]] input_t edge_raw[edges_per_lane][1];
    if constexpr (edges_ahead) {
      ROWFUSE_UNROLL
      for (int k = 0; k < edges_per_lane; ++k)
        edge_raw[k][0] = edges_loaded_ahead[k][0];
    }
    int const slot = slots == 2 ? buffer : 0;
    if constexpr (slots == 2) {
      stage_row(next_row(), slot ^ 1); // that slot was read a row ago
      detail::async_copy_wait<1>();    // this row's group has landed
    } else if constexpr (slots == 1) {
      detail::async_copy_wait<0>();
    }
    if constexpr (flat) {
      if (flat_fits) {
        tile = next_tile;
        tile.land();
        detail::async_copy_wait<0>();
        __syncthreads();
        stage_tile(first + row_step, buffer ^ 1);
      }
    }
    // A centred row's first pack, staged by its warp's lane 0: landed for that lane at the wait
    // above, for the warp after __syncwarp.
    [[maybe_unused]] input_t centre_raw[centred ? pack_width : 1] = {};
    if constexpr (centred) {
      __syncwarp();
      detail::load_pack<pack_width>(centre_pack_of(slot), centre_raw);
    }
    // A gradient_op's per-row operands (read_row) where it prepares the row: staged by its warp's
    // lane 0 likewise (landed for the warp after __syncwarp), or from global memory.
    if constexpr (row_values_staged)
      __syncwarp();
    [[maybe_unused]] auto const row_values = [&]() -> row_values_type {
      if constexpr (row_values_staged)
        return *row_values_of(slot);
      else if constexpr (two_streams)
        return op.read_row(row);
      else
        return {};
    };
    // On a flat tile, a pure load chain and operands held in registers or none, every value a lane
    // holds is read (past its row, from the tile's slot: discarded), transformed and finished, and
    // only the stores are guarded: the loops run without a branch a value (with one, the guards
    // and branches took a third of the loop's instructions; bench/NOTES.md, thirty-fifth session).
    constexpr bool flat_unguarded =
        flat && pure_load_chain<Load> && !two_streams &&
        (columns_at == column_residence::none || columns_at == column_residence::kept);
    [[maybe_unused]] bool const unguarded = flat_unguarded && flat_fits;
    // This lane's value p of the row on a flat tile (flat_fits), from shared memory.
    [[maybe_unused]] auto const read_tile = [&](int p, input_t(&raw)[pack_width]) {
      detail::load_pack<pack_width>(tile.row(int(threadIdx.x) / group) + col_of(p), raw);
    };
    // This lane's input pack p, from the staging slot, the flat tile or global memory: a branch,
    // because one generic pointer for the tile and global memory made every load a generic one
    // (slower: bench/NOTES.md, thirty-fifth session).
    auto const read_pack = [&](int p, input_t(&raw)[pack_width]) {
      if constexpr (staged) {
        detail::load_pack<pack_width>(staged_pack(slot, p), raw);
        return;
      }
      if constexpr (flat) {
        if (flat_fits) {
          read_tile(p, raw);
          return;
        }
      }
      load.template read_input<pack_width>(row, col_of(p), raw);
    };
    // Single elements narrower than a float are read for the whole row before any arithmetic
    // where the shape says so (Config::reads_row_first): read in the transform loop below, each
    // load waits behind the arithmetic and branch of the element before it. Held raw they take
    // half the row's registers, which at 32 a thread cost blocks an SM, so the shape chooses; fp32
    // elements held raw take as many as the row. Packs are read in the loop. bench/NOTES.md,
    // fourth and thirteenth sessions.
    constexpr bool inputs_first = pack_width == 1 && sizeof(input_t) < 4 && Config::reads_row_first;
    [[maybe_unused]] input_t raw_row[inputs_first ? packs_per_thread : 1][pack_width];
    if constexpr (inputs_first) {
      if (unguarded) {
        ROWFUSE_UNROLL
        for (int p = 0; p < packs_per_thread; ++p)
          read_tile(p, raw_row[p]);
      } else {
        ROWFUSE_UNROLL
        for (int p = 0; p < packs_per_thread; ++p)
          if (row_ok && p < valid_packs)
            read_pack(p, raw_row[p]);
      }
    }
    // Every operand's loads for the row are issued before any arithmetic depends on one (inside
    // the chain, an operand's load would wait for the arithmetic of the nodes before it); staged
    // operand streams are read from their slot. A row read back (rereads) reads them at each
    // read instead (reread_pack), so that they hold no registers through the row.
    typename Load::template reads_type<pack_width> reads[rereads ? 1 : packs_per_thread];
    ROWFUSE_UNROLL
    for (int p = 0; p < (rereads ? 0 : packs_per_thread); ++p) {
      if (row_ok && p < valid_packs) {
        if constexpr (operands_staged)
          reads[p] = operand_streams<Load>::template read_staged<pack_width, phased>(
              load, row, col_of(p), operand_regions, region_elements, staged_index(slot, p));
        else
          reads[p] = load.template read<pack_width, phased>(row, col_of(p));
      }
    }
    if constexpr (columns_at == column_residence::with_row)
      if (row_ok)
        read_row_columns();
    if constexpr (columns_at == column_residence::kept_shared)
      if (step == 0)
        keep_columns_shared();
    // A gradient_op's second stream: its packs and its operands', issued here too.
    [[maybe_unused]] gradient_element gradient_raw[two_streams ? packs_per_thread : 1][pack_width];
    [[maybe_unused]] typename second_stream<Op>::template reads_type<pack_width>
        gradient_reads[two_streams ? packs_per_thread : 1];
    if constexpr (two_streams) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p) {
        if (row_ok && p < valid_packs) {
          if constexpr (gradient_staged)
            detail::load_pack<pack_width>(staged_gradient_pack(slot, p), gradient_raw[p]);
          else
            op.gradient.template read_input<pack_width>(row, col_of(p), gradient_raw[p]);
          gradient_reads[p] = op.gradient.template read<pack_width, phased>(row, col_of(p));
        }
      }
    }
    // This lane's edge elements of a phased row, and a gradient_op's gradient elements at their
    // columns: their loads issued with the packs' (or ahead: edges_ahead), transformed after them;
    // on a flat tile the input's read from it.
    [[maybe_unused]] int edge_n = 0;
    [[maybe_unused]] index_t edge_col[edges_per_lane] = {};
    [[maybe_unused]] typename Load::template reads_type<1> edge_reads[edges_per_lane];
    [[maybe_unused]] gradient_element gradient_edge_raw[edges_per_lane][1];
    [[maybe_unused]] typename second_stream<Op>::template reads_type<1>
        gradient_edge_reads[edges_per_lane];
    if constexpr (phased) {
      ROWFUSE_UNROLL
      for (int k = 0; k < edges_per_lane; ++k) {
        if (row_ok && lane + k * group < layout.edges) {
          edge_n = k + 1;
          edge_col[k] = layout.edge_column(lane + k * group);
          if constexpr (flat) {
            if (flat_fits)
              edge_raw[k][0] = tile.row(int(threadIdx.x) / group)[edge_col[k]];
            else
              load.template read_input<1>(row, edge_col[k], edge_raw[k]);
          } else if constexpr (!edges_ahead) {
            load.template read_input<1>(row, edge_col[k], edge_raw[k]);
          }
          edge_reads[k] = load.template read<1>(row, edge_col[k]);
          if constexpr (two_streams) {
            op.gradient.template read_input<1>(row, edge_col[k], gradient_edge_raw[k]);
            gradient_edge_reads[k] = op.gradient.template read<1>(row, edge_col[k]);
          }
        }
      }
    }
    // The store side's index-only work (dropout's Philox) runs while the input's load is in
    // flight where a lane holds one pack and nothing is staged; elsewhere after the statistics,
    // where drawing ahead would hold the draws in registers through the row (bench/NOTES.md).
    constexpr bool draw_store_ahead = !staged && packs_per_thread == 1;
    typename Store::template draws_type<pack_width> store_draws[packs_per_thread];
    [[maybe_unused]] auto const load_words = [&] {
      if constexpr (load_drawn_by_warp) {
        int const warp_lane = int(threadIdx.x) & 31;
        return load.template draw_by_warp<pack_width, packs_per_thread>(
            row, col_of(0) - warp_lane * pack_width, index_t(pack_stride) * pack_width, cols,
            warp_lane);
      } else {
        return detail::no_state{};
      }
    }();
    auto const load_draw = [&](int p) {
      if constexpr (load_drawn_by_warp)
        return load.template draw_at_step<pack_width>(load_words, p);
      else
        return load.template draw<pack_width>(row, col_of(p), cols);
    };

    float v[packs_per_thread * pack_width];
    // The gradient's values.
    [[maybe_unused]] float g[two_streams ? packs_per_thread * pack_width : 1];
    auto const transform_pack = [&](int p, input_t const(&raw)[pack_width]) {
      if constexpr (draw_store_ahead)
        store_draws[p] = store.template draw<pack_width>(row, col_of(p), cols);
      float x[pack_width];
      load.template transform<pack_width>(raw, row, col_of(p), x, load_ctx, reads[p], load_draw(p));
      if constexpr (two_streams) {
        float gx[pack_width];
        op.gradient.template transform<pack_width>(
            gradient_raw[p], row, col_of(p), gx, load_ctx, gradient_reads[p],
            op.gradient.template draw<pack_width>(row, col_of(p), cols));
        if constexpr (sums_kept) {
          constexpr bool from_first_row = Config::sums_from_first_row;
          op.template prepare<pack_width, from_first_row>(x, gx, row_values(), row, columns_of(p),
                                                          chunk_sums[p]);
          if (op.ends_chunk(row, rows))
            op.template flush<pack_width, from_first_row>(chunk_sums[p], row, col_of(p));
        } else if constexpr (sums_shared) {
          if (sums_in_shared)
            prepare_shared(x, gx, row_values(), row, col_of(p), columns_of(p));
          else
            op.template prepare<pack_width, phased>(x, gx, row_values(), row, col_of(p),
                                                    columns_of(p), true);
        } else if constexpr (reads_columns<Op, pack_width>)
          op.template prepare<pack_width, phased>(x, gx, row_values(), row, col_of(p),
                                                  columns_of(p), true);
        else
          op.template prepare<pack_width>(x, gx, row_values(), row, col_of(p), true);
        ROWFUSE_UNROLL
        for (int j = 0; j < pack_width; ++j)
          g[p * pack_width + j] = gx[j];
      }
      ROWFUSE_UNROLL
      for (int j = 0; j < pack_width; ++j)
        v[p * pack_width + j] = x[j];
    };
    // Pack p's values into v: read first (raw_row) or now with `read`, then transformed.
    auto const read_and_transform = [&](int p, auto const& read) {
      if constexpr (inputs_first) {
        transform_pack(p, raw_row[p]);
      } else {
        input_t raw[pack_width];
        read(p, raw);
        transform_pack(p, raw);
      }
    };
    // A row read back (rereads) is never held: each phase reads it from the slot (below). The
    // places past the lane's packs hold +0, or the op's padding (padded_phases_op).
    constexpr float no_value = [] {
      if constexpr (padded)
        return float(Op::padding);
      else
        return 0.0f;
    }();
    // A padded row whose load chain has no nodes takes its padding in the raw input: each pack
    // is read into registers that hold the input type's -inf (every input type has one), the
    // read predicated, and converted as it is, so a place past the lane's values widens to the
    // op's padding: one move a register of raw input (two values in 16 bits) where writing the
    // padding over each converted value took one a value. Rows read from a staging slot and
    // cluster rows that exchange twice keep the padding over the converted values: raw, ptxas
    // spilled more on them (log-softmax lost 0.1 at 65536 and 0.02 at 32768 columns;
    // bench/NOTES.md, sixty-first session).
    constexpr bool pads_raw = [] {
      if constexpr (padded && bare_load_chain<Load> && !staged && !inputs_first && !two_streams &&
                    (cluster_blocks == 1 || exchanges_once<Config, Op>))
        return Op::padding == rowfuse::detail::neg_inf;
      else
        return false;
    }();
    if (unguarded) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p) {
        read_and_transform(p, read_tile);
        bool const valid = row_ok && p < valid_packs;
        ROWFUSE_UNROLL
        for (int j = 0; j < pack_width; ++j)
          v[p * pack_width + j] = valid ? v[p * pack_width + j] : no_value;
      }
    } else if constexpr (pads_raw) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p) {
        input_t raw[pack_width];
        ROWFUSE_UNROLL
        for (int j = 0; j < pack_width; ++j)
          raw[j] = rowfuse::detail::negative_infinity<input_t>();
        if (row_ok && p < valid_packs)
          read_pack(p, raw);
        transform_pack(p, raw);
      }
    } else {
      ROWFUSE_UNROLL
      for (int p = 0; p < (rereads ? 0 : packs_per_thread); ++p) {
        if (row_ok && p < valid_packs) {
          read_and_transform(p, read_pack);
        } else {
          ROWFUSE_UNROLL
          for (int j = 0; j < pack_width; ++j)
            v[p * pack_width + j] = no_value;
          if constexpr (two_streams) {
            ROWFUSE_UNROLL
            for (int j = 0; j < pack_width; ++j)
              g[p * pack_width + j] = 0.0f;
          }
        }
      }
    }

    // The edge elements' values (and the gradient's), after the packs' (their loads have had the
    // packs' time to land); +0 past edge_n.
    [[maybe_unused]] float edge[edges_per_lane] = {};
    [[maybe_unused]] float gradient_edge[edges_per_lane] = {};
    if constexpr (phased) {
      ROWFUSE_UNROLL
      for (int k = 0; k < edges_per_lane; ++k) {
        if (k < edge_n) {
          float x[1];
          load.template transform<1>(edge_raw[k], row, edge_col[k], x, load_ctx, edge_reads[k],
                                     load.template draw<1>(row, edge_col[k], cols));
          if constexpr (two_streams) {
            float gx[1];
            op.gradient.template transform<1>(gradient_edge_raw[k], row, edge_col[k], gx, load_ctx,
                                              gradient_edge_reads[k],
                                              op.gradient.template draw<1>(row, edge_col[k], cols));
            // prepare rewrites both (the norms' backward: x into its normalized value).
            if constexpr (sums_shared) {
              if (sums_in_shared)
                prepare_shared(x, gx, row_values(), row, edge_col[k],
                               op.template read_columns<1>(edge_col[k]));
              else
                op.template prepare<1>(x, gx, row_values(), row, edge_col[k], true);
            } else {
              op.template prepare<1>(x, gx, row_values(), row, edge_col[k], true);
            }
            gradient_edge[k] = gx[0];
          }
          edge[k] = x[0];
        }
      }
    }

    // A row read back (rereads): pack p's values from the staging slot through the load chain,
    // as the transform loop above makes them. The chain's draws (dropout's decisions) are made
    // once a row and held; its reads are made at each read, staged operand streams from their
    // slot; `emit`: whether its side effects (rf::tee) happen, on one read a row (phase_pack,
    // reread_for_finish).
    [[maybe_unused]] typename Load::template draws_type<pack_width>
        row_draws[rereads ? packs_per_thread : 1];
    if constexpr (rereads) {
      ROWFUSE_UNROLL
      for (int p = 0; p < packs_per_thread; ++p)
        if (row_ok && p < valid_packs)
          row_draws[p] = load_draw(p);
    }
    [[maybe_unused]] auto const reread_pack = [&](int p, float(&x)[pack_width], bool emit) {
      input_t raw[pack_width];
      read_pack(p, raw);
      load_context context{emit, cols};
      if constexpr (operands_staged)
        load.template transform<pack_width>(
            raw, row, col_of(p), x, context,
            operand_streams<Load>::template read_staged<pack_width, phased>(
                load, row, col_of(p), operand_regions, region_elements, staged_index(slot, p)),
            row_draws[p]);
      else
        load.template transform<pack_width>(raw, row, col_of(p), x, context,
                                            load.template read<pack_width, phased>(row, col_of(p)),
                                            row_draws[p]);
    };
    // Where the row is kept as its chain's values (keeps_chain_values): pack p's floats, the
    // first words over its input pack and the rest over its first operand stream's.
    constexpr int kept_in_input =
        keeps_values ? pack_width * int(sizeof(input_t)) / int(sizeof(float)) : pack_width;
    constexpr int kept_in_operand = pack_width - kept_in_input;
    [[maybe_unused]] auto const kept_words = [&](int p) {
      return reinterpret_cast<float*>(operand_regions + std::size_t(staged_index(slot, p)) *
                                                            pack_width *
                                                            operand_streams<Load>::first_bytes);
    };
    [[maybe_unused]] auto const keep_values = [&](int p, float const(&x)[pack_width]) {
      float in_input[kept_in_input];
      ROWFUSE_UNROLL
      for (int j = 0; j < kept_in_input; ++j)
        in_input[j] = x[j];
      detail::store_pack<kept_in_input>(reinterpret_cast<float*>(staged_pack(slot, p)), in_input);
      if constexpr (kept_in_operand > 0) {
        float in_operand[kept_in_operand];
        ROWFUSE_UNROLL
        for (int j = 0; j < kept_in_operand; ++j)
          in_operand[j] = x[kept_in_input + j];
        detail::store_pack<kept_in_operand>(kept_words(p), in_operand);
      }
    };
    [[maybe_unused]] auto const kept_values = [&](int p, float(&x)[pack_width]) {
      float in_input[kept_in_input];
      detail::load_pack<kept_in_input>(reinterpret_cast<float const*>(staged_pack(slot, p)),
                                       in_input);
      ROWFUSE_UNROLL
      for (int j = 0; j < kept_in_input; ++j)
        x[j] = in_input[j];
      if constexpr (kept_in_operand > 0) {
        float in_operand[kept_in_operand];
        detail::load_pack<kept_in_operand>(kept_words(p), in_operand);
        ROWFUSE_UNROLL
        for (int j = 0; j < kept_in_operand; ++j)
          x[kept_in_input + j] = in_operand[j];
      }
    };
    // Pack p of a row read back, for a phase: the first phase runs the chain (emitting, where the
    // row is kept, and keeping its values), a later one runs it again or reads the kept values.
    [[maybe_unused]] auto const phase_pack = [&](int p, float(&x)[pack_width], bool first_phase) {
      if constexpr (keeps_values) {
        if (first_phase) {
          reread_pack(p, x, true);
          keep_values(p, x);
        } else {
          kept_values(p, x);
        }
      } else {
        reread_pack(p, x, false);
      }
    };
    // Pack p of a row read back, for the finish: the kept values, or the chain run again, emitting.
    [[maybe_unused]] auto const reread_for_finish = [&](int p, float(&x)[pack_width]) {
      if constexpr (keeps_values)
        kept_values(p, x);
      else
        reread_pack(p, x, true);
    };
    // A phase over a row read back: `phase(x, n)` of each pack as it is read (phase_pack), merged
    // in pack order, so that one pack's values are live at a time (over the whole row at once,
    // ptxas held the row beside the operands and spilled). Every valid pack is full (pack_width |
    // cols where pack_width > 1); a lane with none gives the phase of a zero pack and n = 0, the
    // op's identity.
    [[maybe_unused]] auto const over_slot = [&](auto phase, auto merge, bool first_phase) {
      float x[pack_width] = {};
      bool const any = row_ok && valid_packs > 0;
      if (any)
        phase_pack(0, x, first_phase);
      auto total = phase(x, any ? pack_width : 0);
      ROWFUSE_UNROLL
      for (int p = 1; p < packs_per_thread; ++p) {
        if (row_ok && p < valid_packs) {
          float next[pack_width];
          phase_pack(p, next, first_phase);
          total = merge(total, phase(next, pack_width));
        }
      }
      return total;
    };
    auto const held_values = [&](int p, float(&y)[pack_width]) {
      ROWFUSE_UNROLL
      for (int j = 0; j < pack_width; ++j)
        y[j] = v[p * pack_width + j];
    };

    // A phased row's edge elements of this lane: `finish(y, col, columns, k)` finishes edge k as a
    // pack of one (finish_row's callable, with the edge's own columns), then it is stored.
    [[maybe_unused]] auto const finish_edges = [&](auto finish) {
      if constexpr (phased) {
        ROWFUSE_UNROLL
        for (int k = 0; k < edges_per_lane; ++k) {
          if (k < edge_n) {
            float y[1] = {edge[k]};
            if constexpr (reads_columns<Op, 1>)
              finish(y, edge_col[k], op.template read_columns<1>(edge_col[k]), k);
            else
              finish(y, edge_col[k], detail::no_state{}, k);
            store.template store<1, masks_packs<Load>>(row, edge_col[k], y, store_ctx);
          }
        }
      }
    };
    // finish_edges of a callable of finish_row's (y, col, columns).
    [[maybe_unused]] auto const as_edge_finish = [](auto finish) {
      return
          [finish](auto& y, index_t col0, auto const& columns, int) { finish(y, col0, columns); };
    };

    // Saves the row's statistics, then finishes and stores this lane's packs: `values_of(p, y)`
    // gives pack p's values as the last phase left them, `finish` finishes them.
    // Unguarded (above), every pack is finished and the stores alone are guarded.
    auto const finish_row = [&](auto const& stats, auto values_of, auto finish) {
      if (row_ok && lane == 0)
        op.save(row, stats);
      auto const finish_pack = [&](int p, bool stored) {
        float y[pack_width];
        values_of(p, y);
        if constexpr (two_streams) {
          float gy[pack_width];
          ROWFUSE_UNROLL
          for (int j = 0; j < pack_width; ++j)
            gy[j] = g[p * pack_width + j];
          op.template finish<pack_width>(y, gy, stats, row, col_of(p));
        } else if constexpr (columns_at == column_residence::ahead) {
          columns_t const columns = ahead_columns[p % ahead_packs];
          read_ahead(p + ahead_packs);
          finish(y, col_of(p), columns);
        } else {
          finish(y, col_of(p), columns_of(p));
        }
        if (!stored)
          return;
        if constexpr (draw_store_ahead)
          store.template store<pack_width>(row, col_of(p), y, store_ctx, store_draws[p]);
        else
          store.template store<pack_width, masks_packs<Load>>(row, col_of(p), y, store_ctx);
      };
      if (unguarded) {
        ROWFUSE_UNROLL
        for (int p = 0; p < packs_per_thread; ++p)
          finish_pack(p, row_ok && p < valid_packs);
      } else {
        ROWFUSE_UNROLL
        for (int p = 0; p < packs_per_thread; ++p)
          if (row_ok && p < valid_packs)
            finish_pack(p, true);
      }
    };

    // Peers write into this block's shared memory from the first round on (cluster_exchange).
    if constexpr (cluster_blocks > 1)
      if (step == 0)
        cluster_exchange_ready();
    // One slot: refill it once the first reduction has consumed every value read from it (so
    // those reads have completed before the copies can land); a row read back, once it is
    // finished.
    auto const refill_single_slot = [&] {
      if constexpr (slots == 1)
        stage_row(next_row(), 0);
    };
    // A padded row (padded_phases_op, Config::pads_values) runs the op's loops once over every
    // place, unguarded: the padding past the lane's values counts as none. Otherwise, where a
    // thread of a one-block row holds 32 values, and for the norms' forward loops on cluster rows,
    // the ops' loops have a second, unguarded copy (no compare and select an element) for a warp
    // whose threads' values are all valid (n == packs_per_thread * pack_width on each: every warp
    // but a row's last, on most widths). The choice is the warp's, not the thread's: a warp whose
    // threads chose apart would run both copies one after the other. Elsewhere the second copy
    // spilled or lost (bench/NOTES.md, eighth and forty-ninth sessions).
    constexpr bool norm_forward = reads_columns<Op, pack_width> && !gradient_op<Op>;
    auto const over_values = [&](auto const& loop) {
      if constexpr (padded)
        return loop(packs_per_thread * pack_width);
      else if constexpr ((packs_per_thread * pack_width == 32 && cluster_blocks == 1) ||
                         (cluster_blocks > 1 && norm_forward))
        return __all_sync(0xffffffffu, n == packs_per_thread * pack_width)
                   ? loop(packs_per_thread * pack_width)
                   : loop(n);
      else
        return loop(n);
    };
    if constexpr (two_phase_op<Op>) {
      // A two-phase op's finish of packs of pack_width, or of a phased row's edge element as a pack
      // of one, with the row's `stats`.
      auto const finish_with = [&](auto const& stats) {
        return [&, stats](auto& y, index_t col0, auto const& columns) {
          constexpr int count = int(sizeof(y) / sizeof(float));
          if constexpr (reads_columns<Op, pack_width>)
            op.template finish2<count>(y, stats, row, col0, columns);
          else
            op.template finish2<count>(y, stats, row, col0);
        };
      };
      // The same for the one pass's deviations about a centre (centred_op).
      auto const finish_centred_with = [&](auto const& stats) {
        return [&, stats](auto& y, index_t col0, auto const& columns) {
          if constexpr (centred || centred_group)
            op.template finish_centred<int(sizeof(y) / sizeof(float))>(y, stats, row, col0,
                                                                       columns);
        };
      };
      if constexpr (centred) {
        // One pass over the row read back (centred_rows), about the mean of its first pack; a
        // second about the row's mean where that centre is too far from it (op/norm.cuh).
        auto const merge2 = [&](auto a, auto b) { return op.merge2(a, b); };
        // `first_phase`: the pass that runs the chain (and keeps its values, where it does).
        auto const local_about = [&](float about, bool first_phase) {
          typename Op::running_deviations running;
          ROWFUSE_UNROLL
          for (int p = 0; p < packs_per_thread; ++p) {
            if (row_ok && p < valid_packs) {
              float x[pack_width];
              phase_pack(p, x, first_phase);
              Op::add_deviations(running, x, about);
            }
          }
          auto const packs = Op::total_deviations(running);
          if constexpr (phased) {
            float deviations[edges_per_lane];
            ROWFUSE_UNROLL
            for (int k = 0; k < edges_per_lane; ++k)
              deviations[k] = edge[k];
            return op.merge2(packs, op.deviations_about(deviations, edge_n, about));
          } else {
            return packs;
          }
        };
        float centre = [&] {
          float first_values[pack_width];
          load_context context{false, cols};
          if constexpr (pure_load_chain<Load>)
            load.template transform<pack_width>(centre_raw, row, row_first, first_values, context);
          else
            load.template transform<pack_width>(
                centre_raw, row, row_first, first_values, context,
                operand_streams<Load>::template read_staged<pack_width, phased>(
                    load, row, row_first, centre_operand_regions, centre_region_elements,
                    centre_index(slot)),
                load.template draw<pack_width>(row, row_first, cols));
          return Op::centre_of(first_values);
        }();
        auto const local = local_about(centre, true);
        if (row_ok)
          read_first_ahead();
        auto const reduce_next = [&](auto value) {
          index_t const round = centred_rounds++;
          return reduce_whole_block(value, merge2, shared.second, int(round & 1), round);
        };
        auto total = reduce_next(local);
        // The statistics before the check, so that the check reuses their two divisions.
        auto stats = op.finalize_about(centre, total, cols);
        // The same on every thread of the block (cluster): their totals are bit-identical.
        if (!op.centre_suffices(total, cols)) {
          centre = __fadd_rn(centre, op.centre_shift(total, cols));
          total = reduce_next(local_about(centre, false));
          stats = op.finalize_about(centre, total, cols);
        }
        auto const finished_values = [&](int p, float(&y)[pack_width]) {
          reread_for_finish(p, y);
          Op::recentre(y, centre);
        };
        finish_row(stats, finished_values, finish_centred_with(stats));
        finish_edges([&](auto& y, index_t col0, auto const& columns, int) {
          Op::recentre(y, centre);
          finish_centred_with(stats)(y, col0, columns);
        });
        refill_single_slot();
      } else if constexpr (centred_group) {
        // One pass over the row held, about the mean of its first pack (lane 0's pack 0), a second
        // about the row's mean from the deviations where any group of the warp needs it.
        auto const merge2 = [&](auto a, auto b) { return op.merge2(a, b); };
        float first_values[pack_width];
        ROWFUSE_UNROLL
        for (int j = 0; j < pack_width; ++j)
          first_values[j] = v[j];
        float const centre = __shfl_sync(0xffffffffu, Op::centre_of(first_values), 0, group);
        auto const local_about = [&](float about) {
          return over_values([&](int count) { return op.deviations_about(v, count, about); });
        };
        auto const local = local_about(centre);
        if (row_ok)
          read_first_ahead();
        auto const total = allreduce_in_group(local, group, merge2);
        // The statistics before the check, so that its divisions are finalize_about's.
        auto stats = op.finalize_about(centre, total, cols);
        if (__any_sync(0xffffffffu, !op.centre_suffices(total, cols))) {
          float const shift = op.centre_shift(total, cols);
          stats = op.finalize_about(__fadd_rn(centre, shift),
                                    allreduce_in_group(local_about(shift), group, merge2), cols);
        }
        finish_row(stats, held_values, finish_centred_with(stats));
      } else if constexpr (once) {
        // One exchange a row (shifted_sums_op): phase 1 over the warp, phase 2 about the warp's
        // total, then one round carries both totals of every warp: the row's phase-1 total is
        // theirs folded, its phase-2 sums theirs moved to it and folded. Each warp finishes its
        // values from the row's statistics and its own phase-1 total.
        static_assert(!rereads, "a shifted_sums_op holds its row");
        auto const merge1 = [&](auto a, auto b) { return op.merge1(a, b); };
        auto const merge2 = [&](auto a, auto b) { return op.merge2(a, b); };
        auto const lane_first = [&] {
          auto const packs_first = over_values([&](int count) { return op.phase1(v, count); });
          if constexpr (phased)
            return op.merge1(packs_first, op.phase1(edge, edge_n));
          else
            return packs_first;
        }();
        auto const warp_first = allreduce_in_group(lane_first, 32, merge1);
        refill_single_slot();
        auto const lane_second = [&] {
          auto const packs_second =
              over_values([&](int count) { return op.part_phase2(v, count, warp_first); });
          if constexpr (phased)
            return op.merge2(packs_second, op.part_phase2(edge, edge_n, warp_first));
          else
            return packs_second;
        }();
        auto const warp_second = allreduce_in_group(lane_second, 32, merge2);
        if (row_ok)
          read_first_ahead();
        using exchange = cluster_exchange<warp_phase_totals<Op>, block_threads, cluster_blocks>;
        warp_phase_totals<Op> const* const posted =
            exchange{shared.totals, threads / 32}.gather({warp_first, warp_second}, int(step));
        auto const row_first = exchange::template fold<first_total_t<Op>>(
            [&](int slot) { return posted[slot].first; }, merge1);
        auto const row_second = exchange::template fold<second_total_t<Op>>(
            [&](int slot) {
              return op.sums_about(posted[slot].first, posted[slot].second, row_first);
            },
            merge2);
        auto const stats = op.finalize_shifted(row_first, row_second, warp_first, cols);
        auto const finish = [&](auto& y, index_t col0, auto const&) {
          constexpr int count = int(sizeof(y) / sizeof(float));
          op.template finish_shifted<count>(y, stats, row, col0);
        };
        finish_row(stats.row, held_values, finish);
        finish_edges(as_edge_finish(finish));
      } else {
        // Each phase over the lane's packs (held, or read back from the slot), then a phased row's
        // edge element merged after them.
        auto const merge1 = [&](auto a, auto b) { return op.merge1(a, b); };
        auto const merge2 = [&](auto a, auto b) { return op.merge2(a, b); };
        auto const packs_first = [&] {
          if constexpr (rereads)
            return over_slot([&](float(&x)[pack_width], int count) { return op.phase1(x, count); },
                             merge1, true);
          else
            return over_values([&](int count) { return op.phase1(v, count); });
        };
        auto const first_local = [&] {
          if constexpr (phased)
            return op.merge1(packs_first(), op.phase1(edge, edge_n));
          else
            return packs_first();
        }();
        auto const first_total = reduce(first_local, merge1, shared.first);
        if constexpr (!rereads)
          refill_single_slot();
        auto const packs_second = [&] {
          if constexpr (rereads)
            return over_slot([&](float(&x)[pack_width],
                                 int count) { return op.phase2(x, count, first_total, cols); },
                             merge2, false);
          else
            return over_values([&](int count) { return op.phase2(v, count, first_total, cols); });
        };
        auto const second_local = [&] {
          if constexpr (phased)
            return op.merge2(packs_second(), op.phase2(edge, edge_n, first_total, cols));
          else
            return packs_second();
        }();
        if (row_ok)
          read_first_ahead();
        auto const second_total = reduce(second_local, merge2, shared.second);
        auto const stats = op.finalize2(first_total, second_total, cols);
        auto const finished_values = [&](int p, float(&y)[pack_width]) {
          if constexpr (rereads) {
            reread_for_finish(p, y);
            op.phase2_rewrite(y, first_total, cols);
          } else {
            held_values(p, y);
          }
        };
        auto const finish = finish_with(stats);
        finish_row(stats, finished_values, finish);
        finish_edges(as_edge_finish(finish));
        if constexpr (rereads)
          refill_single_slot();
      }
    } else {
      auto const local = [&] {
        if constexpr (two_streams && phased)
          return op.merge(over_values([&](int count) { return op.local(v, g, count); }),
                          op.local(edge, gradient_edge, edge_n));
        else if constexpr (two_streams)
          return over_values([&](int count) { return op.local(v, g, count); });
        else if constexpr (phased)
          return op.merge(over_values([&](int count) { return op.local(v, count); }),
                          op.local(edge, edge_n));
        else
          return over_values([&](int count) { return op.local(v, count); });
      };
      auto const local_value = local();
      if (row_ok)
        read_first_ahead();
      auto const total = reduce(
          local_value, [&](auto a, auto b) { return op.merge(a, b); }, shared.partials);
      if constexpr (phased && chunked)
        order_chunk_rows();
      if constexpr (sums_shared)
        flush_shared_sums(row, row_ok, step);
      refill_single_slot();
      auto const stats = op.finalize(total, cols);
      // (A gradient_op's finish, which takes the gradient's values, runs in finish_row.)
      // Packs of pack_width, or a phased row's edge element as a pack of one.
      auto const finish = [&](auto& y, index_t col0, auto const& columns) {
        [[maybe_unused]] constexpr int count = int(sizeof(y) / sizeof(float));
        if constexpr (reads_columns<Op, pack_width> && !two_streams)
          op.template finish<count>(y, stats, row, col0, columns);
        else if constexpr (!two_streams)
          op.template finish<count>(y, stats, row, col0);
      };
      finish_row(stats, held_values, finish);
      if constexpr (two_streams)
        finish_edges([&](float(&y)[1], index_t col0, auto const&, int k) {
          float gy[1] = {gradient_edge[k]};
          op.template finish<1>(y, gy, stats, row, col0);
        });
      else
        finish_edges(as_edge_finish(finish));
    }
  }
  flush_amax(store, store_ctx, &shared);
}

} // namespace rowfuse::engine
