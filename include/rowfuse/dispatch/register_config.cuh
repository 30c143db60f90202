// A row of the register-shape table (tuning.hpp) as the compile-time Config that
// engine::register_kernel takes: the shape's numbers plus the tuning constants the kernel needs.
#pragma once

#include "../detail/async_copy.cuh"
#include "tuning.hpp"

namespace rowfuse::detail {

/// One register-engine kernel's shape. `WholeBlock`: the row spans the block (and the cluster);
/// otherwise a group of lanes, several rows a block: 1-32 lanes, a power of two chosen at run
/// time, or `RowThreads` threads known at compile time (tuning::register_shape::row_threads).
/// `Staged`: the input's packs travel by cp.async into shared memory (no registers held while in
/// flight; the next row's while the current one is reduced when a block loops), and the load chain
/// runs on the staged values; packs of 4, 8 or 16 bytes only (for others the flag is ignored).
/// Single elements on group rows of `RowThreads` threads, and packs on group rows of 2-16
/// `RowThreads` (on the grid or phased), are staged as the block's flat tile of rows instead
/// (engine/flat_tile.cuh), in 16-byte copies whatever the element's size.
/// `MinBlocksPerSM` caps registers a thread at 64K / (threads x it), as __launch_bounds__ does.
/// `ReadsRowFirst`: single elements narrower than a float are all read before any arithmetic
/// (tuning::register_shape::reads_row_first). `Columns`: where an op's per-column operands wait for
/// their use (tuning::register_shape::columns). `StagesOperands`: a load chain's operand streams
/// are staged beside the input (tuning::register_shape::stages_operands). `Phased`: each row's
/// packs start at its first column on the 16-byte grid, and its edges are single elements
/// (engine/phased_row.cuh), for views whose rows start off the grid. `SizedAtLaunch`: the block
/// (each block of the cluster) has the threads the launch gives it (plan::block_threads: whole
/// warps, fewer than BlockThreads), whole-block rows only; the shape's own threads keep the
/// kernel without it, whose pack and staging offsets are compile-time constants.
/// `SumsFromFirstRow`: a chunk_accumulating_op's running sums kept in registers are set by each
/// chunk's first row instead of starting from -0 (tuning::register_shape::sums_from_first_row).
/// `ExchangesOnce`: cluster rows of an engine::shifted_sums_op reduce both phases in one exchange
/// (tuning::register_shape::exchanges_once).
/// `PadsValues`: an engine::padded_phases_op's phases run over every place, those past a thread's
/// values holding its padding (tuning::register_shape::pads_values, phased_pads_values).
template <int N, int Packs, int BlockThreads, bool WholeBlock, bool Staged = false,
          int ClusterBlocks = 1, int MinBlocksPerSM = 1, bool ReadsRowFirst = true,
          int RowThreads = 0,
          tuning::column_placement Columns = tuning::column_placement::per_engine,
          bool StagesOperands = false, bool Phased = false, bool SizedAtLaunch = false,
          bool SumsFromFirstRow = false, bool ExchangesOnce = false, bool PadsValues = false>
struct register_config {
  static_assert(ClusterBlocks == 1 || WholeBlock, "a cluster holds whole-block rows");
  static_assert(!SizedAtLaunch || WholeBlock, "the launch sizes the blocks of whole-block rows");
  static_assert(!ExchangesOnce || ClusterBlocks > 1, "only cluster rows exchange");
  static_assert(RowThreads == 0 || !WholeBlock, "threads a row are a group row's shape");
  static_assert(BlockThreads % 32 == 0, "a block holds whole warps");
  static_assert(RowThreads >= 0 && (RowThreads & (RowThreads - 1)) == 0 &&
                    BlockThreads % (RowThreads > 0 ? RowThreads : 1) == 0,
                "a row takes a power of two of threads, and a block whole rows");
  static_assert(!(Staged && N == 1 && !WholeBlock) || RowThreads > 0,
                "a flat tile of single elements holds the rows of a group known at compile time");
  static_assert(ClusterBlocks >= 1 && ClusterBlocks <= 16 &&
                    (ClusterBlocks & (ClusterBlocks - 1)) == 0,
                "a cluster has 1, 2, 4, 8 or 16 blocks");
  static constexpr int pack = N;
  static constexpr int packs = Packs;
  static constexpr int block_threads = BlockThreads;
  static constexpr bool whole_block = WholeBlock;
  static constexpr int cluster_blocks = ClusterBlocks;
  static constexpr int min_blocks_per_sm = MinBlocksPerSM;
  static constexpr bool reads_row_first = ReadsRowFirst;
  static constexpr int row_threads = RowThreads;
  static constexpr bool columns_in_shared = Columns == tuning::column_placement::shared;
  /// The row read back from its staging slot at each phase and at the finish, the operands held
  /// with it (or kept across rows: engine::column_residence_of), where the kernel can
  /// (engine::rereads_staged_row); read ahead elsewhere.
  static constexpr bool rereads_row = Columns == tuning::column_placement::held;
  static constexpr int columns_ahead =
      Columns == tuning::column_placement::ahead || rereads_row ? tuning::columns_ahead_packs : 0;
  static constexpr int kept_column_values = tuning::kept_column_values;
  static constexpr int staged_gradient_max_bytes = tuning::staged_gradient_max_bytes;
  static constexpr bool stages_operands = StagesOperands;
  static constexpr bool phased = Phased;
  static constexpr bool sized_at_launch = SizedAtLaunch;
  static constexpr bool sums_from_first_row = SumsFromFirstRow;
  static constexpr bool exchanges_once = ExchangesOnce;
  static constexpr bool pads_values = PadsValues;
  /// Whether a thread keeps `sum_values` running chunk sums in registers (tuning.hpp).
  static constexpr bool keeps_chunk_sums(int sum_values) {
    bool const capped = 65536 / (BlockThreads * MinBlocksPerSM) < 255;
    return sum_values <= tuning::kept_chunk_sum_values &&
           (!capped || (sum_values <= tuning::kept_chunk_sum_values_capped && Packs <= 2));
  }

