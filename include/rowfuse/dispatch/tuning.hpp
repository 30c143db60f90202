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

/// block_rows shapes (threads, packs per thread), in order of preference: the first that holds
/// the row. Measured on the H200 (fp16 softmax, ratio to copy, 2026-11-22, with CUB's
/// three-barrier block reduction): 1024 columns 64 x 2 0.82 (128 x 1: 0.77); 2048: 128 x 2
/// 0.79 (256 x 1: 0.78); 4096: 128 x 4 0.76 (256 x 2: 0.73, 512 x 1: 0.74); 8192: 256 x 4
/// 0.71 (1024 x 1: 0.68, 512 x 2: 0.59); 16384: 512 x 4 0.63 (1024 x 2: 0.48). Fewer
/// registers a thread is not the rule: a 1024-thread block is alone on its SM and stalls it at
/// every barrier. With the one-barrier block_allreduce the chosen shapes ran at 0.85, 0.83,
/// 0.79, 0.74, 0.66 and (32768, 1024 x 4) 0.54.
inline constexpr int block_rows_shapes[][2] = {{64, 2},  {128, 2},  {128, 4}, {256, 4},
                                               {512, 4}, {1024, 4}, {1024, 8}};

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

}  // namespace rowfuse::tuning
