// The numbers behind the plan, one place, each with why it is what it is.
#pragma once

namespace rowfuse::tuning {

/// warp_rows blocks: 4 warps. Small blocks let the grid fill every SM even for few rows, and
/// occupancy (not the block) bounds the rows in flight.
inline constexpr int warp_rows_block_threads = 128;

/// The widest row warp_rows keeps in registers is 32 lanes x warp_rows_max_packs packs: 1024
/// fp16 / 512 fp32 columns. At 8 packs (64 fp16 values a lane) ptxas used 90-105 registers,
/// ncu showed 24-30% achieved occupancy and 52-59% of DRAM bandwidth at 2048 fp16 columns
/// (H100, 2026-11-22): too few bytes in flight. block_rows with 2 packs a thread does better.
inline constexpr int warp_rows_max_packs = 4;

/// block_rows shapes (threads, packs per thread), in order of preference: the smallest block
/// that holds the row. Measured on the H100 (bench/results/, ratio to copy, fp16 softmax):
/// 2048 columns: 128 x 2 packs 0.79 against warp_rows at 8 packs 0.70; from 4096 up, 4 packs
/// beat 2 (8192 fp32: 512 x 4 0.95 against 1024 x 2 0.61; 16384 fp16: 512 x 4 0.69 against
/// 1024 x 2 0.46): a 1024-thread block is alone on its SM and stalls it at every reduction.
inline constexpr int block_rows_shapes[][2] = {{128, 2}, {128, 4}, {256, 4},
                                               {512, 4}, {1024, 4}, {1024, 8}};

/// Values one block_rows thread may hold: 32 fp32 registers of row, the rest of the 64 a
/// 1024-thread block allows for addresses and statistics. ptxas spilled (112-byte stack frame)
/// at 64 values in a 1024-thread block.
inline constexpr int block_rows_max_values = 32;

/// Streaming engines: 512 threads, so that two blocks share an SM when their shared memory
/// allows, and one block's reduction overlaps the other's loads.
inline constexpr int streaming_block_threads = 512;

/// Shared memory kept back from block_smem's row cache for CUB's reduction storage and the
/// static shared memory of the kernel.
inline constexpr int streaming_reserved_smem = 1024;

}  // namespace rowfuse::tuning