  /// The block's rows staged as one flat tile (engine::flat_tile): rows of single elements, and
  /// rows of packs on a group narrower than a warp, whose loads of a pack, each lane its own,
  /// would touch 32 / RowThreads rows a warp instruction and 16 x RowThreads bytes of each, where
  /// a copy's loads fill whole lines (lane_layout.cu; bench/NOTES.md, fifty-second session: a
  /// copy in that layout at 64 16-bit columns on two lanes ran 0.84 of a memcpy).
  static constexpr bool stages_flat =
      Staged && !WholeBlock && (N == 1 || (RowThreads > 1 && RowThreads < 32));
  /// A phased row's edge elements a lane (engine/phased_row.cuh: at most 2N - 2 a row): one on
  /// whole-block rows and groups chosen at run time, which the plan gives 2N - 2 lanes or more;
  /// on a compile-time group of fewer lanes, as many as spread them over it.
  static constexpr int edges_per_lane =
      !Phased || WholeBlock || RowThreads == 0 ? 1 : (2 * N - 2 + RowThreads - 1) / RowThreads;
  /// Each thread's packs staged in its own slots.
  template <class T>
  static constexpr bool staged = Staged && !stages_flat && async_copy_size_ok<T, N>;
  /// One slot holds a row's packs of every stream that travels through it: the input's, a
  /// gradient op's second stream, a load chain's operand streams (engine::staged_streams);
  /// `element_bytes` is one element of each, together.
  static constexpr int slot_bytes(int element_bytes) {
    return Packs * BlockThreads * N * element_bytes;
  }
  /// Two slots (one read while the other fills) where they fit tuning::staging_two_slot_bytes.
  static constexpr int staging_slots(int element_bytes) {
    return 2 * slot_bytes(element_bytes) <= tuning::staging_two_slot_bytes ? 2 : 1;
  }
  /// Dynamic shared memory of the staging slots.
  static constexpr int staging_bytes(int element_bytes) {
    return staging_slots(element_bytes) * slot_bytes(element_bytes);
  }
};

} // namespace rowfuse::detail
