// The widths the shape suites sweep: every engine and pack path, each power of two and its odd
// neighbours, and a reduced set for test::small_mode() (one or two per engine and pack path).
#pragma once

#include <span>

#include "support.cuh"

namespace test {

// 40000 and 131072: a cluster row whose lanes hold fewer packs than its shape (40000), and the
// middle cluster row of the 16-bit tables.
inline constexpr long grid_widths[] = {
    1,    2,    3,     7,     31,    32,    33,    127,   128,    129,    511,
    512,  513,  1000,  1023,  1024,  1025,  2047,  2048,  2049,   4095,   4096,
    4097, 8192, 12288, 16384, 16385, 32768, 40000, 65536, 100003, 131072, 262144};
inline constexpr long small_grid_widths[] = {1, 7, 33, 128, 1000, 2049, 8192, 16385, 65536, 100003};

inline std::span<long const> shape_widths() {
  if (small_mode())
    return small_grid_widths;
  return grid_widths;
}

} // namespace test
