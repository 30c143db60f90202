// The numbers behind the plan, one place, each with why it is what it is.
#pragma once

namespace rowfuse::tuning {

/// warp_rows blocks: 4 warps. Small blocks let the grid fill every SM even for few rows, and
/// occupancy (not the block) bounds the rows in flight.
inline constexpr int warp_rows_block_threads = 128;

/// The widest row warp_rows keeps in registers is 32 lanes x warp_rows_max_packs packs: 512
/// fp16 / 256 fp32 columns. Past that a small block beats a warp with more packs a lane: at
/// 1024 fp16 columns, softmax ran at 0.72 of copy with a warp of 4-pack lanes (62 registers)
/// and 0.82 with a 64-thread block of 2-pack threads (46 registers; H200, 2026-11-22,
/// bench/experiments/register_shapes.cu).
inline constexpr int warp_rows_max_packs = 2;

/// block_rows shapes (threads, packs per thread, staged), in order of preference: the first
/// that holds the row. "Staged" copies the next row into shared memory by cp.async while the
/// block reduces the current one (register_config): a block_rows block is one of few on its
/// SM, and without staging its SM's memory traffic stops at every barrier and while the row is
/// reduced. fp16 softmax, ratio to copy, direct -> staged (H100, 2026-11-23,
/// bench/experiments/register_shapes.cu): 1024 cols 64 x 2 0.937 -> 0.918; 2048 128 x 2
/// 0.920 -> 0.909 (small blocks: many per SM already overlap, staging only adds work);
/// 4096 128 x 4 0.878 -> 0.929; 8192 256 x 4 0.858 -> 0.935, 512 x 2 0.758 -> 0.940;
/// 16384 512 x 4 0.785 -> 0.817, 1024 x 2 0.586 -> 0.941; 32768 1024 x 4 0.646 -> 0.922;
/// fp32 16384 1024 x 4 0.941 -> 0.954. Hence 512 x 2 and 1024 x 2 ahead of 256 x 4 and 512 x 4.
/// (Without staging, on the H200 2026-11-22: 128 x 2 beat 256 x 1 and 128 x 4 beat 256 x 2 and
/// 512 x 1; 1024-thread blocks lost to 512 x 4 at 16384.)
struct block_rows_shape_t {
  int threads;
  int packs;
  bool staged;
};
inline constexpr block_rows_shape_t block_rows_shapes[] = {
    {64, 2, false},  {128, 2, false}, {128, 4, true}, {512, 2, true},
    {1024, 2, true}, {1024, 4, true}, {1024, 8, true}};

/// Staging keeps two slots of the next row (one is read while the other fills) up to this many
/// bytes; past it one slot, refilled once the current row's values are in registers (fp32
/// 1024 x 8: 128 KB a slot).
inline constexpr int staging_two_slot_bytes = 160 * 1024;

/// Values one block_rows thread may hold: 32 fp32 registers of row, the rest of the 64 a
/// 1024-thread block allows for addresses and statistics. ptxas spilled (112-byte stack frame)
/// at 64 values in a 1024-thread block.
inline constexpr int block_rows_max_values = 32;

/// Streaming engines: 512 threads, so that two blocks share an SM when their shared memory
/// allows, and one block's reduction overlaps the other's loads.
inline constexpr int streaming_block_threads = 512;

/// block_cluster: 512 threads a block, so that two blocks (two clusters' slices) share an SM
/// where the slices allow (cluster_blocks_for prefers such a cluster size).
inline constexpr int cluster_block_threads = 512;

/// Shared memory kept back from block_smem's row cache for CUB's reduction storage and the
/// static shared memory of the kernel.
inline constexpr int streaming_reserved_smem = 1024;

} // namespace rowfuse::tuning
