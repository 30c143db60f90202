// The numbers behind the plan, one place, each with why it is what it is.
#pragma once

namespace rowfuse::tuning {

/// warp_rows blocks: 4 warps. Small blocks let the grid fill every SM even for few rows, and
/// occupancy (not the block) bounds the rows in flight.
inline constexpr int warp_rows_block_threads = 128;

/// The widest row warp_rows keeps in registers is 32 lanes x max_packs_per_lane packs: 2048
/// fp16 / 1024 fp32 columns at 8 packs (64 fp16 values, 32 fp32 values per lane). Beyond that
/// a lane holds so many registers that occupancy drops under 50% and block_rows wins.
inline constexpr int warp_rows_max_packs = 8;

/// block_rows shapes (threads, packs per thread), in order of preference: the smallest block
/// that holds the row. 4 packs of 16 bytes per thread are 64 bytes in flight per thread; a
/// 1024-thread block at 8 packs holds 32768 fp32 columns.
inline constexpr int block_rows_shapes[][2] = {{128, 4}, {256, 4}, {512, 4}, {1024, 4}, {1024, 8}};

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
