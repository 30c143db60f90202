// Which rows of a register-shape table one call compiles kernels for: those that the widths of
// its compile-time column bound (cols_range) can plan. Host code: the launcher instantiates the
// rows it marks (launch.cuh), the planner chooses a forced engine's row among them (try_plan),
// and the host tests check that every automatic plan finds its row compiled.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>

#include "../detail/config.hpp"
#include "tuning.hpp"

namespace rowfuse {

/// A bound on the widths one call site will see, known at compile time: the call then
/// instantiates only the kernels its automatic plans take for those widths (a call outside the
/// bound throws rowfuse::error; a forced engine runs on the kernels the bound compiled).
/// `rf::softmax<rf::cols_range{1, 4096}>(load, store)`.
struct cols_range {
  index_t min = 1;
  index_t max = index_t(1) << 62;
};

/// Every width: the default.
inline constexpr cols_range any_cols{};

} // namespace rowfuse

namespace rowfuse::detail {

/// Whether row `row` of `table` (packs of `pack`) can plan a width inside `range`, in aligned or
/// (`phased`) phased plans. The automatic plan takes a row for the widths up to its max_cols
/// above the previous row's that those plans take (rows for devices of wide memory,
/// tuning::with_wide_memory_rows, plan aligned rows on the devices that take them alone, and
/// phased rows there at the same widths where they have a phased kernel; which devices those are
/// is the plan's, so a call compiles them for every device; rows for phased plans,
/// tuning::for_phased_rows, phased rows alone). Automatic phased plans also take whole-block rows
/// and group rows of a run-time group, not for devices of wide memory alone, for the whole packs
/// of a width up to the row's capacity (try_phased_plan: take_phased_shape, narrow_phased_shape),
/// so their phased kernels are compiled for every width up to it. Every other kernel is compiled
/// for its automatic widths alone: a forced engine under a bound takes the rows compiled for it
/// (try_plan's `compiled`), and a forced phased plan without its kernel falls back to the
/// single-element plan, as where its row has no phased kernel (run_op).
constexpr bool admitted(std::span<tuning::register_shape const> table, std::size_t row, int pack,
                        cols_range range, bool phased) {
  index_t lowest = 1;
  for (std::size_t before = row; before-- > 0;) {
    // A row for devices of wide memory takes its widths on the grid in phased plans too, so only
    // aligned plans and its phased plans pass the rows for phased plans alone by.
    bool const passed_by = (table[before].wide_memory_only && !table[row].wide_memory_only) ||
                           (table[before].phased_only && (!phased || table[row].wide_memory_only));
    if (!passed_by) {
      lowest = table[before].max_cols + 1;
      break;
    }
  }
  tuning::register_shape const& shape = table[row];
  bool const by_capacity =
      phased && !shape.wide_memory_only && (shape.whole_block || shape.row_threads == 0);
  index_t const highest =
      by_capacity ? std::max(shape.max_cols, tuning::capacity(shape, pack)) : shape.max_cols;
  // A phased plan takes the row that holds a width's whole packs.
  index_t const narrowest = phased ? range.min / pack * pack : range.min;
  return range.max >= lowest && narrowest <= highest;
}

/// Whether row `row` has a kernel for phased rows (`phased`) or aligned ones (every row but those
/// for phased plans alone) in a call bounded by `range`.
constexpr bool row_has_kernel(std::span<tuning::register_shape const> table, std::size_t row,
                              int pack, cols_range range, bool phased) {
  return admitted(table, row, pack, range, phased) &&
         (phased ? table[row].has_phased_kernel : !table[row].phased_only);
}

/// Whether two rows' kernels take the same paths through engine::register_kernel: every property
/// of register_config that selects code rather than sizes it, the classes of the numbers that do
/// (one block or a cluster, and clusters of four or more, which keep a staged row's columns; no
/// compile-time group, a lane, a flat tile's 2-16 lanes, or whole warps), and whether a phased
/// kernel pads its values.
constexpr bool same_kernel_paths(tuning::register_shape const& a, tuning::register_shape const& b) {
  auto const cluster_class = [](int blocks) { return blocks == 1 ? 0 : blocks < 4 ? 1 : 2; };
  auto const group_class = [](int threads) {
    return threads == 0 ? 0 : threads == 1 ? 1 : threads < 32 ? 2 : 3;
  };
  return a.whole_block == b.whole_block &&
         cluster_class(a.cluster_blocks) == cluster_class(b.cluster_blocks) &&
         a.staged == b.staged && a.reads_row_first == b.reads_row_first &&
         group_class(a.row_threads) == group_class(b.row_threads) && a.columns == b.columns &&
         a.stages_operands == b.stages_operands && a.sized_at_launch == b.sized_at_launch &&
         a.sums_from_first_row == b.sums_from_first_row && a.exchanges_once == b.exchanges_once &&
         a.pads_values == b.pads_values && a.phased_pads_values == b.phased_pads_values;
}

/// Whether row `row` has a kernel in a call bounded by `range` (row_has_kernel) and no row before
/// it with one takes the same paths (same_kernel_paths): the rows a compile check instantiates.
constexpr bool first_of_its_paths(std::span<tuning::register_shape const> table, std::size_t row,
                                  int pack, cols_range range, bool phased) {
  if (!row_has_kernel(table, row, pack, range, phased))
    return false;
  for (std::size_t before = 0; before < row; ++before)
    if (row_has_kernel(table, before, pack, range, phased) &&
        same_kernel_paths(table[before], table[row]))
      return false;
  return true;
}

/// Whether a call bounded by `range` instantiates row `row`'s kernel: every row with one
/// (row_has_kernel). A build that only checks that the kernels compile and never runs them
/// (ROWFUSE_COMPILE_CHECK_KERNELS: the GPU tests and rowfuse-bench where configure finds no GPU,
/// tests/ and bench/CMakeLists.txt) instantiates the first row of each set of paths alone
/// (first_of_its_paths): each path of the engine a call can take is compiled once, at about half
/// the kernels (gpu_sized_blocks: 497 of 1071), and a plan on any other row throws
/// rowfuse::error, as one outside a cols_range does.
constexpr bool compiled_row(std::span<tuning::register_shape const> table, std::size_t row,
                            int pack, cols_range range, bool phased) {
#ifdef ROWFUSE_COMPILE_CHECK_KERNELS
  return first_of_its_paths(table, row, pack, range, phased);
#else
  return row_has_kernel(table, row, pack, range, phased);
#endif
}

/// Which rows of Table (packs of N) a call bounded by Range instantiates kernels for, phased or
/// aligned.
template <auto const& Table, int N, cols_range Range, bool Phased = false>
constexpr auto compiled_rows() {
  std::array<bool, std::size(Table)> rows{};
  for (std::size_t i = 0; i < std::size(Table); ++i)
    rows[i] = compiled_row(Table, i, N, Range, Phased);
  return rows;
}

/// Whether rows wider than every register shape (the streaming and cluster engines) can occur.
template <auto const& Table, int N, cols_range Range> constexpr bool past_registers() {
  index_t widest = 0;
  for (auto const& s : Table)
    widest = std::max(widest, std::max(s.max_cols, tuning::capacity(s, N)));
  return Range.max > widest;
}

} // namespace rowfuse::detail
