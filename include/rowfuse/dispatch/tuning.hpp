// The numbers behind the plan, one place, each with the measurement that chose it.
#pragma once

#include <array>
#include <cstddef>

#include "../detail/config.hpp"

namespace rowfuse::tuning {

/// Where a register shape holds an op's per-column operands (engine::column_residence):
///  - per_engine: on cluster rows read with the row's input and held in registers through the
///    exchanges; elsewhere read where each pack is finished;
///  - shared: read once a block and kept in shared memory. Frees their registers, but takes L1
///    that the row's loads land in: it won where the registers bought a resident block (rmsnorm
///    fp32 at 262144 columns: 0.85 -> 0.95) and lost 0.2 on shapes that did not spill (fifteenth
///    session, bench/NOTES.md);
///  - ahead: read columns_ahead_packs packs ahead of the pack being finished, the first ones just
///    before the row's last reduction: their latency hides behind that reduction and the finish
///    of the packs before them, and they hold registers for two packs, not for the row. Won
///    where per_engine spills (layernorm 16-bit on cluster rows: 0.56-0.73 -> 0.67-0.81; fp32 at
///    131072-262144 columns under a cap of 64 registers: 0.69-0.84 -> 0.86-0.93) and lost
///    0.05-0.2 where it does not (rmsnorm's cluster rows, layernorm's group rows; round 15,
///    sixteenth session);
///  - held: read with the row's input and held in registers to the finish, while the row itself
///    is not held: its input stays in the staging slot (a staged whole-block shape) and is read
///    from there, through the load chain again (a chain that is not pure: once, its values kept
///    in the slot, engine::keeps_chain_values), for each phase and for the finish, so that the
///    row's registers go to the operands (QuACK's layout past 16K columns); on 16-bit rows under
///    a bare load chain in clusters of four blocks or more, read once and kept across rows
///    (engine::column_residence_of). Only for load chains
///    that can run again (engine::replayable_load_chain) and ops whose second phase rewrites the
///    row from its values and the first total alone (engine::rewrites_row); elsewhere the shape
///    reads them ahead, as `ahead`.
enum class column_placement { per_engine, shared, ahead, held };

/// Packs an `ahead` shape reads ahead (round 15, sixteenth session: two packs ran 0.00-0.03 above
/// four on layernorm's cluster rows, and four spilled under caps of 64-80 registers).
inline constexpr int columns_ahead_packs = 2;

/// The DRAM bandwidth, in bytes a cycle of all of a device's SMs together, from which the plan
/// takes the rows marked wide_memory_only but those marked on_h100_too
/// (device_info::dram_bytes_per_sm_cycle, register_shape::wide_memory_from): an H200 moves
/// 15.7 (4.1 TB/s at its memory clock over 132 SMs at 1.98 GHz), an H100 SXM 12.8 (3.35 TB/s).
/// At a copy's speed an element has about 0.7 of an H100's issue slots on an H200 (copies measured
/// at 4.1-4.25 and 3.0 TB/s, the same SMs and clock), and the pipelines that
/// draw dropout are issue-bound there (bench/NOTES.md, forty-fourth session): shapes that hold
/// more values a thread, which spread a row's fixed work over more elements, win there and lose
/// on an H100 (forty-fifth session).
inline constexpr double wide_memory_bytes_per_cycle = 14.0;

/// The DRAM bandwidth from which the plan takes the rows for devices of wide memory that were
/// measured to win on an H100 too (on_h100_too): an H100 SXM moves 12.8 bytes a cycle.
inline constexpr double h100_memory_bytes_per_cycle = 12.0;

/// One register-engine shape (engine/register_engine.cuh), for rows of up to `max_cols`.
///  - group rows: a group of up to 32 lanes a row (the plan picks the smallest power of two that
///    holds the row at `packs` a lane), block_threads / group rows a block;
///  - whole-block rows: the row spans the block, or a cluster of `cluster_blocks` blocks;
///  - packs: a thread's packs, any number: threads, warps a row and blocks a cluster are powers
///    of two, so five and six packs a thread hold 5/8 and 3/4 of the next power of two (the 16-bit
///    rows between the powers of two: bench/NOTES.md, thirty-first session);
///  - staged: the input travels by cp.async through shared memory;
///  - persistent: a grid of resident blocks that loop over the row tiles (staging the next row
///    while reducing this one) instead of one block a tile;
///  - min_blocks_per_sm: __launch_bounds__' second number (a register cap);
///  - reads_row_first: single elements narrower than a float (the 16-bit single-element tables)
///    are all read before any arithmetic; otherwise each is read in the transform loop
///    (engine/register_engine.cuh's inputs_first). Ignored for packs and fp32;
///  - row_threads: group rows of exactly that many threads (a power of two: 2-16 lanes of a
///    warp, or whole warps), the group a compile-time constant whatever the width (narrower rows
///    leave lanes idle), block_threads / row_threads rows a block; 0: a group of 1-32 lanes, the
///    plan's power of two at run time. With a run-time group every access recomputes its address
///    from the group (16-20 instructions and a branch an element); with the group known it is
///    [base + immediate] (single 16-bit elements at 1000 columns, a warp of 32 a lane: 0.27 ->
///    0.86, thirteenth session). Rows of a warp or less reduce by shuffles; rows of two or more
///    warps across them through shared memory, one barrier a reduction for the block's rows
///    together, so that a block moves several rows' bytes where one whole-block row would be too
///    small a block;
///  - columns: where an op's per-column operands (the norms' gamma and beta) wait between their
///    loads and their use (column_placement). Ignored where a thread holds few values
///    (kept_column_values), which keeps them in registers across rows;
///  - stages_operands: a staged shape copies a load chain's operand streams (rf::add's residual,
///    rf::mask's mask: engine::operand_streams) into its staging slots beside the input, instead
///    of reading them straight to registers at the top of each row. Set where it was measured to
///    win: on the residual block's staged shapes (pipeline_shapes.cu, twenty-first session) it
///    gained up to 0.12 on most and lost up to 0.16 on others (bench/NOTES.md);
///  - phased_min_blocks_per_sm: the register cap of the row's phased kernel (plan::phased: rows off
///    the 16-byte grid), where it differs from min_blocks_per_sm (0: the same cap). That kernel
///    holds each row's edge elements and phase beside the packs, and ptxas gives it up to 32
///    registers more than the aligned one (the norms' backward: up to 46), which on some rows
///    costs it a resident block the aligned kernel has; a cap there (phased_capped) keeps the block
///    and leaves the aligned kernel as it is. Where the aligned cap would make it spill, a looser
///    one (fewer blocks) lets it hold its values;
///  - has_phased_kernel: false where the row has no phased kernel (unphased): rows off the grid
///    that it would take run single elements, where those were measured faster;
///  - phased_passes_by: phased plans pass the row by (it has no phased kernel) for the first
///    block row, then cluster row, that holds the packs and has one (phased_elsewhere), where
///    those were measured faster off the grid than the row's own phased kernel;
///  - sized_at_launch: a whole-block row (packs wider than an element; of one block or of a
///    cluster's) whose rows filling at most sized_fill_eighths / 8 of its capacity run on a twin
///    kernel whose blocks the launch sizes: the fewest whole warps a block that hold the row at
///    `packs` a thread over the shape's blocks. A width a little past the table's row before
///    takes a shape of twice its capacity; on its own threads each holds half its packs, and the
///    registers of the other half cost blocks an SM. The twin's pack and staging offsets are
///    run-time products (ptxas gives it 0-44 registers more, and spills under the tightest caps),
///    so it is set where it was measured to win (sized, bench/NOTES.md, twenty-eighth and
///    twenty-ninth sessions: 16-bit, softmax 8200 columns 0.76 -> 0.85, layernorm 0.70 -> 0.89,
///    rmsnorm 40960 0.83 -> 0.94 in clusters of 4);
///  - sized_min_blocks_per_sm: the register cap of the row's sized twins (aligned and phased),
///    where it differs from theirs (0: the same cap);
///  - sums_from_first_row: the norms' backward keeps its dgamma / dbeta chunk sums in registers
///    set by each chunk's first row (a select a term: op::norm_backward::prepare) instead of
///    starting from -0 (one add a term fewer, two for layernorm). Both give the same bits. Set
///    where the second form lost (forty-third session, H200, bench/NOTES.md): on most rows it won
///    (layernorm backward fp16 at 2048 / 4096 columns +0.08, its 24 bytes of spill gone), but on
///    some 64-register kernels ptxas spilled more with it (layernorm fp32 cluster rows 12 -> 64
///    bytes: -0.06 to -0.07 of a copy), and a row shared by two ops can go either way;
///  - wide_memory_only: a row for devices of wide memory alone (wide_memory_bytes_per_cycle),
///    measured on one (an H200) against the rows an H100 plans from, which keep their widths on
///    other devices: the plan passes it by there and in phased plans (for_wide_memory,
///    with_wide_memory_rows);
///  - wide_memory_from: the DRAM bandwidth from which a device takes a wide_memory_only row:
///    wide_memory_bytes_per_cycle, or an H100's where the row was measured to win there too
///    against the H100's own rows (on_h100_too; sixty-ninth session, bench/NOTES.md). A device
///    below it passes the row by as above;
///  - narrow_memory_past_cols: where a device under wide_memory_bytes_per_cycle takes such a row
///    (from wide_memory_from on), it takes it only for rows of more columns than this
///    (on_h100_past; 0: at every width). A run of such rows can then be taken on an H100 without
///    its narrowest row, whose widths keep the H100's own (log-softmax's narrow run: seventieth
///    session);
///  - exchanges_once: cluster rows of an op whose two reductions can be one
///    (engine::shifted_sums_op: softmax, log-softmax) exchange once a row, each warp's phase 2
///    taken about its own phase-1 total, instead of once a phase (exchanging_once). Set where it
///    was measured to win (forty-sixth session, H200, row_shapes.cu round 38): under register
///    caps of three blocks of 256 threads it left ptxas 8 bytes of spill where the two rounds
///    spilled 80 (softmax fp16 32768 columns on 8 x 256 in 2: 0.81 -> 0.96), but on staged
///    persistent clusters it lost 0.02-0.06;
///  - phased_only: a row for phased plans alone (for_phased_rows): rows off the 16-byte grid
///    whose views start each row equally far off it; it has no kernel for aligned rows, which
///    plan as if it were not there. Such rows on compile-time groups stand first in their table;
///    a whole-block one stands right before a row of its width and engine that has no phased
///    kernel (unphased), and holds that row's phased plans, automatic, forced or bounded
///    (rmsnorm's 6 x 256 rows: staged persistent off the grid, read straight on it), or, where no
///    other row of its width can take a phased plan (rows for devices of wide memory alone without
///    a phased kernel may), alone, and takes the phased plans of the widths above the row of its
///    engine before it (layernorm's 49152-column row).
///  - pads_values, phased_pads_values: the row's aligned kernels (with their sized twins), and its
///    phased kernels, fill a thread's places past its values with the op's padding and run the
///    op's phases over every place, without a compare an element (engine::padded_phases_op:
///    softmax, log-softmax; other ops ignore it), where otherwise the phases are guarded by each
///    thread's count (and one-block rows of 32 values a thread, and the norms' cluster rows, take
///    a second, unguarded copy for warps of full threads). Same operations on the real values in
///    the same order, so the same bits. Set where it was measured to win (padded, padded_phased;
///    fifty-ninth session, H200, bench/NOTES.md): on most rows that a width fills only in part
///    (200, 456, 776, 3080, 24584, 98312 columns, 16-bit) the phases lost a compare and a predicate
///    an element and softmax gained 0.04-0.08 of a copy, but on some rows ptxas, given the
///    unguarded loops, took up to twice the registers (log-softmax 16-bit at 131072 columns: 104
///    -> 223, one block an SM where it had two; -0.12) or spilled under a cap. The attention
///    pipeline's rows gained 0.01-0.06 on all but one (its 16384-column row for devices of wide
///    memory: -0.10);
struct register_shape {
  index_t max_cols;
  int packs;
  int block_threads;
  bool whole_block;
  int cluster_blocks;
  bool staged;
  bool persistent;
  int min_blocks_per_sm;
  bool reads_row_first = true;
  int row_threads = 0;
  column_placement columns = column_placement::per_engine;
  bool stages_operands = false;
  int phased_min_blocks_per_sm = 0;
  bool sized_at_launch = false;
  int sized_min_blocks_per_sm = 0;
  bool has_phased_kernel = true;
  bool phased_passes_by = false;
  bool sums_from_first_row = false;
  bool wide_memory_only = false;
  double wide_memory_from = wide_memory_bytes_per_cycle;
  index_t narrow_memory_past_cols = 0;
  bool exchanges_once = false;
  bool phased_only = false;
  bool pads_values = false;
  bool phased_pads_values = false;

  constexpr bool operator==(register_shape const&) const = default;
};

/// The most a row may fill a sized_at_launch shape, in eighths of its capacity, for the launch
/// to size its block; fuller rows take the shape's threads. Measured (16-bit, twenty-eighth
/// session): at 5/8 (5120 and 10240 columns) the twin won on every sized row (log-softmax at
/// 10240 0.79 -> 0.98); at 6/8 (12288) softmax lost 0.94 -> 0.83 and log-softmax 0.90 -> 0.83.
inline constexpr int sized_fill_eighths = 5;

/// `row` with a twin kernel on blocks the launch sizes (register_shape::sized_at_launch),
/// compiled for `min_blocks` blocks an SM where it is not 0 (register_shape::
/// sized_min_blocks_per_sm).
constexpr register_shape sized(register_shape row, int min_blocks = 0) {
  row.sized_at_launch = true;
  row.sized_min_blocks_per_sm = min_blocks;
  return row;
}

/// `row` with its phased kernel compiled for `min_blocks` blocks an SM (register_shape::
/// phased_min_blocks_per_sm).
constexpr register_shape phased_capped(register_shape row, int min_blocks) {
  row.phased_min_blocks_per_sm = min_blocks;
  return row;
}

/// `row` with the norms' backward chunk sums set by each chunk's first row
/// (register_shape::sums_from_first_row).
constexpr register_shape sums_from_first_row(register_shape row) {
  row.sums_from_first_row = true;
  return row;
}

/// `row` without a phased kernel (register_shape::has_phased_kernel).
constexpr register_shape unphased(register_shape row) {
  row.has_phased_kernel = false;
  return row;
}

/// `row` without a phased kernel, passed by for another row's (register_shape::phased_passes_by).
constexpr register_shape phased_elsewhere(register_shape row) {
  row.has_phased_kernel = false;
  row.phased_passes_by = true;
  return row;
}

/// `row` for devices of wide memory alone (register_shape::wide_memory_only), with no phased
/// kernel: rows off the 16-byte grid plan as on other devices.
constexpr register_shape for_wide_memory(register_shape row) {
  row.wide_memory_only = true;
  row.has_phased_kernel = false;
  return row;
}

/// `row` for devices of wide memory alone, with a phased kernel: on such a device rows off the
/// 16-byte grid take it at its widths as rows on the grid do; elsewhere they plan as on other
/// devices.
constexpr register_shape for_wide_memory_phased(register_shape row) {
  row.wide_memory_only = true;
  return row;
}

/// `row`, a row for devices of wide memory, taken from an H100's memory bandwidth on
/// (register_shape::wide_memory_from): where it won on an H100 too, against the rows the H100
/// took at its widths (V53, sixty-eighth session; the set as marked, V55, sixty-ninth). The rows of
/// one run of such rows before an H100 row are taken from the narrowest on, so that where one is
/// not taken the H100 plans the widths it would have taken from its own row as before.
constexpr register_shape on_h100_too(register_shape row) {
  if (!row.wide_memory_only)
    throw "on_h100_too: only a row for devices of wide memory";
  row.wide_memory_from = h100_memory_bytes_per_cycle;
  return row;
}

/// `row`, marked on_h100_too, taken on a device under wide_memory_bytes_per_cycle (an H100) only
/// for rows of more than `cols` columns (register_shape::narrow_memory_past_cols): for the rows of
/// a run that won there but for the widths to `cols`, which keep the H100's own row.
constexpr register_shape on_h100_past(register_shape row, index_t cols) {
  row = on_h100_too(row);
  row.narrow_memory_past_cols = cols;
  return row;
}

/// `row` for phased plans alone (register_shape::phased_only).
constexpr register_shape for_phased_rows(register_shape row) {
  row.phased_only = true;
  return row;
}

/// `row`, a cluster row, exchanging once a row (register_shape::exchanges_once).
constexpr register_shape exchanging_once(register_shape row) {
  if (row.cluster_blocks < 2)
    throw "exchanging_once: only cluster rows exchange";
  row.exchanges_once = true;
  return row;
}

/// `row` with its aligned kernels' phases over padded places (register_shape::pads_values).
constexpr register_shape padded(register_shape row) {
  row.pads_values = true;
  return row;
}

/// `row` with its phased kernels' phases over padded places (register_shape::phased_pads_values).
constexpr register_shape padded_phased(register_shape row) {
  row.phased_pads_values = true;
  return row;
}

/// Columns one shape can hold at `pack` elements a pack.
constexpr index_t capacity(register_shape const& s, int pack) {
  index_t const group = s.whole_block       ? s.block_threads * s.cluster_blocks
                        : s.row_threads > 0 ? s.row_threads
                                            : 32;
  return group * s.packs * pack;
}

/// `base` with some of its rows replaced: each row of `replacing` takes the place of the one row
/// of `base` with the same max_cols and engine (group, whole-block or cluster rows), for an op
/// that shares another's table but at a few measured widths. A row that replaces none, or more
/// than one, does not compile.
template <std::size_t Size, std::size_t Replacing>
constexpr std::array<register_shape, Size>
replace_rows(std::array<register_shape, Size> rows, register_shape const (&replacing)[Replacing]) {
  for (register_shape const& row : replacing) {
    int replaced = 0;
    for (register_shape& old : rows) {
      if (old.max_cols == row.max_cols && old.whole_block == row.whole_block &&
          (old.cluster_blocks > 1) == (row.cluster_blocks > 1)) {
        old = row;
        ++replaced;
      }
    }
    if (replaced != 1)
      throw "replace_rows: each row must replace one row of the same width and engine";
  }
  return rows;
}
template <std::size_t Size, std::size_t Replacing>
constexpr std::array<register_shape, Size>
replace_rows(register_shape const (&base)[Size], register_shape const (&replacing)[Replacing]) {
  return replace_rows(std::to_array(base), replacing);
}

/// `narrow`'s rows, then `wide`'s: for two ops' tables that share their wide rows. Either may be
/// a table (an array of rows) or a braced list of rows.
template <std::size_t Narrow, std::size_t Wide>
constexpr std::array<register_shape, Narrow + Wide>
join_rows(std::array<register_shape, Narrow> const& narrow,
          std::array<register_shape, Wide> const& wide) {
  std::array<register_shape, Narrow + Wide> rows{};
  for (std::size_t i = 0; i < Narrow; ++i)
    rows[i] = narrow[i];
  for (std::size_t i = 0; i < Wide; ++i)
    rows[Narrow + i] = wide[i];
  return rows;
}
template <std::size_t Narrow, std::size_t Wide>
constexpr std::array<register_shape, Narrow + Wide>
join_rows(std::array<register_shape, Narrow> const& narrow, register_shape const (&wide)[Wide]) {
  return join_rows(narrow, std::to_array(wide));
}
template <std::size_t Narrow, std::size_t Wide>
constexpr std::array<register_shape, Narrow + Wide>
join_rows(register_shape const (&narrow)[Narrow], register_shape const (&wide)[Wide]) {
  return join_rows(std::to_array(narrow), std::to_array(wide));
}
template <std::size_t Narrow, std::size_t Wide>
constexpr std::array<register_shape, Narrow + Wide>
join_rows(register_shape const (&narrow)[Narrow], std::array<register_shape, Wide> const& wide) {
  return join_rows(std::to_array(narrow), wide);
}

namespace detail {
/// `rows` with each row of `inserted` inserted before the first row of greater max_cols, or
/// (`before_its_width`) before the first whose max_cols reaches its own.
template <std::size_t Size, std::size_t Inserted>
constexpr std::array<register_shape, Size + Inserted>
rows_with(std::array<register_shape, Size> const& rows, register_shape const (&inserted)[Inserted],
          bool before_its_width) {
  std::array<register_shape, Size + Inserted> out{};
  std::size_t size = Size;
  for (std::size_t i = 0; i < Size; ++i)
    out[i] = rows[i];
  for (register_shape const& row : inserted) {
    std::size_t at = 0;
    while (at < size && out[at].phased_only) // the rows for phased plans alone that lead stay so
      ++at;
    while (at < size &&
           (before_its_width ? out[at].max_cols < row.max_cols : out[at].max_cols <= row.max_cols))
      ++at;
    for (std::size_t i = size; i > at; --i)
      out[i] = out[i - 1];
    out[at] = row;
    ++size;
  }
  return out;
}
} // namespace detail

/// `rows` with each row of `inserted` inserted before the first row of greater max_cols, for an
/// op that takes another's table and rows of its own.
template <std::size_t Size, std::size_t Inserted>
constexpr std::array<register_shape, Size + Inserted>
insert_rows(std::array<register_shape, Size> const& rows,
            register_shape const (&inserted)[Inserted]) {
  return detail::rows_with(rows, inserted, false);
}

/// `rows` with each row of `wide` (for_wide_memory rows) inserted before the first row whose
/// max_cols reaches its own, so that on a device of wide memory the plan, which takes the first row
/// in table order that holds the width, takes it where it would take that row (whatever its
/// engine: a cluster row may stand before a block row of its width). A row not marked
/// for_wide_memory does not compile.
template <std::size_t Size, std::size_t Wide>
constexpr std::array<register_shape, Size + Wide>
with_wide_memory_rows(std::array<register_shape, Size> const& rows,
                      register_shape const (&wide)[Wide]) {
  for (register_shape const& row : wide)
    if (!row.wide_memory_only)
      throw "with_wide_memory_rows: each row must be marked for_wide_memory";
  return detail::rows_with(rows, wide, true);
}
template <std::size_t Size, std::size_t Wide>
constexpr std::array<register_shape, Size + Wide>
with_wide_memory_rows(register_shape const (&rows)[Size], register_shape const (&wide)[Wide]) {
  return with_wide_memory_rows(std::to_array(rows), wide);
}

/// `rows` after `phased` (for_phased_rows rows, for phased plans alone): a phased plan takes the
/// first of them that holds its whole packs before any of `rows`, and aligned plans pass them by.
template <std::size_t Phased, class Rows>
constexpr auto with_phased_rows(std::array<register_shape, Phased> const& phased,
                                Rows const& rows) {
  for (register_shape const& row : phased)
    if (!row.phased_only)
      throw "with_phased_rows: each row must be marked for_phased_rows";
  return join_rows(phased, rows);
}
template <std::size_t Phased, class Rows>
constexpr auto with_phased_rows(register_shape const (&phased)[Phased], Rows const& rows) {
  return with_phased_rows(std::to_array(phased), rows);
}

/// 16-bit rows off the 16-byte grid of up to 135 columns whose views start each row equally far
/// off it (an odd width, ld = cols + 1 on both sides): packs of 8 from each row's first column on
/// the grid, on compile-time groups staged as the block's flat tile (engine/flat_tile.cuh), the
/// head and tail elements (up to 14 a row) spread over the group, four a lane on 4 lanes and two
/// on 8. Measured on an H200 (fifty-third session, bench/NOTES.md; the single elements they pass
/// by in brackets, fp16): aligned 60 / 100 / 127 columns softmax 0.70 / 0.61 / 0.71 ([0.55 / 0.48 /
/// 0.60]), rmsnorm 0.64 / 0.66 / 0.79 ([0.47 / 0.45 / 0.57]); every view one element off, ld =
/// cols + 1, at 33-128 columns +0.01-0.19 but softmax's 56-63 (-0.04 to -0.09). Two packs on 16
/// lanes to 256 lost 0.01-0.14 at 136-256 columns on three of the four ops. Capped at eight blocks
/// an SM (64 registers; ptxas gave them 56-80): softmax 100 / 127 aligned +0.05 / +0.07,
/// log-softmax 60 / 63 +0.08, every other cell within -0.05 to +0.05.
inline constexpr register_shape phased_narrow_16bit[] = {
    for_phased_rows({64, 2, 128, false, 1, true, false, 8, true, 4}),
    for_phased_rows({128, 2, 128, false, 1, true, false, 8, true, 8}),
};

/// Layernorm's: phased_narrow_16bit's, and four packs on 8 lanes to 256 columns, which gained
/// 0.04-0.09 there (but 0.03 lost at 255 columns off the grid); under the cap ptxas spills 50
/// bytes of it, and it ran 0.01-0.04 faster than uncapped at 136-255 columns.
inline constexpr auto phased_narrow_layernorm_16bit = join_rows(
    phased_narrow_16bit, {for_phased_rows({256, 4, 128, false, 1, true, false, 8, true, 8})});

// The tables below were measured on an H100 80GB HBM3 on 2026-11-23 with
// bench/experiments/row_shapes.cu (2^27 elements, inputs uniform in [-4, 4), ratio to a
// device-to-device copy of the same bytes timed in the same run; rounds 1, 2 and 4 in
// bench/NOTES.md; round 4, on the engine with dense rows and kept gamma/beta, chose every
// row marked "r4"). What they show:
//  - a block must move 8 KB or more: with one block a tile, 2 KB blocks ran at 0.50 of copy,
//    4 KB at 0.80-0.88 and 8 KB at 0.99 (softmax fp16, 128 to 1024 columns): block launches,
//    not DRAM, limit smaller ones;
//  - where blocks are that large and three or more fit on an SM, one block a tile beats a
//    persistent grid (rmsnorm fp16 4096: 0.994 against 0.937), and loading straight into
//    registers beats staging through shared memory (softmax fp16 16384: 0.999 against 0.965);
//  - a register cap (min_blocks_per_sm) that buys a block an SM is often worth it (rmsnorm
//    fp32 8192, 512 threads: 1.010 at two blocks against < 0.97 at one);
//  - rmsnorm and layernorm want different shapes (1024 fp16 columns: rmsnorm 0.996 with one
//    block a tile, layernorm 0.921), so each op has its own table.
// The tables of one element size need not hold the same widest row (the engines an op can be
// forced onto depend on its own table). Every 16-bit table's cluster rows now reach 262144
// columns (layernorm's lost to block_cluster until gamma and beta were read ahead, round 18).

/// Softmax over 16-bit inputs, packs of 8 (first row that holds the width).
inline constexpr register_shape softmax_16bit_h100[] = {
    {512, 2, 256, false, 1, false, false, 4},                // r4 0.994-0.999
    padded_phased({1024, 4, 128, false, 1, true, false, 6}), // r4 0.997
    {2048, 8, 128, false, 1, true, false, 2}, // r9 0.994 (r4's persistent 2 x 128 block: 0.952)
    // The block rows sized (sized_at_launch; twenty-eighth session, the shape's threads -> the
    // launch's): 2056 0.89 -> 0.93, 4104 0.89 -> 0.97, 8200 0.76 -> 0.85, 10240 0.88 -> 0.95.
    // r4 0.996 (staged, the old row: 0.97)
    padded(padded_phased(sized({4096, 2, 256, true, 1, false, false, 3}))),
    // r4's direct 2 x 512 (softmax 1.004) and 4 x 512 (0.999) took log-softmax from 0.99 / 0.93
    // to 0.84 / 0.73 and attention from 0.69 / 0.63 to 0.57 / 0.43: the staged rows stay.
    sized({8192, 4, 256, true, 1, true, false, 1}),  // 0.962 (rowfuse-bench 0.97)
    sized({16384, 8, 256, true, 1, true, false, 1}), // 0.954 (rowfuse-bench 0.96)
    // Rows over a cluster's registers (cluster_exchange; round 6): blocks of 128-256 threads,
    // four or five an SM (block_cluster in rowfuse-bench: 0.75-0.83). At 262144 columns,
    // persistent clusters of 512-thread blocks that stage the next row while they reduce this one
    // (round 25, nineteenth session; the row before it, 8 x 256 in 16 staged on one cluster a row
    // tile: 0.817 in the same run).
    // Rows of five packs a thread (round 30, thirty-first session): 5/8 of the next power of two,
    // for the widths just past one, which the next row held at half its packs a thread. Their
    // phased kernels are capped to the aligned kernels' blocks an SM (ptxas -v: 72 registers
    // against 64 cost a block; misaligned 16393 columns 0.59 uncapped, 0.88 capped). 18432 /
    // 20480 columns 0.994-0.996 / 0.992-0.995 (5 x 256 in clusters of 2: 0.997 / 0.993-0.996; the
    // row of sized twins alone it replaces, 4 x 512 in 2, ran 0.87 / 0.91 in rowfuse-bench).
    phased_capped({20480, 5, 512, true, 1, false, false, 1}, 2),
    // Six packs a thread, 3/4 of the next power of two (round 31): 20488 / 22528 / 24576 columns
    // 0.93 / 0.98 / 0.98 (6 x 256 in clusters of 2: 0.98 / 1.00 / 0.99, but log-softmax's row at
    // this width is a block row, and a row replaces one of its engine; the 32768-column row on its
    // own threads: 0.82 / - / 0.92 in rowfuse-bench).
    {24576, 6, 512, true, 1, false, false, 2},
    // No sized twins on the cluster rows (twenty-ninth session, H200 fp16: 16392 / 20480 columns
    // +0.02-0.03 on the first, 0.02-0.08 lost on the others, where 128-thread blocks drop to three
    // warps).
    {32768, 4, 256, true, 4, false, false, 1}, // r6 0.997 (4 x 1024 staged persistent: 0.86)
    // r30 36864 / 40960 0.996-1.001 / 0.997-0.999 (the 65536-column row: 0.79 / 0.85 in
    // rowfuse-bench).
    phased_capped({40960, 5, 256, true, 4, false, false, 1}, 4),
    // r31 40968 / 45056 / 49152 0.995 / 0.999 / 0.997 (the 65536-column row: 0.93 at 49152 in
    // rowfuse-bench).
    phased_capped({49152, 6, 128, true, 8, false, false, 1}, 7),
    {65536, 8, 128, true, 8, false, false, 1}, // r6 0.995, r25 0.996-0.998
    // r30 73728 / 81920 0.993 / 0.995 (the row of sized twins alone it replaces, 8 x 256 in 8:
    // 0.74 / 0.79 in rowfuse-bench).
    phased_capped({81920, 5, 256, true, 8, false, false, 1}, 4),
    // r31 81928 / 90112 / 98304 0.943 / 0.983 / 0.995 (the 131072-column row: 0.84 at 98304).
    phased_capped({98304, 6, 128, true, 16, false, false, 1}, 7),
    // Phased (ptxas -v, sm_90, twenty-sixth session): 127 registers and four blocks an SM, where
    // the aligned kernel has 95 and five; capped, 96 and five, no spill.
    phased_capped({131072, 8, 128, true, 16, false, false, 1}, 5), // r6 0.973, r25 0.975
    // r30 131080 / 151936 / 163840 0.890 / 0.952 / 0.975-0.979 (the 262144-column row on its own
    // threads: 0.66 / 0.74 / 0.77 in rowfuse-bench). Padded since V65 (seventy-first session,
    // H100, rowfuse-bench fp16 / bf16): 131080 0.89 -> 0.93 / 0.92, 147456 0.94 / 0.93 -> 0.96,
    // 163840 0.97 -> 0.98. Exchanging once too (V64) took 131080 to 0.96 but its phased kernel
    // lost 0.10 at 150001 (fp16).
    padded(phased_capped({163840, 5, 256, true, 16, false, false, 1}, 4)),
    // r31 163848 / 180224 / 196608 0.852 / 0.904 / 0.931 (the 262144-column row: 0.87 at 196608)
    // on 6 x 256 in 16, persistent under no cap; in the form of the 262144-column row below since
    // V57 (seventieth session, H100, rowfuse-bench fp16 / bf16: 163848 0.86 -> 0.92 / 0.91, 196608
    // 0.93 -> 0.975 / 0.970); 12 x 128 in 16 under four since V64 (seventy-first session, round 53
    // 0.980 / 0.993 / 0.994; rowfuse-bench): 163848 0.92 / 0.91 -> 0.99 / 0.98, 180224 0.95 / 0.94
    // -> 0.99, 196608 0.97 -> 0.99; one element off 170001 / 190001 +0.05-0.08 / +0.05-0.06. An
    // H200 plans its phased kernel at 163848-196615 too, untimed there.
    padded(exchanging_once({196608, 12, 128, true, 16, false, false, 4})),
    // QuACK's shape: 8 x 256 in 16 under a cap of three, one cluster a row tile, padded, exchanging
    // once (sixty-eighth session, H100, rowfuse-bench against the row it replaced, 8 x 512 in 8
    // staged persistent): fp16 / bf16 262144 0.941 -> 0.981 / 0.978, 229376 0.937 -> 0.970,
    // 196616 0.852 -> 0.934; off the grid 200003 +0.04-0.05 (round 51: 0.984 at 262144). Its
    // phased kernel padded (seventy-third session, H100, rowfuse-bench, one element off, fp16 /
    // bf16): 200003 0.73 / 0.72 -> 0.82 / 0.77, 240001 0.78 / 0.77 -> 0.87 / 0.80, 262143 0.79 /
    // 0.78 -> 0.89 / 0.84 (ptxas: 88 -> 40 bytes of spill); under a cap of two as well, bf16
    // 210001-262143 +0.02-0.06 more, fp16 0.00-0.05 less.
    // Rows off the grid at 196616-229383 on a row for them alone, 7 x 256 in 16 staged persistent
    // under two (V103, seventy-fifth session; rowfuse-bench, H100, one element off, fp16 / bf16,
    // where the 262144-column row's phased kernel took them): 200003 0.83 / 0.77 -> 0.90 / 0.91,
    // 210001 0.84 / 0.77 -> 0.89, 215001 0.84 / 0.77 -> 0.90, 229375 0.86 / 0.79 -> 0.86 / 0.87.
    // The same shape read straight under three, padded, exchanging once (V101) ran 0.86-0.89 there.
    // Log-softmax takes that one (log_softmax_16bit_h100).
    for_phased_rows({229376, 7, 256, true, 16, true, true, 2}),
    padded(padded_phased(exchanging_once({262144, 8, 256, true, 16, false, false, 3}))),
};

/// Softmax over 16-bit inputs: softmax_16bit_h100 and, for devices of wide memory, the shapes
/// row_shapes.cu's round 35 found better on an H200 (forty-fifth session, bench/NOTES.md; the row
/// each passes by in brackets, in the same run), and those of rounds 38, 40, 44, 45, 47 and 48
/// (forty-sixth to forty-ninth sessions), each group under its own comment. Where a row of the
/// H200's covers only part of an H100 row's widths, a row of the H100 row's own shape takes the
/// rest (the same kernels).
/// The rows marked on_h100_too an H100 takes too: V53 (sixty-eighth session, rowfuse-bench, H100,
/// every such row at once, against the H100's own rows in the same run; bench/NOTES.md) measured
/// them faster there, fp16 ratio to copy before -> after: 136 / 160 / 192 0.83 / 0.90 / 0.98 ->
/// 1.00-1.01, 320 / 384 / 640 0.90 / 0.97 / 0.95 -> 1.00-1.01, 10240 / 12288 0.95 -> 0.99, 24584
/// 0.93 -> 1.01, 114688 / 131072 0.93 / 0.97 -> 0.96 / 0.99; one element off the grid at 601, 2577,
/// 4601, 9201, 22001, 53001, 100003 0.86-0.95 -> 0.92-1.01; at 224 / 256 / 448 1.01-1.02 ->
/// 0.98-1.00. Not taken: 6144 / 7168 / 16384 / 32768 (-0.01 to -0.02) and 196608-262144 (-0.01 to
/// -0.04). Each run of such rows before an H100 row is taken from its narrowest on, so the widths
/// of a row not taken plan as before.
inline constexpr auto softmax_16bit = with_wide_memory_rows(
    with_phased_rows(phased_narrow_16bit, softmax_16bit_h100),
    {
        on_h100_too(
            for_wide_memory(padded({512, 4, 256, false, 1, false, false, 1}))), // 0.998 ([0.922])
        for_wide_memory({16384, 16, 128, true, 1, true, false, 1}),             // 0.975 ([0.893])
        // The H100's 163840-column row unpadded, as before V65 (seventy-first session), for an
        // H200, which plans from it at 131073-163840 columns: the padded row is untimed there. Rows
        // off the grid take the H100 row's phased kernel, which V65 did not change.
        for_wide_memory(phased_capped({163840, 5, 256, true, 16, false, false, 1}, 4)),

        // Round 48 (forty-ninth session): four packs a lane at 193-256 columns, 0.982 ([0.921]);
        // rowfuse-bench 0.82-0.94 -> 0.87-0.98 (call11). At 97-128 the same rows lost 0.2 at 120.
        on_h100_too(for_wide_memory(padded({256, 4, 256, false, 1, false, false, 4}))),

        // Round 38 (forty-sixth session): exchanging once a row under caps of three blocks of 256
        // threads (six of 128), round 35's rows in brackets in the same run; rowfuse-bench
        // (call5): 24584-32768 +0.03-0.09, 49160-65536 +0.04-0.08. At 131072 on 8 x 128 in 16
        // under six (0.885 [0.857]) 131072 gained 0.02 and 114688 lost 0.01-0.02: round 35's row
        // stays.
        for_wide_memory(
            exchanging_once({32768, 8, 256, true, 2, false, false, 3})), // 0.956 ([0.929])
        for_wide_memory(
            padded(exchanging_once({65536, 8, 128, true, 8, false, false, 6}))), // 0.945 ([0.902])
        // Round 50 (sixtieth session): QuACK's own shape, 8 packs of 256 threads under a cap of
        // three, padded and exchanging once, one cluster a row tile (80 registers, 24 bytes
        // spilled), against round 35's staged persistent row in brackets in the same run; QuACK
        // 0.970 in the same lease. rowfuse-bench (callC1): 122880 / 131072 +0.02-0.04 / +0.04.
        on_h100_too(for_wide_memory(padded(
            exchanging_once({131072, 8, 256, true, 8, false, false, 3})))), // 0.906 ([0.856])
        // Round 50's 8 x 256 in 16 under three (0.879 at 262144, this row 0.863) lost at 229376 in
        // rowfuse-bench (-0.02, +0.01 at 262144): this row stays.
        for_wide_memory({262144, 16, 128, true, 16, true, true, 1}), // 0.855 ([0.782])
        // Round 40 (forty-seventh session): the widths between the powers of two on rows of six,
        // seven, twelve and fourteen packs a thread (3/4 and 7/8 of the next power of two), the
        // width just past the row before and the row's own in each comment, the rows they pass by
        // in brackets, in the same run.
        on_h100_too(for_wide_memory_phased(
            {24576, 6, 128, true, 4, false, false, 6})), // 0.891 / 0.976 ([0.756 / 0.835])
        on_h100_too(for_wide_memory_phased(padded(exchanging_once(
            {28672, 7, 256, true, 2, false, false, 3})))), // 0.903 / 0.969 ([0.857 / 0.936])
        on_h100_too(for_wide_memory_phased(exchanging_once(
            {57344, 7, 128, true, 8, false, false, 6}))), // 0.843 / 0.931 ([0.798 / 0.884])
        for_wide_memory(exchanging_once(
            {98304, 6, 128, true, 16, false, false, 6})), // 0.790 / 0.898 ([0.734 / 0.843])
        // Persistent until V59 (seventieth session, H100, rowfuse-bench fp16 / bf16): one cluster a
        // row tile, 98312 / 106496 / 114688 0.95 / 0.94 / 0.95 -> 1.00 / 0.99 / 0.98-0.99; one
        // element off 100003-114687 +0.02-0.05. Not timed on an H200.
        on_h100_too(for_wide_memory_phased(padded(exchanging_once(
            {114688, 7, 256, true, 8, false, false, 3})))), // 0.796 / 0.875 ([0.732 / 0.835])
        for_wide_memory(
            {196608, 12, 128, true, 16, true, true, 1}), // 0.794 / 0.859 ([0.667 / 0.768])
        // Kept to 212992 columns: rowfuse-bench (call2) 196616 / 212992 / 229376 +0.06 / -0.00 /
        // -0.02 against the 262144-column row, which takes the rest.
        for_wide_memory(exchanging_once(
            {212992, 14, 128, true, 16, true, true, 1})), // 0.834 / 0.839 ([0.768 / 0.841])

        // Round 44 (forty-eighth session): the widths between the powers of two to 6144 columns on
        // rows their packs fill to 78-100 %: three or five packs a lane in groups, rows of two or
        // four warps of five or three packs, six packs a thread of 128 (in brackets the H100 row's
        // shape that held the width, unsized, in the same run; rowfuse-bench, call2: +0.02-0.31 at
        // every width they take). Between them, rows of the rows' shapes before keep the powers of
        // two.
        on_h100_too(for_wide_memory({64, 2, 256, false, 1, false, false, 4})),
        on_h100_too(for_wide_memory({96, 3, 256, false, 1, false, false, 4})), // 0.979 ([0.822])
        on_h100_too(for_wide_memory({128, 2, 256, false, 1, false, false, 4})),
        on_h100_too(for_wide_memory({192, 3, 256, false, 1, false, false, 4})),
        on_h100_too(
            for_wide_memory({320, 5, 128, false, 1, false, false, 8})), // 0.899 at 264 ([0.627])
        on_h100_too(for_wide_memory({384, 3, 256, false, 1, false, false, 4})), // 0.972 ([0.861])
        on_h100_too(for_wide_memory_phased(
            {640, 5, 128, false, 1, false, false, 8})), // 0.970 at 600 ([0.701])
        on_h100_too(for_wide_memory_phased({2560, 5, 128, false, 1, false, false, 6, true,
                                            64})), // 0.980 / 0.969 ([0.700 / 0.800])
        on_h100_too(for_wide_memory_phased(
            {3072, 3, 256, false, 1, false, false, 4, true, 128})), // 0.976 at 3000
        on_h100_too(for_wide_memory_phased({5120, 5, 128, false, 1, false, false, 6, true,
                                            128})), // 0.974 / 0.970 ([0.700 / 0.841])
        for_wide_memory_phased({6144, 6, 128, true, 1, false, false, 6}), // 0.980 ([0.893])

        // Round 45 (forty-eighth session), rowfuse-bench on round 44's rows in brackets.
        on_h100_too(for_wide_memory({448, 7, 128, false, 1, true, false, 5})), // 0.952 ([0.82])
        for_wide_memory({768, 6, 128, false, 1, false, false, 6}), // 0.877 at 648 ([0.73])
        for_wide_memory(
            padded({1016, 2, 256, false, 1, false, false, 4, true, 64})), // 0.978 at 1000 ([0.88])
        for_wide_memory({7168, 7, 128, true, 1, true, false, 5}),         // 0.944 at 6152 ([0.85])

        // Round 47 (forty-ninth session): the widths just past 8192 columns on blocks of five and
        // six packs a thread under a cap of three; the width just past the row before and the
        // row's own in each comment, the rows they replace or pass by in brackets (the sized twin
        // of 8 x 256 staged, which rowfuse-bench ran at 0.65 at 8200; call6: 0.98). 16392-20480
        // on 5 x 256 in clusters of two (0.885 / 0.978, 5 x 512: 0.867 / 0.962) moved -0.006 to
        // +0.017 in rowfuse-bench: not taken.
        // 8200 / 10240 0.963 / 0.962 ([0.895 / 0.859])
        on_h100_too(for_wide_memory_phased({10240, 5, 256, true, 1, false, false, 3})),
        on_h100_too(
            for_wide_memory_phased({12288, 6, 256, true, 1, true, false, 3})), // 0.974 ([0.879])
    });

/// Log-softmax over 16-bit inputs: softmax's rows but where round 10 (eleventh session) found
/// log-softmax, whose phase 2 keeps x and sums two floats, faster on other shapes; at 131072 and
/// 262144 columns round 25's persistent staged clusters (nineteenth session; softmax's row at
/// 131072 0.897, round 10's at 262144 0.758-0.760 in the same run).
/// Its phased kernels (rows off the 16-byte grid) on softmax's rows to 4096 columns and at 65536,
/// and its own at 32768, are capped to the aligned kernels' blocks an SM (ptxas -v, sm_90,
/// twenty-sixth and twenty-seventh sessions: registers and blocks an SM, aligned / phased before /
/// phased capped, none spills): 512 48 (5) / 53 (4) / 47 (5); 1024 72 (7) / 79 (6) / 72 (7); 2048
/// 95 (5) / 127 (4) / 95 (5); 4096 46 (5) / 54 (4) / 48 (5); 32768 96 (5) / 127 (4) / 96 (5); 65536
/// 96 (5) / 127 (4) / 96 (5).
/// Softmax's rows of five packs a thread (round 30, thirty-first session) on log-softmax's own
/// shapes, which hold its phase 2's x beside the sums: round 30's best for log-softmax, against the
/// rows they replace (rowfuse-bench, twenty-ninth session) in brackets.
inline constexpr auto log_softmax_16bit_h100 = replace_rows(
    softmax_16bit_h100,
    {
        phased_capped({512, 2, 256, false, 1, false, false, 4}, 5),
        padded_phased(phased_capped({1024, 4, 128, false, 1, true, false, 6}, 7)),
        phased_capped({2048, 8, 128, false, 1, true, false, 2}, 5),
        padded_phased(sized(phased_capped({4096, 2, 256, true, 1, false, false, 3}, 5))),
        // softmax's, its sized twins capped to the phased kernel's three blocks an SM (ptxas -v:
        // the phased twin took 124 registers, two blocks; misaligned 4105 and 5121 columns
        // 0.67 / 0.76 -> 0.60 / 0.71 uncapped).
        sized({8192, 4, 256, true, 1, true, false, 1}, 3),
        // r10 0.998 (softmax's: 0.944); sized: 8200 0.71 -> 0.88, 10240 0.79 -> 0.98
        padded(sized({16384, 4, 512, true, 1, true, false, 2})),
        // r30 18432 / 20480 0.991 / 0.987-0.990 ([0.86 / 0.90]: sized twins of 4 x 512 in 2)
        {20480, 5, 512, true, 1, true, false, 2},
        // r31 20488 / 22528 / 24576 0.939 / 0.959 / 0.957, 24 bytes spilled ([0.76 / - / 0.84]:
        // the 32768-column row), staged until V64 (seventy-first session, H100; round 53 read
        // straight 0.985 / 0.985 at 20488 / 24576, staged 0.945 / 0.955): rowfuse-bench fp16 /
        // bf16 20488 0.95 / 0.96 -> 0.996 / 0.99, 24576 0.95 / 0.97 -> 0.99 / 0.98; one element off
        // 22001 0.73 / 0.75 -> 0.81 / 0.83.
        padded({24576, 6, 512, true, 1, false, false, 2}),
        // r10 0.977 (softmax's: 0.895)
        // Not sized (twenty-ninth session, H200: 16392-40960 lost 0.03-0.04 on three warps a
        // block).
        padded_phased(phased_capped({32768, 8, 128, true, 4, false, false, 4}, 5)),
        // r30 36864 / 40960 0.939-0.940 / 0.978-0.982 ([0.79 / 0.81]: sized twins of 4 x 512 in 4)
        phased_capped({40960, 5, 128, true, 8, true, false, 1}, 7),
        // r31 40968 / 45056 / 49152 0.864 / 0.913 / 0.957 ([0.82 at 49152]: the 65536-column row)
        {49152, 6, 256, true, 4, false, false, 3},
        // Softmax's 8 x 128 in 8 under a cap of five until V60 (seventieth session, H100,
        // rowfuse-bench fp16 / bf16): QuACK's block in 4, padded on the grid and off it, 57352
        // 0.91 / 0.90 -> 0.99, 65536 0.95 -> 0.99; one element off 53001 / 60001 / 65535 +0.06-0.08
        // / +0.02-0.04 / +0.01-0.02 (its phased kernel unpadded, V57: 60001 -0.03 / -0.06). Not
        // timed on an H200, whose phased plans at 49160-65543 take it.
        padded(padded_phased(exchanging_once({65536, 8, 256, true, 4, false, false, 3}))),
        // r30 73728 / 81920 0.884-0.890 / 0.931-0.936 ([0.86 / 0.90]: sized twins of 4 x 1024 in
        // 4)
        phased_capped({81920, 5, 512, true, 4, true, true, 1}, 2),
        // r31 81928 / 90112 / 98304 0.846 / 0.923 / 0.918 ([0.85 at 98304]: the 131072-column row)
        // staged persistent under two; one cluster a row tile under three, padded, exchanging once
        // since V57 (seventieth session, H100, rowfuse-bench fp16 / bf16): 81928 0.86 -> 0.93 /
        // 0.92, 98304 0.91 -> 0.98; one element off 90001 0.76 -> 0.91-0.92 (H200: +0.14-0.15). 12
        // x 128 in 8 under four since V64 (seventy-first session, round 53 0.982 / 0.990 / 0.991 at
        // 81928 / 90112 / 98304): 81928 0.92 -> 0.99-1.00, 90112 0.95 -> 0.98-0.99, 98304 +0.01;
        // one element off 90001 / 98303 +0.02-0.05. An H200 plans its phased kernel at 81928-98311
        // too, untimed there.
        padded(exchanging_once({98304, 12, 128, true, 8, false, false, 4})),
        padded_phased({131072, 4, 1024, true, 4, true, true, 1}), // r25 0.924-0.927
        // r30's 5 x 512 in 8 under two (131080 / 151936 / 163840 0.83 / 0.92 / 0.92 staged
        // persistent) one cluster a row tile, read straight, padded, exchanging once since V63
        // (seventy-first session, H100; round 52: 0.890 / 0.939 / 0.971 at 131080 / 147456 /
        // 163840): rowfuse-bench fp16 / bf16 131080 0.86 -> 0.90, 147456 0.91 / 0.90 -> 0.94 /
        // 0.93, 163840 0.92 -> 0.97; one element off 150001 0.69 / 0.68 -> 0.87 / 0.86.
        padded(exchanging_once({163840, 5, 512, true, 8, false, false, 2})),
        // r31's 6 x 256 in 16 staged persistent until V63 (163848 / 180224 / 196608 0.83 / 0.89 /
        // 0.90 in rowfuse-bench): round 52's 12 x 128 in 16 under four, one cluster a row tile
        // (0.937 / 0.974 / 0.983; V57's 6 x 256 in that form 0.84 / 0.90 / 0.94): 0.95 / 0.97 /
        // 0.98; one element off 170001 / 190001 +0.01.
        padded(exchanging_once({196608, 12, 128, true, 16, false, false, 4})),
        // The same shape as softmax's (sixty-eighth session, H100, against 8 x 256 in 16 staged
        // persistent): fp16 / bf16 262144 0.911 -> 0.945 / 0.947, 229376 0.851 -> 0.911, 196616
        // 0.735 -> 0.853; off the grid 200003 +0.03-0.04.
        // Its phased kernel padded and under a cap of two (seventy-third session, H100,
        // rowfuse-bench, one element off, fp16 / bf16): 200003 0.69 -> 0.73, 240001 0.75 -> 0.81,
        // 262143 0.80 -> 0.85 / 0.86; padded under three (spilling 80 bytes) lost 0.01-0.05, under
        // two unpadded 0.01-0.04.
        // Softmax's row for phased plans alone at 229376 columns read straight under three,
        // padded, exchanging once (V101, seventy-fifth session; rowfuse-bench, H100, one element
        // off, fp16 / bf16, where the 262144-column row's phased kernel took those widths): 200003
        // 0.73 -> 0.80, 210001 0.75 -> 0.82, 215001 0.76 -> 0.83, 229375 0.79 -> 0.85; staged
        // persistent as softmax's (V103) 0.01 under it, under two (V102) 0.02-0.05.
        for_phased_rows(
            padded_phased(exchanging_once({229376, 7, 256, true, 16, false, false, 3}))),
        padded(padded_phased(
            exchanging_once(phased_capped({262144, 8, 256, true, 16, false, false, 3}, 2)))),
    });

/// Log-softmax over 16-bit inputs: log_softmax_16bit_h100 and, for devices of wide memory, the
/// shape row_shapes.cu's round 35 found better on an H200 at 512 columns (forty-fifth session,
/// bench/NOTES.md): rmsnorm's 4 packs a lane of 128 under a cap of eight blocks, 0.931, where the
/// row it passes by ran 0.810 in rowfuse-bench. Round 35's rows at 16384 (staged persistent, no
/// cap) and 32768 (a block row of 4 x 1024, staged persistent) gained 0.04-0.07 there but lost
/// 0.03-0.06 at 10248 and 24584 columns, and are not here. The rows of rounds 38, 40, 43-45, 47 and
/// 48 (forty-sixth to forty-ninth sessions) follow, each group under its own comment, but four
/// dropped in the fifty-sixth session so that one call's object stays under 1 MB with the phased
/// kernels of the 640-, 5120- and 6144-column rows (+0.25-0.35 off the grid there): the sized
/// 16384-column row (4 x 512), 24576 (6 x 128 in 4) and round 40's 196608 and 229376 (12 and 14 x
/// 128 in 16), whose widths the H100's rows take again at -0.03 to -0.05 (bench/NOTES.md); and
/// four more in the seventy-fourth (V92): the rows an H200 kept after the H100's rows at 24576,
/// 163840 and 196608 columns changed (V63, V64), and round 40's 98304-column row (6 x 256 in 8,
/// 0.742 / 0.802 against 0.696 / 0.806 on an H200), so that an H200 plans those widths from the
/// H100's rows of V63 and V64 (untimed there) and one call's object is back under 1 MiB (+1092.6 ->
/// +1001.9 KB, scripts/compile-cost.sh); and one in the seventy-fifth (V105): round 38's
/// 65536-column row (8 x 128 in 8 staged under six, 0.833 against 0.766 on an H200), whose H100 row
/// has since taken round 51's form (V57: 8 x 256 in 4 under three, padded, exchanging once; round
/// 51 ran that form 0.02-0.05 over the H200's rows there), so that an H200 plans 57352-65536
/// columns from it (untimed there) and the call holds the 229376-column row for phased plans alone
/// in 1 MiB.
/// The rows marked on_h100_too an H100 takes too: V53 (sixty-eighth session, rowfuse-bench, H100,
/// every such row at once, against the H100's own rows in the same run; bench/NOTES.md) measured
/// them faster there, fp16 ratio to copy before -> after: 640 / 768 0.85 / 0.95 -> 1.01 / 1.00,
/// 1536 0.93 -> 1.02, 3072 0.90 -> 1.00, 5120 / 6144 / 7168 0.93 / 0.88 / 0.95 -> 0.99-1.00, 12288
/// 0.92 -> 0.99, 24584 / 28672 0.85 / 0.93 -> 1.00 / 0.98, 49152 / 57344 0.95 / 0.90 -> 0.99,
/// 131072 0.93 -> 0.98; one element off at 4601 0.80 -> 1.00, 100003 / 106001 0.70 / 0.68 -> 0.85 /
/// 0.87; at 114688 0.89 -> 0.88. Not taken: 4096, 20480, 65536, 98304 (-0.01 to -0.03). Each run of
/// such rows before an H100 row is taken from its narrowest on, so the widths of a row not taken
/// plan as before. The narrow run (96-512 columns) is taken without its 64-, 128- and 256-column
/// rows (V53: 32 / 64 1.00 -> 0.93; V57, seventieth session: 128 / 256 0.99-1.00 -> 0.97-0.98),
/// each of its other rows past the width of the row before it that an H100 takes (on_h100_past), so
/// the widths of those three plan as before; V57 measured, fp16 / bf16: 72 0.73 / 0.72 -> 0.92 /
/// 0.91, 96 0.90 -> 1.00, 136 / 160 0.68 / 0.77 -> 0.72 / 0.97, 192 0.89 -> 1.00, 320 0.76 / 0.75
/// -> 0.99, 384 0.88 / 0.86 -> 0.99, 448 / 456 0.93 -> 0.99-1.00, 512 0.99 -> 0.98.
inline constexpr auto log_softmax_16bit = with_wide_memory_rows(
    with_phased_rows(phased_narrow_16bit, log_softmax_16bit_h100),
    {
        // Round 43 (forty-seventh session), rowfuse-bench on main (the rows they pass by) in
        // brackets: a warp a row at 1024, rows of 2 warps at 2048, block rows under caps that buy
        // blocks at 4096-16384. Its group rows of 2 packs on a persistent grid to 224 columns
        // (0.921 / 0.905 / 0.887 at 32-128, where later rows took them since) went in the
        // sixtieth session: padded, the 256-column row's 4 packs a lane ran 193-224 faster.
        // r43 0.935 at 256 ([0.832])
        on_h100_past(for_wide_memory(padded({512, 4, 128, false, 1, false, false, 8})), 256),
        // 0.989 ([0.903])
        for_wide_memory(padded({1024, 4, 128, false, 1, false, false, 8, true, 32})),
        on_h100_too(for_wide_memory(
            {2048, 4, 256, false, 1, false, false, 3, true, 64})),                // 0.970 ([0.838])
        for_wide_memory(padded(sized({4096, 4, 128, true, 1, false, false, 6}))), // 0.980 ([0.848])
        on_h100_too(for_wide_memory(
            padded(sized({8192, 4, 256, true, 1, false, false, 4})))), // 0.995 ([0.883])

        // Round 38 (forty-sixth session): clusters under caps of three blocks of 256 threads (six
        // of 128), those of 64 values a thread exchanging once a row; rowfuse-bench on main (the
        // rows they pass by) in brackets. rowfuse-bench (call5): every width from 24584 up
        // +0.06-0.14.
        on_h100_too(
            for_wide_memory(padded({32768, 8, 256, true, 2, false, false, 3}))), // 0.877 ([0.798])

        // Round 50 (sixtieth session): padded, one cluster a row tile under caps of six blocks of
        // 128 threads and three of 256, against round 38's rows (staged persistent, unpadded) in
        // brackets in the same run. rowfuse-bench (callC1): 122880 / 131072 +0.03-0.06 / +0.04,
        // 229376 / 262144 +0.00-0.02 / +0.02.
        on_h100_too(for_wide_memory(padded(
            exchanging_once({131072, 8, 128, true, 16, false, false, 6})))), // 0.841 ([0.813])
        for_wide_memory(padded(
            exchanging_once({262144, 8, 256, true, 16, false, false, 3}))), // 0.796 ([0.753])

        // Round 40 (forty-seventh session), as softmax's: the width just past the row before and
        // the row's own, the rows they pass by in brackets, in the same run.
        on_h100_too(for_wide_memory(
            padded({28672, 7, 256, true, 2, false, false, 3}))), // 0.823 / 0.903 ([0.740 / 0.819])
        on_h100_too(for_wide_memory(
            {49152, 6, 128, true, 8, false, false, 7})), // 0.772 / 0.867 ([0.666 / 0.758])
        on_h100_too(for_wide_memory(
            {57344, 7, 128, true, 8, false, false, 6})), // 0.770 / 0.860 ([0.692 / 0.768])

        // With its phased kernel (sixtieth session): rows off the grid at 98305-114688 columns
        // took the H100's 4 x 1024 in 4 (rowfuse-bench at 100003: 0.53, softmax's 7 x 256 there
        // 0.78).
        // Staged persistent until V59 (seventieth session, H100, rowfuse-bench fp16 / bf16): one
        // cluster a row tile, read straight, 98312 / 106496 / 114688 0.87 / 0.85 / 0.86 -> 0.98 /
        // 0.99 / 0.99; one element off 100003-114687 +0.03-0.05. Not timed on an H200.
        on_h100_too(for_wide_memory_phased(padded(exchanging_once(
            {114688, 7, 256, true, 8, false, false, 3})))), // 0.786 / 0.804 ([0.687 / 0.761])

        // Round 44 (forty-eighth session), as softmax's.
        for_wide_memory({64, 2, 256, false, 1, false, true, 4}),
        on_h100_past(for_wide_memory({96, 3, 256, false, 1, false, false, 4}),
                     64), // 0.871 ([0.690])

        // The 256-column row to 248 columns on an H100 (V61, seventy-first session, fp16 / bf16:
        // 200 0.90 / 0.89 -> 1.00, 224 0.94 -> 1.01, 248 0.97 -> 0.99-1.00); at 256 the H100's
        // 512-column row (2 packs on 16 lanes) stays, 0.02 over this one's 4 on 8 (V57).
        on_h100_past(for_wide_memory(padded({248, 4, 128, false, 1, false, false, 8})), 192),
        for_wide_memory(padded({256, 4, 128, false, 1, false, false, 8})),
        on_h100_past(for_wide_memory({320, 5, 128, false, 1, false, false, 8}),
                     256), // 0.842 at 264 ([0.543])
        on_h100_past(for_wide_memory({384, 6, 128, false, 1, true, false, 8}),
                     256), // 0.937 ([0.758])
        on_h100_too(for_wide_memory_phased(
            {640, 5, 128, false, 1, false, false, 8})), // 0.915 at 600 ([0.608])

        // With their phased kernels since V96 (seventy-fourth session, H100, rowfuse-bench, one
        // element off, fp16 / bf16; the 4096-column row's sized twin took those widths): 2101 0.87
        // / 0.86 -> 1.00, 2501 0.95 / 0.94 -> 1.00, 2577 0.82 / 0.81 -> 0.93 / 0.92, 3001 0.88 /
        // 0.87 -> 0.98 / 0.97.
        on_h100_too(for_wide_memory_phased({2560, 5, 128, false, 1, false, false, 6, true,
                                            64})), // 0.927 / 0.975 ([0.633 / 0.750])
        on_h100_too(for_wide_memory_phased(
            {3072, 3, 256, false, 1, false, false, 4, true, 128})), // 0.878 ([0.821])
        on_h100_too(for_wide_memory_phased({5120, 5, 128, false, 1, false, false, 6, true,
                                            128})), // 0.950 / 0.972 ([0.627 / 0.743])
        on_h100_too(
            for_wide_memory_phased({6144, 6, 128, true, 1, true, false, 6})), // 0.975 ([0.837])

        // Round 45 (forty-eighth session), rowfuse-bench on round 44's rows in brackets. The
        // 192-column row padded (sixtieth session, rowfuse-bench callQpad1: 168-192 +0.03-0.06);
        // the 160-column row padded lost 0.04-0.24 at 136-160. On an H100 (V61-V63, seventy-first
        // session, fp16 / bf16) its 5 packs on 4 lanes ran 136 / 144 / 152 / 160 at 0.72 / 0.99 /
        // 0.59 / 0.98 and the 192-column row's 3 on 8 at 0.92 / 0.95 / 0.95 / 0.99: the H100 takes
        // that shape at 144 alone.
        on_h100_past(for_wide_memory({144, 5, 128, false, 1, false, false, 8}), 136),
        for_wide_memory({160, 5, 128, false, 1, false, false, 8}), // 0.939 ([0.57])
        on_h100_past(for_wide_memory(padded({192, 3, 256, false, 1, false, false, 4})),
                     128), // 0.871 ([0.68])
        on_h100_past(for_wide_memory({448, 7, 128, false, 1, true, false, 5}),
                     256), // 0.885 ([0.69])
        on_h100_too(
            for_wide_memory({768, 6, 128, false, 1, true, false, 8})), // 0.814 at 648 ([0.80])

        // Round 47 (forty-ninth session), as softmax's; the 20480-column row is the H100's loaded
        // straight to registers.
        // 8200 / 10240 0.939 / 0.933 ([0.823 / -])
        on_h100_too(for_wide_memory({10240, 5, 256, true, 1, false, false, 3})),
        on_h100_too(for_wide_memory({12288, 6, 128, true, 2, false, false, 6})), // 0.942
        for_wide_memory(
            {20480, 5, 512, true, 1, false, false, 2}), // 0.812 / 0.916 ([0.742 / 0.871])

        // Round 48 (forty-ninth session): four packs a lane at 97-128 columns, 0.941 ([0.875]);
        // rowfuse-bench 0.75-0.88 -> 0.78-0.95 (call11).
        for_wide_memory(padded({128, 4, 128, false, 1, false, false, 8})),
    });

/// Softmax over 16-bit inputs whose load chain masks and whose store chain drops (attention
/// probabilities: scale -> causal mask -> softmax -> dropout), packs of 8. Measured with
/// bench/experiments/pipeline_shapes.cu (H100, attention fp16, 2^26 elements, ratio to copy;
/// the same chain on softmax's rows in brackets): to 32768 columns the survey half of part 1 on
/// the eighth session's final code, past it the ninth session's wide survey (part 1 with
/// PIPELINE_SHAPES_WIDE). The chain does twice softmax's work an element and waits on its loads
/// (ncu: 38 % of stalls at the first use of the input), so it wants more bytes in flight a
/// thread than softmax: staged packs everywhere, and from 16384 columns a persistent grid that
/// stages the next row while it reduces this one. Its engines hold at least softmax_16bit's
/// widths (warp rows to 2048 columns, block rows to 16384, cluster rows to 262144), so that an
/// engine forced by softmax's table also runs here.
inline constexpr register_shape attention_16bit_h100[] = {
    padded({512, 2, 256, false, 1, true, false, 1}), // 0.75-0.78 at 128-512 ([0.72-0.74])
    // Rows of 2 warps, 4 a block: pipeline_shapes.cu's survey_warps 0.852 (fp16); the planned call
    // 0.799 / 0.784 -> 0.855 / 0.850 (fp16 / bf16) against softmax's 4 x 128 row before it.
    padded(padded_phased({1024, 2, 128, false, 1, true, false, 1, true, 64})),
    // softmax's 2048-column warp row, for forced plans only (the automatic plan takes the block
    // row below from 1025 columns).
    {1024, 8, 128, false, 1, true, false, 2},
    // Block rows; sized past 4096 columns (twenty-eighth session): 4104 0.61 -> 0.64, 5120 0.70 ->
    // 0.76, 8200 0.54 -> 0.72, 10240 0.65 -> 0.85, 16392 0.60 -> 0.66, 20480 0.72 -> 0.78. The
    // first two rows' twins lost (2048: 3000 columns 0.82 -> 0.72; 4096: 2056 0.65 -> 0.63, 2560
    // 0.74 -> 0.69).
    padded({2048, 2, 128, true, 1, true, false, 1}),                // 0.890 ([0.80])
    padded(padded_phased({4096, 4, 128, true, 1, true, false, 1})), // 0.913 ([0.77])
    padded(sized({8192, 4, 256, true, 1, true, false, 1})), // softmax's, 0.868 (the best surveyed)
    sized({16384, 4, 512, true, 1, true, true, 1}),         // 0.912 ([0.88])
    // 0.881 ([0.60] on the cluster row), 8 B spilled
    padded(sized({32768, 4, 1024, true, 1, true, true, 1})),
    // Cluster rows: the first only for forced plans (the block row above takes 32768 columns;
    // staged and persistent in clusters of 4: 0.867). The next two sized (twenty-ninth session,
    // H100): 32776 0.57 -> 0.69, 40960 0.64 -> 0.84, 65544 0.52 -> 0.62, 81920 0.59 -> 0.76;
    // misaligned 32777 0.42 -> 0.54, 40961 0.49 -> 0.66, 65545 0.40 -> 0.49. Not the last (H200:
    // 131080-163840 +0.02-0.04, misaligned 151937 0.36 -> 0.30).
    {32768, 4, 256, true, 4, false, false, 1},
    padded(sized({65536, 4, 256, true, 8, true, true, 1})),   // 0.861 ([0.49]; P8 x 128: 0.70)
    padded(sized({131072, 4, 256, true, 16, true, true, 1})), // 0.831 ([0.46])
    padded({262144, 8, 256, true, 16, true, true, 1}),        // 0.680 ([0.62] block_cluster)
};

/// attention_16bit_h100 and, for devices of wide memory, the shape pipeline_shapes.cu's survey of
/// the attention pipeline found better on an H200 at 16384 columns (forty-fifth session, fp16,
/// bench/NOTES.md): 8 packs a thread of 256, 0.747 against 0.681 for the row it passes by in the
/// same run. rowfuse-bench on the H200 (fp16, `results/2026-12-01-forty-fifth/call3/`): 12288 /
/// 16384 columns 0.525 / 0.662 -> 0.596 / 0.730; its sized twin lost at 8200 / 10240 (0.530 / 0.629
/// -> 0.474 / 0.532) to the H100 row's, which takes those widths here too (a row of that shape to
/// 10240 columns: the same kernels). The survey's 4 packs a lane to 512 columns gained 0.015-0.031
/// at 128-512 but lost 0.29 / 0.08 / 0.04 at 32 / 64 / 200 columns, and is not here.
inline constexpr auto attention_16bit = with_wide_memory_rows(
    attention_16bit_h100,
    {
        for_wide_memory(sized({10240, 4, 512, true, 1, true, true, 1})),
        for_wide_memory({16384, 8, 256, true, 1, true, true, 1}),

        // PIPELINE_SHAPES_BETWEEN (forty-eighth session): the widths between the powers of two to
        // 6144 columns on rows they fill, the survey's first shape (the H100 row's, unsized) in
        // brackets; a row of the H100 row's shape keeps the widths to 256.
        for_wide_memory(padded({256, 2, 256, false, 1, true, false, 1})),
        for_wide_memory({320, 5, 128, false, 1, true, false, 6}), // 0.483 at 264 ([0.381])
        for_wide_memory({384, 3, 256, false, 1, true, false, 4}), // 0.586 ([0.504])
        for_wide_memory({640, 5, 128, false, 1, true, false, 6}), // 0.534 at 600 ([0.404])
        for_wide_memory(
            {2560, 5, 256, false, 1, true, false, 3, true, 64}), // 0.591 / 0.678 ([0.494 / 0.538])
        for_wide_memory({3072, 3, 256, false, 1, true, false, 4, true, 128}), // 0.704 ([0.582])
        for_wide_memory({5120, 5, 128, true, 1, true, false, 5}), // 0.601 / 0.690 ([0.464 / 0.543])
        for_wide_memory({6144, 3, 256, true, 1, true, false, 4}), // 0.725 ([0.580])
    });

/// RMSNorm over 16-bit inputs.
inline constexpr register_shape rmsnorm_16bit_h100[] = {
    {512, 2, 256, false, 1, false, false, 5},  // r8 1.003-1.008 (r4's persistent row: 0.94-0.95)
    {1024, 4, 256, false, 1, false, false, 3}, // r4 0.996 (persistent staged: 0.91)
    // Rows of 2 warps, 2 a block: r29 0.997 / 0.999 (fp16 / bf16; the block row before, r4's 2 x
    // 128 persistent: 0.937 / 0.944 in the same run).
    {2048, 4, 256, false, 1, false, false, 3, true, 64},
    // r4 0.994 (2 x 256 staged persistent: 0.87). Its phased kernel capped to the aligned one's six
    // blocks an SM (ptxas -v, twenty-sixth session: 78 / 96 registers, 79 capped, no spill).
    phased_capped({4096, 4, 128, true, 1, false, false, 1}, 6),
    // Sized (twenty-eighth session): 4104 0.85 -> 0.93, 5120 0.93 -> 0.99, 8200 0.92 -> 1.00,
    // 10240 0.96 -> 0.99. Not the 4096- and 32768-column rows: 2056 lost 0.89 -> 0.86, 16392 and
    // 20480 moved 0.01.
    sized({8192, 4, 256, true, 1, false, false, 3}),  // r4 0.995
    sized({16384, 4, 512, true, 1, false, false, 2}), // r4 0.991
    // r30 (thirty-first session) 18432 / 20480 0.991-0.993 / 0.988-0.989 (the 32768-column row and
    // the 16384-column row's sized twins: 0.81 at 16392, 0.89 at 20480 in rowfuse-bench).
    {20480, 5, 512, true, 1, true, false, 2},
    {32768, 4, 1024, true, 1, false, false, 1}, // r4 0.990 (staged persistent: 0.913)
    // Rows over a cluster's registers (round 6, seventh session): gamma held with the row as
    // gamma alone (op::rmsnorm::read_columns; with beta's packs beside it the same shapes took
    // 128 registers and spilled, 0.72-0.82). block_cluster ran 0.75-0.83 here (rowfuse-bench).
    // The cluster rows were sized from the twenty-ninth to the thirty-first session (H100 fp16:
    // 32776 0.74 -> 0.83, 40960 0.83 -> 0.94; 65544 0.70 -> 0.78, 81920 0.80 -> 0.91; 131080 0.65
    // -> 0.73, 151936 0.71 -> 0.81, 163840 0.74 -> 0.85; misaligned 32777-151937 +0.07-0.09), until
    // rows of five and six packs a thread took those widths (rounds 30 and 31, thirty-first
    // session; rowfuse-bench, the sized twins against the rows below: 32776 / 40960 0.83 / 0.95 ->
    // 0.91 / 0.96, 65544 / 81920 0.77 / 0.90 -> 0.87 / 0.93). Rows of five packs at 40960 and
    // 81920 lost there to the rows of six (0.92 / 0.92 at 40960 / 81920, misaligned 0.04-0.06).
    // r31 40968 / 45056 / 49152 0.958 / 0.980 / 0.979, 32 bytes spilled (0.93 at 49152 on the
    // 65536-column row).
    // The phased plans of this row and of the 98304- and 196608-column rows of its shape go since
    // V97 (seventy-fourth session) to the same shape staged persistent under two, a row for phased
    // plans alone before each (127 registers, no spill; read straight under three their phased
    // kernels spilled 44 bytes, and under two lost, V70). rowfuse-bench, H100, one element off,
    // fp16 / bf16: 36001 0.78 / 0.76 -> 0.88, 49151 0.93 / 0.90 -> 0.94; 70001 / 75001 0.72-0.75 ->
    // 0.87-0.89, 90001 0.82 / 0.81 -> 0.89, 98303 0.87 / 0.85 -> 0.95; 170001 0.74 / 0.73 -> 0.86,
    // 190001 0.79 / 0.78 -> 0.86; 45001 +0.00 / +0.01.
    for_phased_rows({49152, 6, 256, true, 4, true, true, 2}),
    unphased({49152, 6, 256, true, 4, false, false, 3}),
    {65536, 8, 256, true, 4, false, false, 2}, // r6 0.998 (8 x 128 in 8 at 4 an SM: 0.997)
    // r31 81928 / 90112 / 98304 0.931 / 0.965 / 0.977, 32 bytes spilled (0.89 at 98304 on the
    // 131072-column row).
    for_phased_rows({98304, 6, 256, true, 8, true, true, 2}),
    unphased({98304, 6, 256, true, 8, false, false, 3}),
    // Round 52 (seventy-first session) 0.970 (0.944 on the row after it): rowfuse-bench V63 fp16 /
    // bf16 106496 / 114688 0.91 / 0.90 -> 0.93, 0.94 -> 0.97 / 0.96. Rows off the grid took the row
    // after it (its own phased kernel lost there) until V100 (seventy-fifth session) gave them the
    // same shape staged persistent, V97's form (rowfuse-bench, H100, one element off, fp16 / bf16):
    // 100003 0.84 / 0.83 -> 0.88, 106001 0.86 / 0.85 -> 0.88, 114687 0.92 / 0.91 -> 0.95.
    for_phased_rows({114688, 7, 256, true, 8, true, true, 2}),
    unphased({114688, 7, 256, true, 8, false, false, 2}),
    {131072, 8, 256, true, 8, false, false, 2}, // r6 0.978 (8 x 128 in 16: 0.970)
    // r30 131080 / 151936 / 163840 0.903-0.904 / 0.889-0.895 / 0.873 (the 262144-column row's
    // sized twins: 0.73 / 0.81 / 0.85 in rowfuse-bench; 10 x 512 in 4 ran 0.93 / 0.96 at 151936 /
    // 163840 and spilled 32 bytes).
    {163840, 5, 512, true, 8, true, true, 1},
    // r31 163848 / 180224 / 196608 0.857 / 0.915 / 0.941, 32 bytes spilled (0.82 at 196608).
    for_phased_rows({196608, 6, 256, true, 16, true, true, 2}),
    unphased({196608, 6, 256, true, 16, false, false, 3}),
    // 8 x 256 in 16 under two, one cluster a row tile (r6 0.931) until V63 (seventy-first
    // session): round 52's 4 x 512 in 16 on a persistent grid 0.966 (8 x 256 in 16: 0.941, and
    // 0.956 persistent); rowfuse-bench fp16 / bf16 196616 0.82 / 0.81 -> 0.86 / 0.85, 229376 0.88
    // -> 0.92, 262144 0.94 -> 0.95; one element off 200003 -0.02, 229377 +0.01-0.02, 262143
    // +0.03-0.04 (its phased kernel spills 8 bytes). An H200 plans its phased kernel at
    // 229384-262144 too, untimed there.
    // Rows off the grid at 196616-229383 on a row for them alone, 7 x 256 in 16 staged persistent
    // (V100, seventy-fifth session; rowfuse-bench, H100, one element off, fp16 / bf16): 200003 0.81
    // / 0.77 -> 0.87, 215001 0.84 / 0.79 -> 0.84, 229375 0.89 / 0.86 -> 0.92.
    for_phased_rows({229376, 7, 256, true, 16, true, true, 2}),
    {262144, 4, 512, true, 16, false, true, 2},
};

/// RMSNorm over 16-bit inputs: rmsnorm_16bit_h100 and, for devices of wide memory, the shapes
/// row_shapes.cu's round 35 found better on an H200 (forty-fifth session, bench/NOTES.md; the row
/// each passes by in brackets, in the same run; at 32768 columns the same shape on a persistent
/// grid, the same kernel; at 262144 the row it passes by was not in the round, and the same shape
/// without its cap of two blocks ran 0.775); the rows of rounds 38, 40, 43-45 and 47 (forty-sixth
/// to forty-ninth sessions), each group under its own comment.
/// The rows marked on_h100_too an H100 takes too: V53 (sixty-eighth session, rowfuse-bench, H100,
/// every such row at once, against the H100's own rows in the same run; bench/NOTES.md) measured
/// them faster there, fp16 ratio to copy before -> after: 96 / 192 0.96 -> 1.00, 136 / 160 0.82 /
/// 0.89 -> 0.94 / 1.01, 320 / 384 0.90 / 0.95 -> 1.00 / 1.01, 640 / 768 0.92 / 0.98 -> 1.00, 2560 /
/// 3072 0.96 / 0.98 -> 0.99, 6144 0.94 -> 0.99; one element off at 601 / 2577 / 4601 0.83 / 0.91 /
/// 0.92 -> 0.89 / 0.97 / 0.99; at 256 / 512 1.00 -> 0.98 / 0.99. Not taken: 12288 (-0.01) and the
/// cluster rows from 24576 (-0.02 to -0.07). Each run of such rows before an
/// H100 row is taken from its narrowest on, so the widths of a row not taken plan as before.
inline constexpr auto rmsnorm_16bit = with_wide_memory_rows(
    with_phased_rows(phased_narrow_16bit, rmsnorm_16bit_h100),
    {
        // Round 43 (forty-seventh session; rowfuse-bench on main in brackets): 32 / 64 / 128
        // columns 0.955 / 0.960 / 0.946 ([0.911 / 0.914 / 0.896]) on 2 packs under a cap of six;
        // 1024 0.992 ([0.918]) on 4 packs of 256 under four, which lost 0.07-0.19 at 264-512 in
        // rowfuse-bench to the row before it.
        on_h100_too(for_wide_memory({128, 2, 256, false, 1, false, false, 6})),
        on_h100_too(for_wide_memory({512, 4, 128, false, 1, false, false, 8})), // 0.983 ([0.900])
        for_wide_memory({1024, 4, 256, false, 1, false, false, 4}),
        // Round 38 (forty-sixth session): clusters of 256-thread blocks under a cap of two, round
        // 35's rows (or the H100 row, 131072) in brackets in the same run; at 131072 the H100
        // row's shape on a persistent grid. rowfuse-bench (call5): 98312-131072 +0.03-0.06. The
        // shape in 16 at 262144 (0.872) lost 0.09-0.17 at 196616-229376 there: round 35's row
        // stays. At 32768 the planner took the H100's block row before this cluster row until it
        // took rows in table order; then (call7) 28672 / 32768 +0.02 / +0.06-0.07, 24584 +0.005,
        // 20488 -0.015 / -0.027 (the cluster row's lanes 5/8 full), where round 35's row kept the
        // widths to 24576 until round 40's rows took them.
        for_wide_memory({32768, 8, 256, true, 2, false, false, 2}), // 0.968 ([0.910])
        for_wide_memory({131072, 8, 256, true, 8, false, true, 2}), // 0.922 ([0.859])
        for_wide_memory({262144, 8, 512, true, 8, true, true, 1}),  // 0.850

        // Round 40 (forty-seventh session): the widths between the powers of two on rows of six and
        // seven packs a thread, staged persistent where the row is filled to 3/4 (the width just
        // past the row before and the row's own; in brackets the rows they pass by, or their
        // shapes under round 40's caps of two and four, in the same run).
        for_wide_memory({24576, 6, 128, true, 4, true, true, 4}), // 0.856 / 0.859 ([0.716 / 0.740])
        for_wide_memory(
            {28672, 7, 256, true, 2, false, true, 2}), // 0.849 / 0.917 ([0.794 / 0.879])

        // Kept to 45056 columns: rowfuse-bench (call2) 40968 / 45056 / 49152 +0.06 / +0.01 / -0.02
        // against the H100 row, which takes the rest.
        for_wide_memory({45056, 6, 128, true, 8, true, true, 4}), // 0.865 / 0.871 ([0.673 / 0.796])
        for_wide_memory({57344, 7, 128, true, 8, true, true, 4}), // 0.859 / 0.870
        for_wide_memory({98304, 6, 256, true, 8, true, true, 2}), // 0.855 / 0.842 ([0.634 / 0.752])
        for_wide_memory({114688, 7, 256, true, 8, true, true, 2}), // 0.855 / 0.845
        for_wide_memory(
            {196608, 6, 256, true, 16, true, true, 2}), // 0.823 / 0.828 ([0.609 / 0.701])

        // Round 44 (forty-eighth session), as softmax's.
        on_h100_too(for_wide_memory({64, 2, 256, false, 1, false, false, 6})),
        on_h100_too(for_wide_memory({96, 3, 256, false, 1, false, false, 4})), // 0.923 ([0.830])
        on_h100_too(for_wide_memory({256, 4, 128, false, 1, false, false, 8})),
        on_h100_too(
            for_wide_memory({320, 5, 128, false, 1, false, false, 8})), // 0.889 at 264 ([0.705])
        on_h100_too(for_wide_memory({384, 3, 256, false, 1, false, false, 4})), // 0.919 ([0.901])
        on_h100_too(for_wide_memory_phased(
            {640, 5, 128, false, 1, false, false, 8})), // 0.955 at 600 ([0.785])
        on_h100_too(for_wide_memory_phased({2560, 5, 128, false, 1, false, false, 6, true,
                                            64})), // 0.904 / 0.981 ([0.771 / 0.879])
        on_h100_too(for_wide_memory_phased(
            {3072, 3, 256, false, 1, false, false, 4, true, 128})), // 0.937 ([0.869])
        on_h100_too(for_wide_memory_phased({5120, 5, 128, false, 1, false, false, 6, true,
                                            128})), // 0.931 / 0.997 ([0.815 / 0.910])
        on_h100_too(
            for_wide_memory_phased({6144, 3, 256, true, 1, false, false, 4})), // 0.966 ([0.940])

        // Round 45 (forty-eighth session), rowfuse-bench on round 44's rows in brackets.
        on_h100_too(
            for_wide_memory({768, 6, 128, false, 1, false, false, 6})), // 0.904 at 648 ([0.83])

        // Round 47 (forty-ninth session), as softmax's; the 20480-column row is the H100's loaded
        // straight to registers.
        for_wide_memory({10240, 5, 128, true, 2, false, false, 6}), // 0.907 / 0.992 ([0.797 / -])
        for_wide_memory_phased({12288, 6, 256, true, 1, true, false, 3}), // 0.919
        for_wide_memory(
            {20480, 5, 512, true, 1, false, false, 2}), // 0.909 / 0.954 ([0.810 / 0.930])
    });

// Round 8 (tenth session): the norms' group rows at 32-512 columns under register caps that
// buy blocks. One block a tile with five or six blocks an SM wins where rounds 1-4 chose
// persistent grids of three or four: softmax, at 34 registers and six blocks, ran there at 0.99+.
// Round 9 (tenth session): 1024-4096 columns the same way; softmax at 2048 on a warp a row with 64
// values a lane (QuACK's shape), layernorm at 4096 on 4 x 128 block rows, six blocks an SM.

/// LayerNorm's 16-bit rows past 4096 columns, the op alone (the chains have tables of their own).
/// The 8192-column row's phased kernel capped to the aligned one's four blocks an SM (ptxas -v,
/// sm_90, twenty-sixth session: 64 registers aligned, 72 phased, 64 capped, no spill).
/// Sized (twenty-eighth session): 4104 0.81 -> 0.89, 5120 0.93 -> 0.98, 8200 0.70 -> 0.89, 10240
/// 0.82 -> 0.93, 16392 0.74 -> 0.83, 20480 0.87 -> 0.92 (the 4096-column row, not sized: its twin
/// lost at 2056 0.86 -> 0.83 and 3000 1.01 -> 0.98).
inline constexpr register_shape layernorm_16bit_past_4096[] = {
    sized(phased_capped({8192, 4, 256, true, 1, false, false, 3}, 4)), // r4 0.932
    sized({16384, 4, 512, true, 1, false, false, 2}),                  // r4 0.946
    // Round 51 (sixty-seventh session, H100): 8 x 256 in 2 under two, staged, gamma and beta held,
    // one cluster a row tile, 0.967 against the block row below, 0.938. rowfuse-bench (V58,
    // seventieth session, the block row before -> this one, fp16 / bf16): H100 28680 0.85 / 0.84 ->
    // 0.93 / 0.91, 32768 0.930 / 0.922 -> 0.964 / 0.934; one element off (its phased kernel) 22001
    // / 32767 +0.06-0.09 on an H100, +0.05-0.08 on an H200.
    {32768, 8, 256, true, 2, true, false, 2, true, 0, column_placement::held},
    // The block row it replaced, for block_rows forced alone (the automatic plan passes it by: the
    // cluster row before it holds its width), so that every engine forced on the op alone still
    // holds the chains' widest rows. Not sized since the seventy-fourth session (V94): its two
    // sized twins made room in one call's 1 MiB for the 24576-column row's phased kernel, which
    // only plans take (a forced block row at 16392-32768 columns runs 1024 threads a block).
    {32768, 4, 1024, true, 1, true, true, 1}, // r4 0.861
};

/// LayerNorm's 16-bit rows past 32768 columns under a load chain (measured on the residual block;
/// without its tee it now has layernorm_operand_chain_16bit's), whose operands and tee cannot be
/// read twice (layernorm_16bit_held_clusters' rows would): rows over a
/// cluster's registers. At 65536 and 131072 columns gamma and beta held with the row on persistent
/// clusters, pipeline_shapes.cu's wide survey (nineteenth session, fp16; the library's call on
/// them, residual / residual_tee, against round 18's rows read ahead on one cluster a row tile in
/// the same run: 65536 0.485-0.489 / 0.533-0.535 -> 0.579-0.581 / 0.678, 131072 0.458-0.460 /
/// 0.506-0.507 -> 0.545-0.546 / 0.633-0.636). At 262144 round 18's row (the op alone, fp16 / bf16;
/// read ahead: with the row these spilled), which the survey did not beat.
inline constexpr register_shape layernorm_16bit_clusters[] = {
    // Sized (twenty-ninth session, H100 fp16): residual 32776 0.46 -> 0.50, 40960 0.49 -> 0.56;
    // misaligned 32777 0.35 -> 0.39, 40961 0.36 -> 0.42. Not the next two (H200: residual 65544-
    // 163840 0.03-0.09 lost, residual_tee 0.03-0.15).
    sized({65536, 4, 256, true, 8, false, true, 2}), // survey 0.582 / 0.678
    {131072, 4, 512, true, 8, false, true, 1},       // survey 0.546 / 0.636
    {262144, 8, 256, true, 16, true, false, 2, true, 0,
     column_placement::ahead}, // r18 0.668 / 0.654 (4 x 512 in 16: 0.691 / 0.627)
};

/// LayerNorm's 16-bit rows past 32768 columns with a bare load chain (the op alone, a store chain):
/// the row read back from its staging slot for each phase and the finish, gamma and beta held in
/// the registers it leaves, on persistent clusters that stage a row ahead (round 24, nineteenth
/// session, fp16 / bf16; the same shapes on one cluster a row tile: 0.77 / 0.77, 0.73 / 0.68 and
/// 0.73 / 0.73). The rows they replace (layernorm_16bit_clusters) ran 0.81 / 0.81, 0.76 / 0.74 and
/// 0.63-0.66 / 0.63-0.66 in the same runs.
inline constexpr register_shape layernorm_16bit_held_clusters[] = {
    {65536, 4, 1024, true, 2, true, true, 1, true, 0,
     column_placement::held}, // r24 0.933-0.935 / 0.913-0.920
    {131072, 8, 512, true, 4, true, true, 1, true, 0,
     column_placement::held}, // r24 0.880-0.884 / 0.836-0.837 (4 x 512 in 8: 0.84 / 0.83)
    // Sized (twenty-ninth session, H100 fp16, layernorm / layernorm -> fp8): 131080 0.70 -> 0.77 /
    // 0.50 -> 0.56, 151936 0.77 -> 0.82 / 0.54 -> 0.59, 163840 0.81 -> 0.84 / 0.57 -> 0.62. Not the
    // 65536- and 131072-column rows above (H200: 32776-81920 0.03-0.16 lost).
    sized({262144, 8, 256, true, 16, true, true, 2, true, 0,
           column_placement::held}), // r24 0.880-0.883 / 0.873-0.874
};

/// LayerNorm over 16-bit inputs (three values reduced a row, gamma and beta: the most registers),
/// the op alone (no load or store nodes; chains take layernorm_chain_16bit). Past 16384 columns
/// the op alone has rows of its own of five and six packs a thread (round 32, thirty-first
/// session), for the widths between the powers of two; the rows they pass by in brackets
/// (rowfuse-bench): at 18432 / 20480 0.947 / 0.943, 32 bytes spilled ([0.91 / 0.92]: the
/// 32768-column row's sized twins); held, staged persistent, at 36864 / 40960 0.945 / 0.929
/// ([0.78 / 0.81]: the 65536-column row), 73728 / 81920 0.892 / 0.925 ([0.84 / 0.90]), 151936 /
/// 163840 0.846 / 0.891 ([0.81 / 0.85]: the 262144-column row's twins), 180224 / 196608 0.887 /
/// 0.926 ([- / 0.87]).
inline constexpr auto layernorm_16bit_h100 = insert_rows(
    replace_rows(
        join_rows(
            join_rows(
                {
                    // r34 (thirty-fourth session) 0.932-0.940 at 32-64 columns: 72 registers,
                    // no spill; r8's 2 x 256 under a cap of four, 64 registers and 8 bytes
                    // spilled, 0.889-0.892 in the same run. The library call, both tables in
                    // one run: 0.89 -> 0.92-0.93 at 32, 0.89 -> 0.91-0.92 at 64.
                    {64, 2, 128, false, 1, false, true, 6},
                    // The phased kernels of the next three rows capped to the aligned ones'
                    // blocks an SM (ptxas -v, sm_90, twenty-sixth session: 64 registers aligned,
                    // 72 phased, capped 64 with 4 bytes spilled at 1024, 63-64 and none at 2048
                    // and 4096). The 1024 row: r8 0.950-0.961 at 128-512, r4 0.921.
                    phased_capped({1024, 4, 128, false, 1, false, false, 6}, 8),
                    // Rows of 2 warps, 2 a block: r29 0.990 / 0.984 (fp16 / bf16; r4's block row
                    // before: 0.945 / 0.940 in the same run).
                    phased_capped({2048, 4, 256, false, 1, false, false, 3, true, 64}, 4),
                    // r9 0.994 (r4's 2 x 256 staged persistent: 0.922)
                    phased_capped({4096, 4, 128, true, 1, false, false, 6}, 8),
                },
                layernorm_16bit_past_4096),
            layernorm_16bit_held_clusters),
        // The op alone's rows off the grid take the 81920-column row's phased kernel (5 x 256 in
        // 8) past 40960 columns: this row's spilled 58 bytes under its 64 registers, and V74
        // (seventy-second session, H100, one element off, fp16 / bf16) ran 41001-65001 +0.01 /
        // +0.02 to +0.07 / +0.06 there (65001 0.76 -> 0.82). The store chain's table, which has no
        // 81920-column row, keeps it.
        {phased_elsewhere(
            {65536, 4, 1024, true, 2, true, true, 1, true, 0, column_placement::held})}),
    {
        {20480, 5, 512, true, 1, false, false, 2},
        {40960, 5, 512, true, 2, true, true, 1, true, 0, column_placement::held},
        // Rows off the grid at 40968-49159 on a row for them alone (V98, seventy-fifth session):
        // the 98304-column row's shape in a cluster of four, where the 81920-column row's phased
        // kernel held them at 50-60 % of its places. rowfuse-bench, H100, one element off, fp16 /
        // bf16: 41001 0.64 / 0.61 -> 0.79, 45001 0.70 / 0.67 -> 0.82, 49151 0.76 / 0.74 -> 0.82 /
        // 0.81. The same form at 65536 columns (4 x 256 in 8 under one, V99) left 50001-65001
        // within 0.01 of the 81920-column row's.
        for_phased_rows({49152, 6, 256, true, 4, true, true, 2, true, 0, column_placement::held}),
        {81920, 5, 256, true, 8, true, true, 1, true, 0, column_placement::held},
        {163840, 5, 512, true, 8, true, true, 1, true, 0, column_placement::held},
        {196608, 6, 512, true, 8, true, true, 1, true, 0, column_placement::held},
    });

/// LayerNorm over 16-bit inputs: layernorm_16bit_h100 and, for devices of wide memory, the shapes
/// row_shapes.cu's round 41 found better on an H200 (forty-seventh session, fp16 / bf16; the width
/// just past the row before and the row's own, the rows they pass by in brackets, in the same run):
/// rows of five to seven packs a thread of 256 under caps of two and three, and past 20480 columns
/// staged persistent in clusters, the 32768- and 98304-column rows read back from staging with
/// gamma and beta held; the rows of rounds 43-45 (forty-seventh and forty-eighth sessions), each
/// group under its own comment.
/// The rows marked on_h100_too an H100 takes too: V53 (sixty-eighth session, rowfuse-bench, H100,
/// every such row at once, against the H100's own rows in the same run; bench/NOTES.md) measured
/// them faster there, fp16 ratio to copy before -> after (bf16 where it differs): 64 0.93 -> 0.99,
/// 160 0.95 (0.86) -> 0.96 (0.97), 320 / 640 0.94 (0.85) -> 0.98-0.99, 2560 0.96 (0.92) -> 0.98,
/// 10240 / 12288 0.93 / 0.90 -> 0.98, 24576 / 24584 0.91 / 0.82 -> 0.93 / 0.89; one element off at
/// 601 0.75 -> 0.78; at 448 1.00 -> 0.99 and 136 0.88 -> 0.84 (bf16 0.77 -> 0.87). Not taken: 2048,
/// 7168, 49152 (-0.01 to -0.02). Each run of such rows before an
/// H100 row is taken from its narrowest on, so the widths of a row not taken plan as before.
inline constexpr auto layernorm_16bit = with_wide_memory_rows(
    with_phased_rows(phased_narrow_layernorm_16bit, layernorm_16bit_h100),
    {
        // Round 43 (forty-seventh session): a warp a row at 1024 and 2048 columns (rowfuse-bench on
        // main in brackets). Taken from 96 columns down, it lost 0.14-0.65 of a copy: a row of the
        // H100 row's shape keeps the widths to 512. The 2048-column row (0.958 against the H100
        // row's 0.941 on an H200) went in the seventy-fourth session (V95) to make room in one
        // call's 1 MiB for the 98304-column row's phased kernel.
        on_h100_too(for_wide_memory({512, 4, 128, false, 1, false, false, 6})),
        on_h100_too(for_wide_memory(
            {1024, 4, 128, false, 1, false, false, 8, true, 32})),               // 0.932 ([0.888])
        on_h100_too(for_wide_memory({10240, 5, 256, true, 1, false, false, 3})), // 0.766 / 0.881
        on_h100_too(for_wide_memory_phased(
            {12288, 6, 256, true, 1, false, false, 3})), // 0.927 / 0.884 (bf16)

        // With its phased kernel since V94 (seventy-fourth session, H100, rowfuse-bench, one
        // element off, fp16 / bf16): 20489 0.78 / 0.77 -> 0.82 / 0.81, 22001 0.79 -> 0.84 / 0.83,
        // 24001 0.81 -> 0.86, where the 32768-column row's phased kernel took those widths.
        on_h100_too(
            for_wide_memory_phased({24576, 6, 256, true, 2, true, true, 2})), // 0.721 / 0.897
        on_h100_too(for_wide_memory(
            {28672, 7, 256, true, 2, true, true, 2})), // 0.685 / 0.830 ([0.637 / 0.760])
        for_wide_memory({32768, 8, 256, true, 2, true, true, 2, true, 0,
                         column_placement::held}),                // 0.869 ([0.808])
        for_wide_memory({49152, 6, 128, true, 8, true, true, 4}), // 0.730 / 0.869 ([0.613 / 0.764])

        // On an H100 too since V67 (seventy-first session; round 55 0.885 / 0.932 at 81928 / 98304
        // against the 131072-column row's 0.839 / 0.922): rowfuse-bench fp16 / bf16 81928 0.82 /
        // 0.84 -> 0.89, 90112 0.92 / 0.93 -> 0.94 / 0.93, 98304 0.92 -> 0.93. With its phased
        // kernel since V95 (seventy-fourth session, H100, one element off, fp16 / bf16, where the
        // 131072-column row's took those widths): 86001 0.79 / 0.76 -> 0.81 / 0.80, 90001 0.80 /
        // 0.78 -> 0.82 / 0.81, 95001 0.81 / 0.79 -> 0.83 / 0.82; 82001 and 98303 within 0.02.
        on_h100_too(
            for_wide_memory_phased({98304, 6, 256, true, 8, true, true, 2, true, 0,
                                    column_placement::held})), // 0.790 / 0.873 ([0.698 / 0.817])

        // Round 44 (forty-eighth session), as softmax's; at 3000 columns no row beat the H100's.
        on_h100_too(for_wide_memory({96, 3, 128, false, 1, false, false, 8})), // 0.804 ([0.617])
        on_h100_too(for_wide_memory({256, 4, 128, false, 1, false, false, 6})),
        on_h100_too(
            for_wide_memory({320, 5, 128, false, 1, false, false, 8})), // 0.775 at 264 ([0.528])
        on_h100_too(for_wide_memory({384, 3, 128, false, 1, false, false, 8})), // 0.811 ([0.740])
        on_h100_too(for_wide_memory_phased(
            {640, 5, 128, false, 1, false, false, 8})), // 0.843 at 600 ([0.588])
        on_h100_too(for_wide_memory_phased({2560, 5, 128, false, 1, false, false, 6, true,
                                            64})), // 0.863 / 0.968 ([0.637 / 0.764])
        on_h100_too(for_wide_memory({5120, 5, 128, false, 1, false, false, 6, true,
                                     128})), // 0.865 / 0.952 ([0.631 / 0.743])
        on_h100_too(
            for_wide_memory_phased({6144, 6, 128, true, 1, false, false, 6})), // 0.962 ([0.821])

        // Round 45 (forty-eighth session), rowfuse-bench on round 44's rows in brackets.
        on_h100_too(for_wide_memory({128, 4, 128, false, 1, false, false, 6})),
        on_h100_too(for_wide_memory({160, 5, 128, false, 1, false, false, 8})), // 0.829 ([0.65])
        on_h100_too(for_wide_memory({192, 3, 128, false, 1, false, false, 8})), // 0.805 ([0.74])
        on_h100_too(for_wide_memory({448, 7, 128, false, 1, true, false, 5})),  // 0.817 ([0.73])
        for_wide_memory({7168, 7, 128, true, 1, false, false, 5}), // 0.847 at 6152 ([0.79])

        // Round 49 (fiftieth session): four packs a lane of 128 at 33-64 columns, two lanes a row
        // (0.830 against the H100 row's 0.789 at 64 in the same run); rowfuse-bench (call13) 40 /
        // 48 / 64 0.56 / 0.65 / 0.79 -> 0.68 / 0.80 / 0.83, but 16 / 32 0.72 / 0.81 -> 0.59 / 0.66
        // (a lane a row), so a row of the H100 row's shape keeps the widths to 32.
        // Fifty-second session (rowfuse-bench, fp16 / bf16): the same shape staged as a flat tile
        // (two lanes a row, the group fixed) at 64 columns 0.845 / 0.809 -> 0.886 / 0.850 (call4),
        // but over all of 33-64 at 40 / 48 -0.06 fp16 and 56 bf16 -0.016 (call3): it keeps the
        // widths past 56.
        on_h100_too(for_wide_memory({32, 2, 128, false, 1, false, true, 6})),
        on_h100_too(for_wide_memory({56, 4, 128, false, 1, false, false, 6})),
        on_h100_too(for_wide_memory({64, 4, 128, false, 1, true, false, 6, true, 2})),
    });

/// LayerNorm over 16-bit inputs under a load chain (the residual block), to 4096 columns. Rows
/// marked s are pipeline_shapes.cu's survey of the residual block (seventeenth session, fp16 /
/// bf16; r4's rows ran 0.72-0.78 at 128-1024 in rowfuse-bench); at 2048 and 4096 r4's rows were the
/// survey's best too. Rows marked n: its narrow survey (32 and 64 columns, eighteenth session; r4's
/// row 2 x 256 under a cap of four blocks, in the same run: residual 0.72-0.76, residual_tee
/// 0.70-0.78, which the n row takes to 0.92-0.93). Rows marked o stage the residual beside the
/// input (stages_operands; the survey again, twenty-first session, fp16, the residual block, the
/// same shape reading the residual straight to registers in brackets, in the same run).
inline constexpr register_shape layernorm_chain_16bit_to_4096[] = {
    {64, 1, 512, false, 1, false, true, 1},  // n 0.806-0.814 / 0.775-0.781
    {256, 1, 512, false, 1, false, true, 1}, // s 0.792-0.807 / 0.756-0.771
    {512, 4, 128, false, 1, true, false, 1, true, 0, column_placement::per_engine,
     true}, // o 0.814-0.815 ([0.790]); residual_tee 0.901 ([0.855])
    // Rows of 2 warps for forced plans alone (max_cols no more than the row before: the automatic
    // plan passes it by), so that every engine forced on layernorm alone runs here (its rows of
    // warps reach 2048 columns).
    {512, 4, 256, false, 1, false, false, 3, true, 64},
    // The 2048- and 4096-column rows sized (twenty-eighth session, the residual block): 1032 0.56
    // -> 0.59, 2056 0.60 -> 0.67, 4104 0.67 -> 0.71, 5120 0.77 -> 0.82. The 1024-column row's twin
    // (513-640 columns) was not measured.
    {1024, 1, 128, true, 1, false, false, 1}, // s 0.819 / 0.799
    sized({2048, 2, 128, true, 1, true, true, 1, true, 0, column_placement::per_engine,
           true}), // o 0.842 ([0.799-0.803])
    sized({4096, 2, 256, true, 1, true, true, 3, true, 0, column_placement::per_engine,
           true}), // o 0.842-0.846 ([0.826-0.827])
};

/// The residual block's rows from 8192 to 16384 columns: pipeline_shapes.cu's survey (seventeenth
/// session, fp16 / bf16; rowfuse-bench ran 0.76 at 8192 and 0.71-0.73 at 16384 on r4's rows), the
/// residual staged beside the input at 16384 (o, as above; at 8192 and 32768 it lost: 0.859 ->
/// 0.834, 0.701 -> 0.649). Sized (twenty-eighth session): 8200 0.60 -> 0.71, 10240 0.72 -> 0.84.
inline constexpr register_shape layernorm_chain_16bit_to_16384[] = {
    sized({8192, 4, 256, true, 1, true, true, 3}), // 0.858 / 0.835
    sized({16384, 4, 512, true, 1, true, true, 1, true, 0, column_placement::per_engine,
           true}), // o 0.785 ([0.758-0.762]; 0.764 / 0.747)
};

/// LayerNorm's 16-bit rows to 16384 columns under a load chain that does not tee, and the rows
/// for devices of wide memory that the residual block's survey found better on an H200
/// (forty-fifth session, fp16, bench/NOTES.md; the row each passes by in brackets, in the same
/// run): 4 packs a lane to 256 columns, and at 4096 four packs a thread of 128, read straight to
/// registers, one block a tile under a cap of six blocks (on the H100 this shape ran 0.782 against
/// its row's 0.827: seventeenth session); at 131072 the wide survey's best, 4 packs of 256 in
/// clusters of 16, staged persistent, the operands read straight to registers (rowfuse-bench,
/// `results/2026-12-01-forty-fifth/call12/`: 98312 / 131072 columns 0.389 / 0.440 -> 0.422 /
/// 0.493).
inline constexpr auto layernorm_chain_16bit_to_16384_all =
    join_rows(layernorm_chain_16bit_to_4096, layernorm_chain_16bit_to_16384);
inline constexpr register_shape layernorm_chain_16bit_wide_memory[] = {
    // 128 / 256 columns 0.623 / 0.633 ([0.609 / 0.596])
    for_wide_memory({256, 4, 256, false, 1, true, false, 1}),
    for_wide_memory({4096, 4, 128, true, 1, false, false, 6}), // 0.721 ([0.640])
    for_wide_memory({131072, 4, 256, true, 16, true, true, 1}),

    // PIPELINE_SHAPES_BETWEEN (forty-eighth session), as attention's.
    for_wide_memory({320, 5, 128, false, 1, true, false, 6}),  // 0.482 at 264 ([0.394])
    for_wide_memory({384, 3, 256, false, 1, false, false, 4}), // 0.655 ([0.556])
    for_wide_memory({640, 5, 128, false, 1, false, false, 6}), // 0.555 at 600 ([0.473])
    for_wide_memory(
        {2560, 5, 128, false, 1, false, false, 6, true, 64}), // 0.592 / 0.671 ([0.559 / 0.639])
    for_wide_memory({3072, 3, 256, false, 1, true, false, 4, true, 128}), // 0.702 ([0.660])
    for_wide_memory({5120, 5, 128, true, 1, false, false, 6}), // 0.632 / 0.699 ([0.393 / 0.447])
    for_wide_memory({6144, 3, 256, true, 1, true, false, 4}),  // 0.709 ([0.476])
};

/// LayerNorm over 16-bit inputs under a load chain that does not tee and does not stream an operand
/// as wide as its input (rf::bias, rf::dropout, a mask: layernorm_operand_chain_16bit takes the
/// others): at 32768 layernorm_16bit's row, past it layernorm_16bit_clusters. Rows read back from
/// their staging slot run such a chain again at each read (its values have no room beside the
/// input to be kept: engine::keeps_chain_values), which lost for the residual block
/// (bench/NOTES.md, twenty-first session).
inline constexpr auto layernorm_chain_16bit = with_wide_memory_rows(
    join_rows(join_rows(layernorm_chain_16bit_to_16384_all,
                        {{32768, 4, 1024, true, 1, true, true, 1}}), // r4 0.861 (the op alone)
              layernorm_16bit_clusters),
    layernorm_chain_16bit_wide_memory);

/// LayerNorm over 16-bit inputs under a load chain that streams an operand as wide as its input
/// and does not tee (the residual block: rf::add's residual): layernorm_chain_16bit's rows to 16384
/// columns, and past them rows read back from their staging slot with the residual staged beside
/// the input, kept there as the chain's values after the first phase (engine::keeps_chain_values),
/// gamma and beta held with the row, on persistent clusters that stage a row ahead: at 32768 the
/// tee'd block's row (layernorm_tee_chain_16bit: clusters of two; its rows off the grid take the
/// block rows' phased kernels, as the tee's do), at 65536 and 131072 clusters of four and eight
/// (since the seventy-ninth session at 131072 clusters of sixteen: layernorm_operand_chain_16bit_
/// read_back_131072).
/// rowfuse-bench (H100, seventy-seventh session, against layernorm_chain_16bit's rows, fp16 /
/// bf16): 24576 0.676 / 0.665 -> 0.753 / 0.725, 32768 0.713 / 0.716 -> 0.746 / 0.725 (that cell's
/// passes 0.72-0.77), 40960 0.563 / 0.559 -> 0.583 / 0.560, 65536 0.594 / 0.589 -> 0.698 / 0.675,
/// 131072 0.555 / 0.548 -> 0.598 / 0.591. At 262144 layernorm_16bit_clusters' row: the row read
/// back, 4 x 512 in 16, lost there (0.631 / 0.620 -> 0.524 / 0.518). The block row of four packs of
/// 1024 threads stays for forced plans alone (max_cols 16384: the automatic plan passes it by).
/// Off the grid the rows read back to 98304 columns run their own phased kernels, dropout's
/// decisions drawn by the warp (engine::register_kernel), where rows over a cluster's registers for
/// phased plans alone ran before (4 x 160-256 in 8, sized; rowfuse-bench, H100, eightieth session,
/// fp16 / bf16, one element off: 33001-40001 +0.08-0.10 / +0.08-0.10, 41001-65001 +0.01 / +0.01,
/// 90001 +0.08 / +0.07, and the tee'd block at 33001-40001, which took the 65536-column row's
/// phased kernel, +0.15-0.17 / +0.14-0.18). Past 98304 the 131072-column row's phased kernel ran
/// within 0.01 of the row over a cluster's registers that phased plans take there (100003, 120001).
/// At 40960 and 98304 columns rows of five and six packs a thread in the same form, where the
/// widths took the next power of two's row and filled 5/8 and 3/4 of it: rowfuse-bench (H100,
/// seventy-eighth session, fp16 / bf16, against the 65536- and 131072-column rows): 36864 0.535 /
/// 0.513 -> 0.690 / 0.676, 40960 0.582 / 0.560 -> 0.684 / 0.668, 81920 0.522 / 0.512 -> 0.631 /
/// 0.616, 98304 0.581 / 0.573 -> 0.647 / 0.631 (5 x 512 in 2 and 6 x 256 in 8: 0.02-0.03 less). To
/// 40960 columns: the tee'd block's too (layernorm_tee_chain_16bit; fp16 / bf16 36864 0.647 / 0.629
/// -> 0.785 / 0.779, 40960 0.682 / 0.671 -> 0.786 / 0.780 on the 40960-column row). At 49152 six
/// packs of 256 in the 40960-column row's form, for both blocks, where 40961-49152 columns filled
/// 5/8-3/4 of the 65536-column row (rowfuse-bench, H100, eightieth session, fp16 / bf16: the
/// residual block 45056 0.616 / 0.600 -> 0.636 / 0.617, 49152 0.672 / 0.653 -> 0.696 / 0.673, one
/// element off 41001-49001 +0.08-0.12 / +0.08-0.12; the tee'd block 45056 +0.03 / +0.03, 49152
/// within 0.001, one element off 41001-49001 +0.07-0.13 / +0.07-0.13).
/// The residual blocks' block row for forced plans to 32768 columns.
inline constexpr register_shape layernorm_operand_chain_16bit_forced_block = {
    16384, 4, 1024, true, 1, true, true, 1};
/// The residual blocks' row read back at 32768 columns, on clusters of two (the tee'd block 0.852
/// [0.750]: twenty-first session's survey).
inline constexpr register_shape layernorm_operand_chain_16bit_32768 = {
    32768, 4, 512, true, 2, true, true, 1, true, 0, column_placement::held, true};
inline constexpr register_shape layernorm_operand_chain_16bit_to_49152[] = {
    layernorm_operand_chain_16bit_forced_block,
    phased_elsewhere(layernorm_operand_chain_16bit_32768),
    {40960, 5, 256, true, 4, true, true, 2, true, 0, column_placement::held, true},
    {49152, 6, 256, true, 4, true, true, 2, true, 0, column_placement::held, true},
};
/// The residual block's row read back at 98304 columns: six packs of 512 in clusters of four. The
/// tee'd block's phased plans take it too (layernorm_tee_chain_16bit).
inline constexpr register_shape layernorm_operand_chain_16bit_98304 = {
    98304, 6, 512, true, 4, true, true, 1, true, 0, column_placement::held, true};
inline constexpr register_shape layernorm_operand_chain_16bit_to_98304[] = {
    {65536, 4, 512, true, 4, true, true, 1, true, 0, column_placement::held, true},
    layernorm_operand_chain_16bit_98304,
};
/// Rows one element off at 98305-114688 columns: seven packs of 512 read back in clusters of four,
/// for phased plans alone, dropout's decisions drawn by the warp (rowfuse-bench, H100, eighty-first
/// session, fp16 / bf16, against the row over a cluster's registers past it: the residual block at
/// 100003 0.427 / 0.420 -> 0.474 / 0.458, 110001 0.421 / 0.415 -> 0.504 / 0.488, its tee'd form
/// 0.506 / 0.503 -> 0.552 / 0.538 and 0.498 / 0.498 -> 0.583 / 0.568). Eight packs of 256 in
/// clusters of eight read back at 131072 lost there (-0.07 to -0.18).
inline constexpr register_shape layernorm_operand_chain_16bit_phased_114688 = {
    114688, 7, 512, true, 4, true, true, 1, true, 0, column_placement::held, true};
/// Past 98304 columns, around the row read back at 131072 (`read_back`, unphased): off the grid
/// rows read back for phased plans alone at 98305-114688 and 131073-262143 columns, at
/// 114689-131072 the row over a cluster's registers (for phased plans alone), at 262144
/// layernorm_16bit_clusters' row (aligned plans alone). The tee'd block's past 65536 too
/// (layernorm_tee_chain_16bit, which lost on the 98304-column row: 0.722 / 0.720 -> 0.712 / 0.703
/// at 98304, where it gained at 81920). The three rows past 131072 (rowfuse-bench, H100,
/// eighty-second session, fp16 / bf16, one element off, against the 262144-column row's phased
/// kernel, which phased plans took there): five packs of 256 in clusters of sixteen under a cap of
/// two blocks an SM at 163840 (the residual block at 140001 / 163839 0.316 / 0.311 -> 0.437 / 0.430
/// and 0.387 / 0.385 -> 0.517 / 0.510, its tee'd form 0.386 / 0.382 -> 0.542 / 0.537 and 0.482 /
/// 0.472 -> 0.627 / 0.621; five of 512 in eight 0.01-0.06 less), six and seven packs of 512 in
/// clusters of eight at 196608 and 229376 (170001 / 220001 0.337 / 0.332 -> 0.465 / 0.446 and 0.369
/// / 0.366 -> 0.480 / 0.469, its tee'd form 0.406 / 0.399 -> 0.560 / 0.547 and 0.435 / 0.415 ->
/// 0.570 / 0.559; of 256 in sixteen 0.06-0.17 less). Off the grid at 229377-262143, four packs of
/// 512 in clusters of sixteen read back, for phased plans alone, where the 262144-column row's
/// phased kernel spilled 172-240 bytes (rowfuse-bench, H100, eighty-fifth session, fp16 / bf16, one
/// element off: its tee'd form at 240001 / 250001 / 262143 0.369 / 0.365 -> 0.494 / 0.485, 0.374 /
/// 0.369 -> 0.497 / 0.488 and 0.382 / 0.377 -> 0.511 / 0.501; the residual block 0.370 / 0.365 ->
/// 0.401 / 0.394, 0.381 / 0.376 -> 0.399 / 0.391, but 0.448 / 0.444 -> 0.419 / 0.406).
constexpr std::array<register_shape, 8>
layernorm_operand_chain_16bit_past_98304(register_shape read_back) {
  return {for_phased_rows(layernorm_operand_chain_16bit_phased_114688),
          for_phased_rows({131072, 4, 512, true, 8, false, true, 1}),
          unphased(read_back),
          for_phased_rows(
              {163840, 5, 256, true, 16, true, true, 2, true, 0, column_placement::held, true}),
          for_phased_rows(
              {196608, 6, 512, true, 8, true, true, 1, true, 0, column_placement::held, true}),
          for_phased_rows(
              {229376, 7, 512, true, 8, true, true, 1, true, 0, column_placement::held, true}),
          for_phased_rows(
              {262144, 4, 512, true, 16, true, true, 1, true, 0, column_placement::held, true}),
          unphased({262144, 8, 256, true, 16, true, false, 2, true, 0, column_placement::ahead})};
}
/// The residual block's row read back at 131072: 4 x 256 in clusters of 16 under a cap of two
/// blocks an SM (32 KB slots), against 4 x 512 in 8, one block an SM (rowfuse-bench, H100,
/// seventy-ninth session, fp16 / bf16: 131072 0.596 / 0.585 -> 0.615 / 0.608; the tee'd block on it
/// 0.695 / 0.690 -> 0.692 / 0.687 at 131072 and 0.724 / 0.710 -> 0.691 / 0.678 at 98304, so it
/// keeps its row).
inline constexpr register_shape layernorm_operand_chain_16bit_read_back_131072 = {
    131072, 4, 256, true, 16, true, true, 2, true, 0, column_placement::held, true};
inline constexpr register_shape layernorm_tee_chain_16bit_read_back_131072 = {
    131072, 4, 512, true, 8, true, true, 1, true, 0, column_placement::held, true};
inline constexpr auto layernorm_operand_chain_16bit =
    with_wide_memory_rows(join_rows(join_rows(join_rows(layernorm_chain_16bit_to_16384_all,
                                                        layernorm_operand_chain_16bit_to_49152),
                                              layernorm_operand_chain_16bit_to_98304),
                                    layernorm_operand_chain_16bit_past_98304(
                                        layernorm_operand_chain_16bit_read_back_131072)),
                          layernorm_chain_16bit_wide_memory);

/// LayerNorm over 16-bit inputs under a load chain that tees (the residual block writing its
/// pre-norm sum h, which the next block reads): layernorm_chain_16bit's rows but at 2048 and 4096,
/// where staging the residual lost with the tee (0.912 -> 0.879, 0.901 -> 0.883), and at 32768,
/// 40960, 49152 and 65536 columns, where the row is read back from its staging slot with the
/// residual beside it, gamma and beta held in the registers the row leaves (pipeline_shapes.cu's
/// held survey, twenty-first session, fp16, the chains' rows in the same run in brackets; 40960 and
/// 49152 the residual block's rows, seventy-eighth and eightieth sessions). Off the grid at
/// 16385-32768 the row read back at 32768 with its phased kernel, the block row for forced plans
/// passed by (rowfuse-bench, H100, eightieth session, fp16 / bf16, one element off, against that
/// block row's phased kernel, 64 registers and 148-244 bytes spilled: 16393 0.500 / 0.503 -> 0.532
/// / 0.518, 24577 0.539 / 0.540 -> 0.648 / 0.639, 32767 0.593 / 0.598 -> 0.677 / 0.670; the
/// residual block without the tee lost on it at 16393-20001, -0.02, and keeps the block row's). Off
/// the grid at 65537-98304 the residual block's 98304-column row for phased plans alone, where the
/// rows over a cluster's registers past it ran before (rowfuse-bench, H100, eightieth session, fp16
/// / bf16, one element off: 75001 0.442 / 0.440 -> 0.555 / 0.546, 90001 0.496 / 0.495 -> 0.578 /
/// 0.565). The chain runs once a row, on the first phase (dropout's decisions drawn before it, the
/// tee written on it), and its values are kept in the slot for the second phase and the finish
/// (engine::keeps_chain_values; seventy-seventh session, rowfuse-bench, H100, fp16 / bf16, against
/// the chain run again at each read: 24576 0.785 / 0.741 -> 0.859 / 0.850, 40960 0.605 / 0.566 ->
/// 0.691 / 0.677, off the grid 40001 / 65001 +0.07 / +0.08; but 32768 0.901 / 0.840 -> 0.824 /
/// 0.820, and 65536 within that cell's spread). The chain's 32768-column block row stays for forced
/// plans: its max_cols is 16384, so that the automatic plan, which takes a block row before a
/// cluster row, passes it by. Phased plans took it at 16385-32768 columns too until the eightieth
/// session: on the held row's phased kernel the tee'd block off the grid ran 0.37-0.43 of a copy at
/// 16393-24577 columns, on the block row 0.46-0.49 (thirty-second session, fp16), before the held
/// row's phased kernel drew dropout by the warp (above). For devices of wide memory, at 4096
/// columns the survey's best shape on an H200 (forty-fifth session, fp16, bench/NOTES.md): four
/// packs a thread of 128, read straight to registers, on a persistent grid under a cap of four
/// blocks, 0.820 against 0.740 for the row it passes by in the same run (on the H100 this shape ran
/// 0.811 against the chain's 0.827: seventeenth session). Past 16384 columns the wide survey's best
/// (pipeline_shapes.cu with PIPELINE_SHAPES_WIDE, fp16): rows over a cluster's registers, staged
/// persistent, the operands read straight to registers, where the H100's read the row back from its
/// slot (held) at 32768 and 65536; rowfuse-bench
/// (`results/2026-12-01-forty-fifth/call12/`, fp16): 24584 / 32768 columns 0.502 / 0.657 -> 0.597 /
/// 0.740, 40000 / 65536 0.437 / 0.591 -> 0.489 / 0.664, 98312 / 131072 0.468 / 0.528 -> 0.514 /
/// 0.610.
inline constexpr auto layernorm_tee_chain_16bit = with_wide_memory_rows(
    join_rows(
        join_rows(
            replace_rows(layernorm_chain_16bit_to_4096, {{2048, 2, 128, true, 1, true, true, 1},
                                                         {4096, 2, 256, true, 1, true, true, 3}}),
            join_rows(
                {
                    // The chain's 8192-column row without its sized twin (the tee'd block on it
                    // at 8200 columns: 0.70 -> 0.61; twenty-eighth session).
                    {8192, 4, 256, true, 1, true, true, 3},
                    {16384, 4, 512, true, 1, true, true, 1}, // 0.853 (residual staged: 0.853)
                },
                replace_rows(layernorm_operand_chain_16bit_to_49152,
                             {phased_elsewhere(layernorm_operand_chain_16bit_forced_block),
                              layernorm_operand_chain_16bit_32768}))),
        join_rows(
            {{65536, 4, 512, true, 4, true, true, 1, true, 0, column_placement::held,
              true}, // 0.779 ([0.676])
             for_phased_rows(layernorm_operand_chain_16bit_98304)},
            // Read back at 131072 too, on the residual block's row then (seventy-seventh
            // session, rowfuse-bench, H100, fp16, against layernorm_16bit_clusters'
            // row): 98304 0.591 -> 0.692, 131072 0.648 -> 0.675; off the grid that
            // row's phased kernel as before (100003 the same).
            layernorm_operand_chain_16bit_past_98304(layernorm_tee_chain_16bit_read_back_131072))),
    {
        for_wide_memory({4096, 4, 128, true, 1, false, true, 4}),
        for_wide_memory({32768, 4, 512, true, 2, true, true, 1}),
        // PIPELINE_SHAPES_BETWEEN (forty-eighth session), as attention's.
        for_wide_memory(
            {384, 3, 256, false, 1, false, false, 4}), // 0.568 / 0.786 ([0.489 / 0.680])
        for_wide_memory({640, 5, 128, false, 1, false, false, 6}), // 0.648 at 600 ([0.528])
        for_wide_memory(
            {2560, 5, 128, false, 1, false, false, 6, true, 64}), // 0.677 / 0.748 ([0.649 / 0.724])
        for_wide_memory({3072, 3, 256, false, 1, true, false, 4, true, 128}), // 0.826 ([0.754])
        for_wide_memory(
            {5120, 5, 128, true, 1, false, false, 6}),            // 0.724 / 0.760 ([0.485 / 0.535])
        for_wide_memory({6144, 3, 256, true, 1, true, false, 4}), // 0.821 ([0.586])
        for_wide_memory({65536, 4, 256, true, 8, true, true, 1}),
        for_wide_memory({131072, 4, 256, true, 16, true, true, 1}),
    });

/// LayerNorm over 16-bit inputs under a store chain alone (a scaled cast to fp8 with amax), packs
/// of 8: bench/experiments/pipeline_shapes.cu's survey of layernorm_fp8 (seventeenth session,
/// after rf::cast's amax became one atomic a block; fp16 / bf16, ratio to copy, the chains' row
/// in brackets; n: its narrow survey at 32 and 64 columns, eighteenth session). With no operand
/// to read beside the row, it holds four packs a thread where the residual block's chain holds
/// two, and stages them on a persistent grid.
inline constexpr auto layernorm_store_chain_16bit_h100 = join_rows(
    {
        {64, 2, 256, false, 1, true, true, 1},   // n 0.761-0.788 / 0.752-0.771 ([0.60-0.62])
        {512, 4, 256, false, 1, true, true, 1},  // 0.829-0.852 / 0.814-0.821 ([0.58-0.65])
        {1024, 4, 512, false, 1, true, true, 2}, // 0.830 / 0.822 ([0.75 / 0.73])
        // Rows of 2 warps for forced plans alone (max_cols no more than the row before: the
        // automatic plan passes it by), so that every engine forced on layernorm alone runs here
        // (its rows of warps reach 2048 columns).
        {1024, 4, 256, false, 1, false, false, 3, true, 64},
        // The block rows sized (twenty-eighth session): 1032 0.56 -> 0.67, 2056 0.65 -> 0.70, 4104
        // 0.63 -> 0.69, 5120 0.73 -> 0.81, 8200 0.61 -> 0.80, 10240 0.72 -> 0.90, 16392 0.54 ->
        // 0.67, 20480 0.65 -> 0.82.
        sized({2048, 2, 128, true, 1, true, true, 1}),  // the chains' 0.834 / 0.825
        sized({4096, 4, 128, true, 1, false, true, 6}), // 0.872 / 0.860 ([0.824 / 0.815])
        // layernorm's (staged persistent: 0.822 / 0.805). Its phased kernel capped to the aligned
        // one's four blocks an SM (ptxas -v, twenty-sixth session: 64 / 72 registers; misaligned
        // 8191 columns 0.74 -> 0.81).
        sized(phased_capped({8192, 4, 256, true, 1, false, false, 3}, 4)),
        sized({16384, 4, 512, true, 1, true, true, 2}),  // 0.873 / 0.869 ([0.81 / 0.78])
        sized({32768, 4, 1024, true, 1, true, true, 1}), // the chains' 0.790 / 0.753
    },
    layernorm_16bit_held_clusters);

/// layernorm_store_chain_16bit_h100 and, for devices of wide memory, rows for the widths between
/// the powers of two to 6144 columns (PIPELINE_SHAPES_BETWEEN, forty-eighth session, as
/// attention's); a row of the H100 row's shape keeps the widths to 256.
inline constexpr auto layernorm_store_chain_16bit = with_wide_memory_rows(
    layernorm_store_chain_16bit_h100,
    {
        for_wide_memory({256, 4, 256, false, 1, true, true, 1}),
        for_wide_memory({320, 5, 128, false, 1, false, false, 8}), // 0.599 at 264 ([0.382])
        for_wide_memory({384, 6, 128, false, 1, false, false, 8}), // 0.697 ([0.537])
        for_wide_memory({640, 5, 128, false, 1, false, false, 8}), // 0.648 at 600 ([0.418])
        for_wide_memory(
            {2560, 5, 128, false, 1, false, false, 6, true, 64}), // 0.653 / 0.762 ([0.500 / 0.592])
        for_wide_memory(
            {5120, 5, 128, true, 1, false, false, 6}), // 0.666 / 0.760 ([0.383 / 0.459])
        for_wide_memory({6144, 6, 128, true, 1, false, false, 6}), // 0.755 ([0.515])
    });

/// Softmax over fp32 inputs, packs of 4; past 32768 columns a row spans a cluster's registers.
inline constexpr register_shape softmax_32bit_h100[] = {
    {256, 2, 512, false, 1, false, false, 1}, // 1.013-1.017
    // 1.008. Its phased kernel capped to five blocks an SM (ptxas -v, twenty-sixth session: 48
    // registers aligned, 56 phased (four blocks), 46 capped, no spill; log-softmax's 51 / 55 / 48).
    padded_phased(phased_capped({512, 4, 256, false, 1, true, false, 1}, 5)),
    padded_phased({1024, 2, 128, true, 1, false, false, 1}), // 0.923
    // Block rows sized from 2048 columns (twenty-ninth session, H100; softmax / log-softmax, which
    // takes these rows but at 8192): 1032 0.94 -> 0.97 / 0.82 -> 0.94, 4104 0.82 -> 1.00 / 0.79 ->
    // 0.96, 8200 0.67 -> 0.98 / 0.62, 10240 0.76 -> 1.00 / 0.71 -> 0.78; misaligned 1033 0.73 ->
    // 0.93 / 0.72 -> 0.88, 4105 0.77 -> 1.00 / 0.75 -> 0.96. The cluster rows' twins lost for
    // softmax (16392 0.98 -> 0.95, 32776 0.95 -> 0.91, 65544 0.86 -> 0.82).
    sized({2048, 2, 256, true, 1, false, false, 1}),         // 1.017
    sized({4096, 4, 256, true, 1, false, false, 1}),         // 1.007
    padded(sized({8192, 4, 512, true, 1, false, false, 1})), // 1.012
    sized({16384, 8, 512, true, 1, false, false, 1}), // 0.977 (r4: 16 x 256 1.005, 167 registers)
    {32768, 8, 256, true, 4, false, false, 1},        // r6 1.004 (8 x 1024 staged: 0.882)
    // The next three rows' phased kernels capped to the aligned ones' blocks an SM (ptxas -v,
    // sm_90, twenty-seventh session: aligned 63 registers, phased 66 (log-softmax's at 65536: 64 /
    // 72), which leave three blocks an SM where the aligned kernels hold four (at 262144 one where
    // they hold two); capped, 64 (log-softmax 62-64), none spills).
    // r6 1.005 (cluster barrier exchange: 0.810)
    phased_capped({65536, 8, 256, true, 8, false, false, 1}, 4),
    phased_capped({131072, 8, 256, true, 16, false, false, 1}, 4), // r6 1.008 (0.745)
    phased_capped({262144, 8, 512, true, 16, false, false, 1}, 2), // r6 0.968 (0.641)
};

/// The attention probabilities over fp32 inputs (softmax under a load chain that masks and a store
/// chain that drops): softmax's rows but where the fp32 parts of pipeline_shapes.cu's survey of the
/// attention pipeline found better (twenty-first session; softmax's row in brackets, in the same
/// run): staged shapes at every width, one block a tile to 8192 columns, persistent grids past it.
inline constexpr auto attention_32bit = replace_rows(
    softmax_32bit_h100, {
                            // softmax's 512-column row without its phased cap (capped, the chain's
                            // phased kernel spills 20 bytes)
                            {512, 4, 256, false, 1, true, false, 1},
                            {256, 2, 512, false, 1, true, true, 1},  // 0.892-0.922 ([0.709-0.724])
                            {1024, 2, 128, true, 1, true, false, 1}, // 0.961 ([0.896])
                            {2048, 4, 128, true, 1, true, false, 1}, // 0.988 ([0.853])
                            {4096, 4, 256, true, 1, true, false, 1}, // 0.981 ([0.797])
                            {8192, 8, 256, true, 1, true, false, 3}, // 0.975 ([0.743])
                            {16384, 8, 512, true, 1, true, true, 1}, // 0.919 ([0.568])
                            {32768, 8, 256, true, 4, true, true, 1}, // 0.918 ([0.673-0.677])
                            {65536, 8, 256, true, 8, true, true, 1}, // 0.905 ([0.663])
                            {131072, 8, 256, true, 16, true, true, 1}, // 0.921 ([0.631])
                            {262144, 16, 512, true, 8, true, true, 1}, // 0.824 ([0.445])
                        });

/// Log-softmax over fp32 inputs: softmax's rows but at 262144 columns, where log-softmax takes 76
/// registers on softmax's row (one block an SM, r10 0.664) and 64 under a cap of two, unspilled.
/// Its phased kernel at 8192 columns capped to two blocks an SM (ptxas -v, sm_90, twenty-sixth
/// session: the aligned kernel 60 registers, two blocks; phased 72, one; capped 64, two, no spill).
inline constexpr auto log_softmax_32bit_h100 = replace_rows(
    softmax_32bit_h100, {sized(phased_capped({8192, 4, 512, true, 1, false, false, 1}, 2)),
                         // Sized for log-softmax alone (twenty-ninth session: 65544 0.68 -> 0.76,
                         // 81920 0.79 -> 0.89; softmax lost 0.03-0.04 on the same twin).
                         sized(phased_capped({131072, 8, 256, true, 16, false, false, 1}, 4)),
                         {262144, 8, 512, true, 16, false, false, 2}}); // r10 0.966

// fp32 rows for devices of wide memory: at the powers of two (forty-sixth session, H200,
// row_shapes.cu round 39; the row each passes by in brackets, in the same run), and between them
// (forty-seventh session, round 40) on rows of five and seven packs a thread (5/8 and 7/8 of the
// next power of two) and of ten and fourteen in clusters of 16. Round 40's comments: the width just
// past the row before and the row's own (rowfuse-bench on the rows they pass by, forty-sixth
// session, in brackets).

/// Softmax over fp32 inputs: softmax_32bit_h100 and, for devices of wide memory, 16384 columns on
/// clusters of 4 blocks of 128 threads under a cap of six, and 262144 on 16 packs of 256 threads
/// in 16 under a cap of two, exchanging once a row (0.892 exchanging twice); rounds 40's and 46's
/// rows.
inline constexpr auto softmax_32bit = with_wide_memory_rows(
    softmax_32bit_h100,
    {
        for_wide_memory(exchanging_once(
            {10240, 5, 256, true, 2, false, false, 3})), // 0.942 / 0.994 ([0.786 / 0.930])
        for_wide_memory({16384, 8, 128, true, 4, false, false, 6}), // 0.983 ([0.806])
        for_wide_memory(
            exchanging_once({28672, 7, 128, true, 8, false, false, 6})), // 0.998 / 0.999
        for_wide_memory(exchanging_once(
            {40960, 10, 256, true, 4, false, false, 2})), // 0.984 / 0.977 ([0.741 / 0.863])
        for_wide_memory(
            exchanging_once({57344, 7, 128, true, 16, false, false, 6})), // 0.974 / 0.994
        for_wide_memory(exchanging_once(
            {81920, 10, 128, true, 16, false, false, 4})), // 0.980 / 0.992 ([0.669 / 0.777])
        for_wide_memory(
            {114688, 14, 128, true, 16, false, false, 4}), // 0.919 / 0.978 ([0.869 / -])
        for_wide_memory(exchanging_once(
            {163840, 10, 256, true, 16, false, false, 2})), // 0.869 / 0.948 ([0.569 / 0.655])
        for_wide_memory(
            {229376, 14, 256, true, 16, false, true, 2}), // 0.887 / 0.926 ([0.853 / 0.906])
        for_wide_memory(
            exchanging_once({262144, 16, 256, true, 16, false, false, 2})), // 0.953 ([0.845])

        // Round 46 (forty-eighth session): the widths between the powers of two to 6144 columns on
        // groups of three and five packs a lane and block rows of five and three packs a thread
        // (rowfuse-bench on main in brackets; between them, rows of the H100 row's shape keep 64
        // and 128 columns).
        for_wide_memory({64, 2, 512, false, 1, false, false, 1}),
        for_wide_memory({96, 3, 256, false, 1, false, false, 4}), // 0.940 / 0.990 ([0.688 / 0.876])
        for_wide_memory({128, 2, 512, false, 1, false, false, 1}),
        for_wide_memory({160, 5, 128, false, 1, false, false, 8}), // 0.982 ([0.729])
        for_wide_memory(
            {320, 5, 128, false, 1, false, false, 8}), // 1.002 / 0.996 ([0.675 / 0.811])
        for_wide_memory({384, 3, 256, false, 1, false, false, 4}), // 0.997 ([0.927])
        for_wide_memory(
            {640, 5, 128, false, 1, false, false, 8}), // 0.993 / 0.996 ([0.871 / 0.907])
        // Kept to 4608 columns: rowfuse-bench (call6) 4104 / 4608 / 5120 +0.055 / -0.004 / -0.005.
        for_wide_memory({4608, 5, 256, true, 1, true, false, 3}),  // 0.998 at 4104 ([0.945])
        for_wide_memory({6144, 3, 512, true, 1, false, false, 2}), // 0.986 ([0.822])
    });

/// Log-softmax over fp32 inputs: log_softmax_32bit_h100 and, for devices of wide memory, softmax's
/// row at 16384 columns, 131072 on 16 packs of 128 threads in 16 under a cap of four, 262144 on 16
/// of 256 in 16 under a cap of two on a persistent grid (exchanging once, those lost 0.08-0.09:
/// ptxas gave them 99 registers where twice took 127-128); rounds 40's and 46's rows.
inline constexpr auto log_softmax_32bit = with_wide_memory_rows(
    log_softmax_32bit_h100,
    {
        for_wide_memory(exchanging_once(
            {10240, 5, 256, true, 2, false, false, 3})), // 0.925 / 0.990 ([0.464 / 0.611])
        for_wide_memory({16384, 8, 128, true, 4, false, false, 6}), // 0.984 ([0.926])
        for_wide_memory(exchanging_once(
            {28672, 7, 128, true, 8, false, false, 6})), // 0.983 / 0.996 ([0.921 / -])
        for_wide_memory(exchanging_once(
            {40960, 10, 256, true, 4, false, false, 2})), // 0.901 / 0.979 ([0.707 / 0.808])
        for_wide_memory(exchanging_once(
            {57344, 14, 128, true, 8, false, false, 4})), // 0.960 / 0.990 ([0.891 / 0.955])
        for_wide_memory(exchanging_once(
            {81920, 10, 128, true, 16, false, false, 4})), // 0.868 / 0.966 ([0.611 / 0.691])
        for_wide_memory(exchanging_once(
            {114688, 14, 128, true, 16, false, false, 4})), // 0.890 / 0.962 ([0.860 / 0.936])
        for_wide_memory({131072, 16, 128, true, 16, false, false, 4}), // 0.971 ([0.833])
        for_wide_memory(exchanging_once(
            {163840, 10, 256, true, 16, false, true, 2})), // 0.823 / 0.913 ([0.527 / 0.616])
        for_wide_memory(
            {229376, 14, 256, true, 16, false, true, 2}), // 0.815 / 0.890 ([0.773 / 0.834])
        for_wide_memory({262144, 16, 256, true, 16, false, true, 2}), // 0.907 ([0.806])

        // Round 46 (forty-eighth session), as softmax's.
        for_wide_memory({64, 2, 512, false, 1, false, false, 1}),
        for_wide_memory({96, 3, 256, false, 1, false, false, 4}), // 0.884 / 1.004 ([0.562 / 0.736])
        for_wide_memory({128, 2, 512, false, 1, false, false, 1}),
        for_wide_memory({160, 5, 128, false, 1, false, false, 8}), // 0.984 ([0.599])
        for_wide_memory(
            {320, 5, 128, false, 1, false, false, 8}), // 0.980 / 0.994 ([0.639 / 0.764])
        for_wide_memory({384, 6, 128, false, 1, false, false, 6}), // 1.003 ([0.874])
        for_wide_memory(
            {640, 5, 128, false, 1, false, false, 8}), // 0.996 / 0.998 ([0.779 / 0.823])
        // Kept to 2304 columns: rowfuse-bench (call6) 2056 / 2304 / 2560 +0.074 / +0.016 / -0.014.
        for_wide_memory({2304, 5, 128, true, 1, true, false, 6}), // 1.002 at 2056 ([0.905])
        for_wide_memory(
            {5120, 5, 256, true, 1, false, false, 2}),            // 0.990 / 0.983 ([0.774 / 0.711])
        for_wide_memory({6144, 6, 256, true, 1, true, false, 2}), // 0.978 ([0.804])
    });

/// RMSNorm over fp32 inputs.
inline constexpr register_shape rmsnorm_32bit_h100[] = {
    {256, 2, 256, false, 1, false, false, 4}, // r4 1.005-1.010
    {512, 4, 128, false, 1, false, false, 1}, // r4 1.016
    {1024, 2, 128, true, 1, false, false, 1}, // rowfuse-bench 1.01 (r4: 0.93-0.95)
    // Sized where it won (twenty-ninth session, H100): 1032 0.92 -> 1.00, 4104 0.96 -> 1.01,
    // 16392 0.82 -> 0.93, 20480 0.88 -> 0.99, 32776 0.76 -> 0.89, 40960 0.87 -> 0.97, 65544 0.71
    // -> 0.83, 81920 0.80 -> 0.93; misaligned 16393-65545 +0.12-0.15. Not the 4096-column row (no
    // change) nor the 16384 (8200 0.85 -> 0.82, 10240 0.93 -> 0.89; misaligned 8201 0.79 -> 1.00).
    sized({2048, 2, 256, true, 1, false, false, 3}),  // r4 1.015
    {4096, 4, 256, true, 1, false, false, 1},         // r4 1.009
    sized({8192, 4, 512, true, 1, false, false, 2}),  // r4 1.010 (one block an SM: < 0.97)
    {16384, 4, 1024, true, 1, false, false, 1},       // r4 1.008 (8 x 512: 0.80 in the bench)
    sized({32768, 8, 256, true, 4, false, false, 2}), // r6 1.011 (8 x 1024: 0.952)
    sized(
        {65536, 8, 256, true, 8, false, false, 2}), // r6 1.005 (0.63-0.87 before cluster_exchange)
    sized({131072, 8, 256, true, 16, false, false, 2}), // r6 0.962
    // gamma in shared memory, so that a cap of two blocks does not spill (r15, fifteenth session:
    // 0.951; the same shape with gamma in registers: 0.817, 56 bytes spilled; r6's uncapped row:
    // 0.849, one block an SM)
    {262144, 8, 512, true, 16, false, false, 2, true, 0, column_placement::shared},
};

/// RMSNorm over fp32 inputs: rmsnorm_32bit_h100 and, for devices of wide memory, 16384 columns on
/// clusters of 4 blocks of 128 threads under a cap of six, 65536 the H100 row's shape on a
/// persistent grid, 131072 the H100 row's shape under a cap of three (80 registers, no spill);
/// rounds 40's and 46's rows.
inline constexpr auto rmsnorm_32bit = with_wide_memory_rows(
    rmsnorm_32bit_h100,
    {
        for_wide_memory(
            {10240, 5, 512, true, 1, false, false, 2}), // 0.983 / 0.980 ([0.689 / 0.744])
        for_wide_memory({16384, 8, 128, true, 4, false, false, 6}), // 0.990 ([0.893])
        for_wide_memory({28672, 7, 128, true, 8, false, false, 6}), // 0.990 / 1.000 ([0.798 / -])
        for_wide_memory(
            {40960, 10, 256, true, 4, false, false, 2}), // 0.899 / 0.988 ([0.713 / 0.784])
        for_wide_memory(
            {57344, 14, 128, true, 8, false, false, 4}), // 0.990 / 0.994 ([0.851 / 0.896])
        for_wide_memory({65536, 8, 256, true, 8, false, true, 2}), // 0.937 ([0.903])
        for_wide_memory(
            {81920, 10, 128, true, 16, false, false, 4}), // 0.873 / 0.972 ([0.673 / 0.759])
        for_wide_memory(
            {114688, 14, 128, true, 16, false, false, 4}), // 0.973 / 0.988 ([0.891 / 0.938])
        for_wide_memory({131072, 8, 256, true, 16, false, false, 3}), // 0.976 ([0.826])
        for_wide_memory(
            {163840, 10, 256, true, 16, false, true, 2}), // 0.887 / 0.929 ([0.709 / 0.775])
        for_wide_memory(
            {229376, 14, 256, true, 16, false, false, 2}), // 0.910 / 0.944 ([0.824 / 0.850])

        // Round 46 (forty-eighth session), as softmax's.
        for_wide_memory({64, 2, 256, false, 1, false, false, 4}),
        for_wide_memory({96, 3, 256, false, 1, false, false, 4}), // 0.887 / 0.986 ([0.759 / 0.881])
        for_wide_memory({128, 2, 256, false, 1, false, false, 4}),
        for_wide_memory({160, 5, 128, false, 1, false, false, 8}), // 0.971 ([0.803])
        for_wide_memory(
            {320, 5, 128, false, 1, false, false, 8}), // 0.990 / 0.986 ([0.829 / 0.910])
        for_wide_memory(
            {640, 5, 128, false, 1, false, false, 8}), // 0.982 / 0.986 ([0.929 / 0.960])
        for_wide_memory(
            {2560, 5, 128, true, 1, false, false, 6}), // 0.983 / 0.988 ([0.897 / 0.931])
    });

/// LayerNorm's fp32 rows past 512 columns, the op alone and under a chain.
inline constexpr register_shape layernorm_32bit_past_512[] = {
    {1024, 2, 128, true, 1, false, false, 1}, // rowfuse-bench 1.01 (r4: 0.94-0.97)
    {2048, 2, 256, true, 1, false, true, 1},  // r4 0.965
    // Sized from 4096 columns to 65536 (twenty-ninth session, H100): 2056 0.80 -> 0.86, 2560 0.90
    // -> 0.96, 4104 0.80 -> 0.93, 5120 0.91 -> 0.97, 16392 0.68 -> 0.73, 20480 0.78 -> 0.82, 32776
    // 0.63 -> 0.67; misaligned 2057 0.84 -> 0.92, 4105 0.77 -> 0.93, 8201 0.69 -> 0.90. Not the
    // 131072-column row layernorm_32bit puts in its place (65544 0.76 -> 0.55).
    sized({4096, 4, 256, true, 1, true, false, 3}), // r4 1.016 (direct: 0.93 in the bench)
    sized(
        {8192, 4, 512, true, 1, false, false, 2}), // r4 0.998 (one block an SM: 0.78 in the bench)
    sized({16384, 8, 512, true, 1, false, false, 1}), // r4 0.984
    sized({32768, 8, 256, true, 4, false, false, 2}), // r6 0.973 (8 x 1024 staged: 0.863)
    sized({65536, 8, 256, true, 8, false, false, 2}), // r6 0.930 (0.61 before cluster_exchange)
    {131072, 8, 256, true, 16, false, false, 2},      // r6 0.805
    {262144, 8, 512, true, 16, true, false, 1},       // r6 0.663 (16 x 256: 0.648)
};

/// LayerNorm over fp32 inputs, the op alone (chains take layernorm_chain_32bit). At 131072 and
/// 262144 columns 512-thread blocks under a cap of two, gamma and beta read ahead (round 18,
/// sixteenth session; held with the row, the same shapes spilled 264 bytes and ran 0.34-0.38).
inline constexpr auto layernorm_32bit_h100 = replace_rows(
    join_rows(
        {
            {32, 2, 256, false, 1, true, false, 5},  // r8 1.008 (4 x 128: 0.61)
            {512, 4, 128, false, 1, true, false, 6}, // r8 1.011-1.019 (r4's rows: 0.94 / 1.002)
            // Rows of 2 and 4 warps, 2 a block (r29: 1.015 at 1024 and 2048; r4's block row at
            // 2048, past_512's, ran 0.964 in the same run). Past_512's block rows at 1024 and
            // 2048 serve forced plans.
            {1024, 4, 256, false, 1, true, false, 3, true, 64},
            {2048, 4, 256, false, 1, false, false, 3, true, 128},
        },
        layernorm_32bit_past_512),
    {
        {131072, 8, 512, true, 8, false, false, 2, true, 0,
         column_placement::ahead}, // r18 0.924 (the chain's 8 x 256 in 16: 0.836)
        {262144, 8, 512, true, 16, false, false, 2, true, 0,
         column_placement::ahead}, // r18 0.850 (the chain's staged row: 0.698)
    });

/// LayerNorm over fp32 inputs: layernorm_32bit_h100 and, for devices of wide memory, the shapes
/// row_shapes.cu's rounds 41 and 42 found better on an H200 (forty-seventh session; the width just
/// past the row before and the row's own). With gamma and beta held with the row, its shapes of
/// 28-40 values a thread took 114-128 registers there (two to four blocks an SM) and ran 0.60-0.91:
/// these keep gamma and beta in shared memory (most), held while the row is read back from its
/// staging slot (16384), or not at all where a thread holds few values (10240). Round 46's rows
/// (forty-eighth session) follow.
inline constexpr auto layernorm_32bit = with_wide_memory_rows(
    layernorm_32bit_h100,
    {
        for_wide_memory({10240, 5, 512, true, 1, false, false, 2}), // 0.893 / 0.982
        for_wide_memory({16384, 8, 128, true, 4, true, true, 4, true, 0,
                         column_placement::held}), // 0.919 / 0.891 at 12288 / 16384
        for_wide_memory({28672, 7, 128, true, 8, true, true, 4, true, 0,
                         column_placement::shared}), // 0.901 / 0.909
        for_wide_memory(
            {32768, 8, 128, true, 8, true, true, 4, true, 0, column_placement::shared}), // 0.913
        for_wide_memory({40960, 10, 128, true, 8, true, true, 4, true, 0,
                         column_placement::shared}), // 0.863 / 0.909
        for_wide_memory({57344, 7, 256, true, 8, false, true, 3, true, 0,
                         column_placement::shared}), // 0.867 / 0.913
        for_wide_memory(
            {65536, 8, 128, true, 16, true, true, 6, true, 0, column_placement::shared}), // 0.893
        for_wide_memory({81920, 10, 128, true, 16, true, true, 4, true, 0,
                         column_placement::shared}), // 0.798 / 0.893
        for_wide_memory({114688, 7, 256, true, 16, false, true, 3, true, 0,
                         column_placement::shared}), // 0.815 / 0.895
        for_wide_memory({163840, 10, 256, true, 16, false, true, 2, true, 0,
                         column_placement::shared}), // 0.749 / 0.871

        // Round 46 (forty-eighth session), as softmax's: rows of the H100 row's shape keep 64, 128
        // and 256 columns.
        for_wide_memory({64, 4, 128, false, 1, true, false, 6}),
        for_wide_memory({96, 3, 256, false, 1, false, false, 4}), // 0.790 / 0.899 ([0.651 / 0.817])
        for_wide_memory({128, 4, 128, false, 1, true, false, 6}),
        for_wide_memory({160, 5, 128, false, 1, false, false, 8}), // 0.974 ([0.702])
        for_wide_memory({256, 4, 128, false, 1, true, false, 6}),
        for_wide_memory(
            {320, 5, 128, false, 1, false, false, 8}), // 0.944 / 0.990 ([0.582 / 0.694])
        for_wide_memory({384, 6, 128, false, 1, false, false, 8}), // 0.984 ([0.800])
        for_wide_memory(
            {640, 5, 128, false, 1, false, false, 8}), // 0.986 / 0.990 ([0.679 / 0.698])
        for_wide_memory(
            {2560, 5, 128, true, 1, false, false, 6}), // 0.950 / 0.983 ([0.651 / 0.759])
        for_wide_memory({3072, 6, 128, true, 1, false, false, 6}), // 0.968 at 3000 ([0.800])
        for_wide_memory(
            {5120, 5, 256, true, 1, false, false, 2}), // 0.971 / 0.976 ([0.722 / 0.808])
        for_wide_memory({6144, 6, 256, true, 1, false, false, 3}), // 0.965 ([0.801])
    });

/// LayerNorm over fp32 inputs under a store chain alone (a scaled cast to fp8 with amax): the fp32
/// parts of pipeline_shapes.cu's survey of layernorm -> fp8 (twenty-first session; the rows before,
/// layernorm's, in brackets, in the same run). Staged persistent shapes at most widths; from 32768
/// columns the row read back from its staging slot, gamma and beta held (h), as the 16-bit store
/// chain's.
inline constexpr register_shape layernorm_store_chain_32bit[] = {
    {32, 2, 256, false, 1, false, true, 1}, // the row before: 0.89 (the 256-column row below: 0.76)
    {256, 4, 256, false, 1, true, true, 1}, // 0.887-0.896 ([0.833-0.853])
    {512, 4, 512, false, 1, true, true, 1}, // 0.930 ([0.745])
    // Rows of 4 warps for forced plans alone (max_cols no more than the row before: the automatic
    // plan passes it by), so that every engine forced on layernorm alone runs here (its rows of
    // warps reach 2048 columns).
    {512, 4, 256, false, 1, false, false, 3, true, 128},
    {1024, 2, 128, true, 1, false, true, 1},  // 0.905 ([0.833])
    {2048, 4, 128, true, 1, true, true, 1},   // 0.918 ([0.824])
    {4096, 8, 128, true, 1, false, false, 6}, // 0.939 ([0.813])
    {8192, 4, 512, true, 1, true, true, 1},   // 0.917 ([0.843])
    {16384, 8, 512, true, 1, true, true, 1},  // 0.813 ([0.746])
    {32768, 4, 1024, true, 2, true, true, 1, true, 0,
     column_placement::held}, // h 0.918 ([0.738-0.745])
    {65536, 4, 1024, true, 4, true, true, 1, true, 0, column_placement::held}, // h 0.874 ([0.643])
    // h 0.771 ([0.495]). Off the grid single elements: its phased kernel ran 0.24 at 65545
    // columns against their 0.33, 0.33 against 0.32 at 131081 (thirty-second session).
    unphased({131072, 8, 256, true, 16, true, true, 1, true, 0, column_placement::held}),
    {262144, 8, 512, true, 16, true, true, 1, true, 0, column_placement::held}, // h 0.488 ([0.459])
};

// The residual block over fp32 (twenty-first session, fp32 parts of pipeline_shapes.cu, its survey
// lists at packs of 4; the rows before, layernorm_store_chain_32bit's, in brackets, in the same
// run): staged shapes on persistent grids win at every width from 128 columns, by 0.07-0.30 from
// 2048 to 16384; rows marked o stage the residual beside the input (stages_operands), where that
// won (it lost 0.03-0.2 on the others).

/// LayerNorm over fp32 inputs under a load chain (the residual block without its tee).
inline constexpr register_shape layernorm_chain_32bit[] = {
    {256, 2, 512, false, 1, true, true, 1, true, 0, column_placement::per_engine,
     true}, // o 0.956-0.961 ([0.872-0.885])
    {512, 4, 512, false, 1, true, true, 1, true, 0, column_placement::per_engine,
     true}, // o 0.928 ([0.818])
    // Rows of 4 warps for forced plans alone (max_cols no more than the row before: the automatic
    // plan passes it by), so that every engine forced on layernorm alone runs here (its rows of
    // warps reach 2048 columns).
    {512, 4, 256, false, 1, false, false, 3, true, 128},
    {1024, 2, 128, true, 1, false, false, 1}, // 0.941-0.942 (staged persistent: 0.946)
    {2048, 2, 256, true, 1, true, true, 1},   // 0.928 ([0.852])
    {4096, 2, 512, true, 1, true, true, 2},   // 0.948 ([0.805])
    {8192, 2, 1024, true, 1, true, true, 1, true, 0, column_placement::per_engine,
     true},                                    // o 0.929 ([0.627])
    {16384, 8, 512, true, 1, true, true, 1},   // 0.847 ([0.643])
    {32768, 8, 256, true, 4, true, true, 1},   // 0.658 ([0.539])
    {65536, 8, 256, true, 8, true, true, 1},   // 0.644 ([0.511])
    {131072, 8, 256, true, 16, true, true, 1}, // 0.564 ([0.467])
    // At 262144 the row read back from its staging slot with the residual beside it (one slot),
    // kept there as the chain's values (engine::keeps_chain_values): rowfuse-bench (H100,
    // seventy-seventh session) 0.469 -> 0.513 against the row before it (read straight to
    // registers), which keeps its rows off the grid (the row read back's phased kernel: 200003
    // 0.367 -> 0.362). The same made of the rows at 32768-131072 lost 0.04-0.12 on and off the
    // grid.
    for_phased_rows({262144, 8, 512, true, 16, false, true, 1}), // 0.471 ([0.433])
    unphased({262144, 8, 512, true, 16, true, true, 1, true, 0, column_placement::held, true}),
};

/// LayerNorm over fp32 inputs under a load chain that tees (the residual block writing its
/// pre-norm sum): one block a tile with the residual staged to 4096 columns, and at 32768 and 65536
/// the row read back from its staging slot (as layernorm_tee_chain_16bit; kept there as the chain's
/// values since the seventy-seventh session: rowfuse-bench, H100, 24576-65536 +0.05 to +0.10 on
/// the grid, 20001-65001 +0.02 to +0.07 off it). Past 65536 the rows
/// before (the held survey lost there: 0.44-0.46; the survey of the other shapes did not run for
/// the tee).
inline constexpr register_shape layernorm_tee_chain_32bit[] = {
    {256, 2, 512, false, 1, true, false, 2, true, 0, column_placement::per_engine,
     true}, // o 0.990-0.992 ([0.930-0.940])
    {512, 4, 256, false, 1, true, false, 1, true, 0, column_placement::per_engine,
     true}, // o 0.986 ([0.870])
    // Rows of 4 warps for forced plans alone (max_cols no more than the row before: the automatic
    // plan passes it by), so that every engine forced on layernorm alone runs here (its rows of
    // warps reach 2048 columns).
    {512, 4, 256, false, 1, false, false, 3, true, 128},
    {1024, 2, 128, true, 1, true, false, 1, true, 0, column_placement::per_engine,
     true}, // o 0.971 ([0.961])
    {2048, 4, 128, true, 1, true, false, 1, true, 0, column_placement::per_engine,
     true}, // o 0.989 ([0.923])
    {4096, 2, 512, true, 1, true, false, 2, true, 0, column_placement::per_engine,
     true},                                  // o 1.003 ([0.855])
    {8192, 4, 512, true, 1, true, true, 1},  // 0.964 ([0.608])
    {16384, 8, 512, true, 1, true, true, 1}, // 0.887 ([0.685])
    {32768, 4, 1024, true, 2, true, true, 1, true, 0, column_placement::held,
     true}, // 0.783, spills 48 bytes ([0.641])
    {65536, 4, 1024, true, 4, true, true, 1, true, 0, column_placement::held,
     true},                                      // 0.736, spills 48 bytes ([0.592])
    {131072, 8, 256, true, 16, false, false, 2}, // [0.535]
    {262144, 8, 512, true, 16, true, false, 1},  // [0.493]
};

// Single elements (odd widths or pointers off the 16-byte grid): rounds 3, 11, 12 and 13 of
// row_shapes.cu on the layout of `rowfuse-bench --misalign` (every pointer one element off, ld =
// cols + 1), fp16, one block a tile. Rounds 11-13 (thirteenth and fourteenth sessions) hold 32
// elements a thread, read in the transform loop (engine/register_engine.cuh's inputs_first).
// Rows up to 256 columns were not surveyed there (the flat tiles below were, by the library call).
// 2-byte elements cannot be staged one by one (cp.async moves 4 bytes or more). What the rounds
// show:
//  - group rows need their group at compile time (register_shape::row_threads): a warp of 32 a
//    lane at 1000 columns ran at 0.27 with a run-time group, 0.86-0.90 with 32 known;
//  - a row runs near its best only where most of its threads hold all 32 values (the ops' loops
//    then run unguarded): softmax at 4097 columns 0.62 on 32 x 256 (16-17 values a thread),
//    0.80 on 32 x 160; so their block rows stepped by 32-64 threads (1024-2048 columns), each
//    under a register cap near 64 (80 where the op needed them) that buys resident blocks. One
//    row on blocks the launch sizes replaces them (single_block_rows).
// Each comment gives the ratio to copy over the row's widths (r13: 2100-8191 columns, whichever
// surveyed widths it takes) or at the width named, and what held them before.

/// Single elements up to 256 columns, 16-bit and fp32: the block's rows staged as one flat tile
/// (engine/flat_tile.cuh: the span they cover, in 16-byte cp.async copies, read back an element at
/// a time, every value of a lane read and finished and only the stores guarded) on groups of 2-32
/// lanes known at compile time, eight values a lane. Measured (thirty-fifth session, H100,
/// `bench/results/2026-11-28-thirty-fifth/narrow/`: the library call on `--misalign`'s layout,
/// every pointer one element off and ld = cols + 1, at 5-255 columns; ratio to copy, the rows
/// before -> these; before: a lane a value on a group of 1-32 lanes to 32 columns, eight values a
/// lane on a run-time group to 256):
///  - softmax fp16: 5-64 columns 0.11-0.30 -> 0.29-0.62, 100-128 0.35-0.40 -> 0.57-0.67; fp32 at
///    5-33 (phased packs from 48) 0.23-0.42 -> 0.38-0.60;
///  - layernorm fp16: 5-64 0.07-0.34 -> 0.18-0.45, 100-128 0.36-0.43 -> 0.39-0.48; fp32 at 5-33
///    0.14-0.40 -> 0.34-0.54;
///  - rmsnorm fp16 (on layernorm's rows then): 5 and 17-128 0.15-0.46 -> 0.25-0.58, 16 0.31 ->
///    0.28. rmsnorm fp32 keeps the rows before (scalar_32bit): an earlier build of these rows
///    (each value's read and store guarded) lost it 0.05-0.22 at 16 and 24-32 columns, and this
///    one was not timed on it.
/// With each value's read and store under its own guard, the norms ran up to 0.17 under these
/// (0.01 over at 5 columns) and softmax within 0.05 either way to 64 columns, 0.04-0.08 under at
/// 100-128; reading from global memory, no tile, 0.01-0.11 under at most widths; sixteen values a
/// lane on half the lanes, tile or not, under both; an earlier build capped at 64 registers (eight
/// blocks an SM, no spill) 0.01-0.15 under its uncapped self. Still far under issue 11's 0.85:
/// bound by their instructions (ncu and SASS, bench/NOTES.md).
inline constexpr register_shape flat_narrow_rows[] = {
    {16, 8, 128, false, 1, true, true, 1, true, 2},
    {32, 8, 128, false, 1, true, true, 1, true, 4},
    {64, 8, 128, false, 1, true, true, 1, true, 8},
    {128, 8, 128, false, 1, true, true, 1, true, 16},
    {256, 8, 128, false, 1, true, true, 1, true, 32},
};

/// Single 16-bit elements from 1025 to 32768 columns, every op's but the pipelines': 32 values a
/// thread on 1024 threads under their cap of 64 registers, on blocks the launch sizes
/// (sized_at_launch) to 20480 columns, the fewest whole warps that hold the row, each warp its own
/// 1024 consecutive columns (engine/register_engine.cuh). One kernel and its twin where rounds 11
/// and 13 (thirteenth and fourteenth sessions) had one for each of seven rows of 64-1024 threads,
/// stepping with the width; on those rows' layout most threads held fewer than 32 values at most
/// widths, on this one every warp but a row's last holds 32. Objects of one fp16 call 36-47 KB
/// smaller, ratios to copy (bench/experiments/single_elements.cu, H200) in bench/NOTES.md, fifty-
/// sixth session. Persistent past 16384 columns, as round 11's 32768-column row.
inline constexpr register_shape single_block_rows[] = {
    sized({16384, 32, 1024, true, 1, false, false, 1, false}),
    sized({32768, 32, 1024, true, 1, false, true, 1, false}),
};

/// Softmax, log-softmax, layernorm and rmsnorm over single 16-bit elements: flat tiles to 256
/// columns, a warp's 32 lanes a row to 1024 (r12 at 520 / 1000, softmax 0.66 / 0.90, 0.52 / 0.80,
/// layernorm 0.49 / 0.62, 0.68 / 0.77; round 3's block rows: 0.35 / 0.65, 0.32 / 0.58 and 0.37 /
/// 0.60, 0.26 / 0.34), then single_block_rows.
inline constexpr auto scalar_16bit =
    join_rows(join_rows(flat_narrow_rows, {{1024, 32, 128, false, 1, false, false, 8, false, 32}}),
              single_block_rows);

/// The pipelines' single 16-bit rows to 256 columns (round 3's, read first), and the plain ops'
/// warp row for forced plans only (max_cols 256: the automatic plan takes the row before it).
/// Rounds 11-13 measured the plain ops alone, not under the pipelines' chains.
inline constexpr register_shape scalar_pipeline_narrow_16bit[] = {
    {32, 1, 128, false, 1, false, true, 1},
    {256, 8, 128, false, 1, false, true, 1},
    {256, 32, 128, false, 1, false, false, 8, false, 32},
};

/// The attention pipeline over single 16-bit elements: round 3's softmax rows, read first.
inline constexpr auto scalar_attention_16bit =
    join_rows(scalar_pipeline_narrow_16bit, {
                                                {1024, 4, 256, true, 1, false, true, 1},
                                                {2048, 8, 256, true, 1, false, true, 1},
                                                {8192, 16, 512, true, 1, false, true, 1},
                                                {16384, 16, 1024, true, 1, false, true, 1},
                                                {32768, 32, 1024, true, 1, false, true, 1},
                                            });

/// LayerNorm under a chain (the residual pipelines) over single 16-bit elements: round 3's norm
/// rows, read first.
inline constexpr auto scalar_heavy_chain_16bit =
    join_rows(scalar_pipeline_narrow_16bit, {
                                                {1024, 16, 64, true, 1, false, true, 1},
                                                {2048, 16, 128, true, 1, false, true, 1},
                                                {8192, 16, 512, true, 1, false, true, 1},
                                                {16384, 32, 512, true, 1, false, true, 1},
                                                {32768, 32, 1024, true, 1, false, true, 1},
                                            });

/// Single fp32 elements past 256 columns: staged (4-byte cp.async) from 2048 columns.
inline constexpr register_shape scalar_32bit_past_256[] = {
    {1024, 4, 256, true, 1, false, true, 1},   // softmax 0.903
    {2048, 16, 128, true, 1, true, false, 1},  // 0.992 (32 x 64: 0.997)
    {8192, 32, 256, true, 1, true, true, 1},   // 0.856 at 4097, 0.921 at 8191
    {16384, 32, 512, true, 1, true, true, 1},  // 0.870
    {32768, 32, 1024, true, 1, true, true, 1}, // 0.780
};

/// Softmax, log-softmax and layernorm over single fp32 elements: flat tiles to 256 columns.
inline constexpr auto scalar_flat_32bit = join_rows(flat_narrow_rows, scalar_32bit_past_256);

/// The other ops over single fp32 elements (rmsnorm, which lost on flat tiles at 16-32 columns;
/// attention and the layernorm chains, not timed on them): a lane a value on a run-time group to
/// 32 columns, eight values a lane to 256.
inline constexpr auto scalar_32bit =
    join_rows({{32, 1, 128, false, 1, false, true, 1}, {256, 8, 128, false, 1, false, true, 1}},
              scalar_32bit_past_256);

// The backward ops (gradient ops: a thread holds the input's values and the gradient's, twice a
// forward op's) have tables of their own; those not surveyed were chosen to avoid spills. ptxas -v
// (sm_90, CUDA 13.0, softmax_backward and layernorm_backward with gamma and beta, fp16 and fp32)
// on the forward tables' shapes: every 1024-thread shape spills under its 64-register cap (fp16
// packs of 8, 2 x 1024: layernorm 188 bytes of stores; 4 x 1024: softmax 248, layernorm 628; fp32
// 8 x 1024: 248, 680; fp32 8 x 512 clusters of 16 at 2 blocks an SM: 276, 752; single elements
// 32 x 1024: fp16 436, 504, fp32 332, 520), and so do 512-thread shapes of 32 values a stream
// under their 128-register cap (single elements 32 x 512: fp16 124, 108, fp32 4, 72; fp32 8 x 512:
// layernorm 8). Shapes of at most 16 values a stream at 512 threads do not spill (layernorm fp16
// 2 x 512: 122 registers; fp32 4 x 512: 121), nor 32 values at 256 threads or fewer (layernorm
// fp32 8 x 256: 233). So the rows below keep the forward's shapes that do not spill and hold the
// wider rows in clusters of 512-thread blocks at 16 values a stream. With these tables no
// register kernel of the two ops spilled (softmax / layernorm registers in the cluster rows: fp16
// 2 x 512 72 / 122, fp32 4 x 512 80 / 124, single fp16 16 x 512 100 / 128, single fp32 16 x 512
// 84 / 120); the surveyed fp32 norm rows below spill a little under their caps, and win. The
// softmax backward's widest rows (rounds 21-22) hold 32 values a stream at 512 threads under no
// cap beyond the block's (16-bit 4 x 512: 126 registers, fp32 8 x 512: 128) and do not spill.

// The norms' backward (layernorm_backward with dgamma and dbeta, rmsnorm_backward with dgamma):
// round 7 of bench/experiments/row_shapes.cu (H100, 2026-11-24; x and dy 2^26 elements each, the
// copy of the counted bytes, the column sums timed with the row kernel; chunks of
// op::norm_chunk_rows_log2). A row processor walks the R rows of its chunks one after another,
// so what decides is how many processors are resident: one pack a thread under a register cap
// (64 registers: 6-8 blocks an SM) against the 2-4 packs of the rows before (one or two blocks
// an SM), which ran at 0.19-0.30 (1024 columns) and 0.57-0.65 (4096-16384) in the same call.
// Past 8192 16-bit columns the rows span a cluster, where fewer, wider blocks win again.
// Round 27 (twentieth session, the library's chunk rule, fused / copy; the row before in
// brackets, same run): a staged shape now stages the gradient beside the input
// (engine::staged_streams), so that a processor's next row is in flight while it reduces this
// one, and the same shapes staged win from 2048 16-bit columns on; past the widest rows, clusters
// of 16 blocks where the streaming engines ran 0.09-0.22 (16-bit) and 0.11 (fp32) in rowfuse-bench.

// Rows off the 16-byte grid (thirtieth session, rowfuse-bench --misalign, H100, fp16, layernorm /
// rmsnorm backward against single elements): the phased kernels of the block and group rows take
// up to 110 registers (ptxas -v, sm_90, CUDA 13.0) and spilled 72-312 bytes under the aligned
// kernels' caps, so their caps are looser: at 1000 / 3000 / 4097 columns 0.46 / 0.20 / 0.24 ->
// 0.51 / 0.39 / 0.51 (layernorm; under the aligned caps 0.41 / 0.35 / 0.43), 0.47 / 0.24 / 0.29
// -> 0.53 / 0.41 / 0.56 (rmsnorm). On the cluster rows to 32768 columns, a cluster barrier a row,
// the phased kernels lost to single elements (8191: 0.31 -> 0.16, 16383: 0.29 -> 0.22, 32767:
// 0.24 -> 0.15), which those rows keep (unphased); past them single elements stream (0.04-0.07),
// and the phased cluster rows win (100003: 0.04 -> 0.14).

/// The norms' backward over 16-bit inputs, packs of 8 (layernorm / rmsnorm backward, fused /
/// copy).
inline constexpr register_shape gradient_16bit[] = {
    {32, 1, 512, false, 1, true, true, 2}, // r28 0.622 / 0.692 (2 x 512: 0.491 / 0.522)
    phased_capped({256, 1, 256, false, 1, false, true, 4}, 2), // r7 0.60 / 0.74, r27 0.78 / 0.85
    {512, 2, 256, false, 1, true, true, 1},                    // not surveyed
    // r7 0.78 / 0.85 (4 x 128 groups: 0.30 / 0.32)
    phased_capped({1024, 1, 128, true, 1, false, false, 8}, 4),
    // 2048, 8192, 32768 and 65536: staged (r27 +0.02 / +0.02, +0.03 / +0.02, +0.03 / +0.05,
    // +0.00 / +0.03) took the residual block's backward down by 0.02-0.06, 0.12, 0.10 and 0.03
    // in rowfuse-bench (fp16 / bf16): they stay direct.
    phased_capped({2048, 1, 256, true, 1, false, false, 4}, 2), // r7 0.80 / 0.86, r27 0.802 / 0.859
    // r27 0.842 / 0.879 ([0.784 / 0.843] direct)
    phased_capped({4096, 1, 512, true, 1, true, false, 2}, 1),
    // r7 0.77 / 0.81; the chunk sums from -0: the residual block's backward -0.047 (H200, fp16)
    sums_from_first_row(unphased({8192, 1, 512, true, 2, false, false, 2})),
    unphased(
        {16384, 2, 512, true, 2, true, false, 1}), // r27 0.768 / 0.819 (dy direct: 0.70 / 0.75)
    // r7 0.59 / 0.63 (2 x 512 in 4: 0.57 / 0.66); from -0: the residual block's -0.056
    sums_from_first_row(unphased({32768, 1, 512, true, 8, false, false, 2})),
    // r7 0.55 / 0.59 (block_cluster: 0.20 / 0.29); from -0: the residual block's -0.014
    sums_from_first_row({65536, 1, 512, true, 16, false, false, 2}),
    {131072, 2, 512, true, 16, true, true, 1},   // r27 0.583 / 0.679 (direct tiles: 0.44)
    {262144, 4, 512, true, 16, false, false, 1}, // r27 0.324 / 0.42 (staged: 0.27 / 0.37)
};

/// The norms' backward alone (input, gradient and output bare) over 16-bit inputs: gradient_16bit's
/// rows but for those named here. At 1024 columns two packs over a block of 64 threads, staged
/// (thirty-seventh session, H200: 0.813 / 0.872 against 0.724 / 0.803 on 1 x 128 direct and 0.761 /
/// 0.848 on 1 x 128 staged). At 2048, 8192 and 32768 the rows staged, where the residual block's
/// backward keeps them direct. At 65536 columns on clusters of 8 blocks of 1024 threads, one an SM:
/// 15 such clusters are resident at once (120 SMs), where 14 of the 16 blocks of 512 threads, two
/// an SM, fill 224 of 264 block slots (cudaOccupancyMaxActiveClusters, the same on an H100 and an
/// H200). Layernorm / rmsnorm backward, staged against [direct]: round 27 (twentieth session, H100)
/// 2048 0.820 / 0.874 [0.802 / 0.859], 8192 0.798 / 0.833 [0.768 / 0.810], 32768 0.651 / 0.740
/// [0.625 / 0.688]; rowfuse-bench on an H200 (thirty-seventh session, bench/NOTES.md) 2048 0.753 /
/// 0.886 [0.710 / 0.781], 8192 0.700 / 0.801 [0.653 / 0.707], 32768 0.550 / 0.646 [0.535 / 0.583],
/// 65536 0.479 / 0.565 [0.458 / 0.511] (512 threads in 16, staged: 0.456 / 0.545; 2 x 512 in 4 at
/// 32768, staged: 0.557 / 0.640). Both streams' two slots take 32 KB a block (64 KB at 65536).
/// Narrow rows (thirty-eighth session, H200, rowfuse-bench, bench/NOTES.md), on group rows staged:
/// 33-128 columns one pack a lane under a cap of four (the chain's 256 row, staged), 129-256 two
/// packs a lane under a cap of two (16 lanes a row at 256 columns), 512 under a cap of two.
/// Layernorm / rmsnorm backward fp16 against the chain's rows: 64 0.668 / 0.740 -> 0.676 / 0.763,
/// 96 0.478 / 0.533 -> 0.457 / 0.559, 128 0.707 / 0.809 -> 0.715 / 0.827, 160 0.405 / 0.493 ->
/// 0.455 / 0.546, 256 0.705 / 0.807 -> 0.759 / 0.841, 512 within 0.003 (off the grid at 511
/// columns 0.33 / 0.38 -> 0.41 / 0.51); bf16 alike. At 32768 the clusters of 2 that would take the
/// 128 chunks in two waves lost: 2 x 1024 spills 384 bytes under its 64 registers (0.253 / 0.506),
/// 4 x 512 keeps its chunk sums in global memory (0.367 / 0.492).
inline constexpr auto norm_alone_gradient_16bit = insert_rows(
    replace_rows(gradient_16bit, {{256, 2, 256, false, 1, true, true, 2},
                                  {512, 2, 256, false, 1, true, true, 2},
                                  {1024, 2, 64, true, 1, true, false, 8},
                                  phased_capped({2048, 1, 256, true, 1, true, false, 4}, 2),
                                  unphased({8192, 1, 512, true, 2, true, false, 2}),
                                  unphased({32768, 1, 512, true, 8, true, false, 2}),
                                  {65536, 1, 1024, true, 8, true, false, 1}}),
    {phased_capped({128, 1, 256, false, 1, true, true, 4}, 2)});

/// The norms' backward over fp32 inputs, packs of 4 (layernorm backward, fused / copy; shapes
/// that spill do so under their register cap, 8-32 bytes).
inline constexpr register_shape gradient_32bit[] = {
    {256, 2, 512, false, 1, true, false, 1},  // r27 0.845 ([0.750] direct)
    {512, 4, 256, false, 1, true, false, 1},  // not surveyed
    {1024, 1, 256, true, 1, false, false, 4}, // r7 0.85 (staged, r27: 0.861 / residual -0.03)
    // r27 0.877 ([0.871] 2 x 256, spilled 24 bytes); the chunk sums from -0 (H200): the
    // residual block's backward -0.023, layernorm's level
    sums_from_first_row({2048, 1, 512, true, 1, true, false, 2}),
    {4096, 1, 1024, true, 1, true, false, 1},  // r27 0.889 ([0.876] 2 x 512, spilled 24 bytes)
    {8192, 2, 1024, true, 1, true, false, 1},  // r27 0.878 (dy read direct: 128 KB of slots,
                                               //   staged_gradient_max_bytes), spills 24 bytes
    {16384, 1, 512, true, 8, true, false, 2},  // r27 0.772 ([0.714] direct)
    {32768, 1, 1024, true, 8, true, false, 1}, // residual_backward, H200 (thirty-seventh
                                               //   session): 0.586 ([0.485] 2 x 256 in 16)
    // r27 0.702 (dy read direct: 0.676); from -0: layernorm backward -0.061 (12 -> 64 bytes of
    // spill), the residual block's level
    sums_from_first_row({65536, 2, 512, true, 16, true, false, 2}),
    // r27 0.585 (dy read direct; [0.429] 8 x 256 in 16); from -0: layernorm backward -0.028
    sums_from_first_row({131072, 2, 1024, true, 16, true, true, 1}),
    {262144, 8, 512, true, 16, false, false, 1}, // r27 0.354
};

/// The norms' backward alone (input, gradient and output bare) over fp32 inputs: gradient_32bit's
/// rows but at 1024 columns staged (below), at 16384 on clusters of 2 blocks of 1024 threads, one
/// an SM (66 clusters at once, where the 8 blocks of 512 threads, two an SM, fill 30), and at 32768
/// on 2 x 256 in 16 under a cap of four, the row the residual block's backward left (round 27,
/// twentieth session, H100: 0.752, spills 8 bytes; 2 x 512 in 8: 0.704). rowfuse-bench on an H200
/// (thirty-seventh session, layernorm / rmsnorm backward; the residual block's in brackets):
/// 16384 0.720 / 0.856 [0.519] against 0.660 / 0.720 [0.641] on 1 x 512 in 8; 32768 0.695 / 0.801
/// [0.485] against 0.600 / 0.686 [0.586] on 1 x 1024 in 8, one an SM. Its two slots of x take
/// 64 KB a block (dy is read direct: staged_gradient_max_bytes). At 1024 columns the row staged
/// (thirty-eighth session, H200, bench/NOTES.md): layernorm / rmsnorm backward 0.791 / 0.819 ->
/// 0.881 / 0.844 (a survey before it: 0.888 / 0.869-0.889; two packs over 128 threads staged, cap
/// eight: 0.822 / 0.893; a row of its own at 33-128 columns lost 0.03-0.12 staged or direct).
/// At 8192 and 32768 the chunk sums are set by each chunk's first row (sums_from_first_row): from
/// -0, layernorm backward lost 0.027 and 0.073 there (forty-third session, H200), while the
/// residual block's backward gained 0.045 on gradient_32bit's 8192 row.
inline constexpr auto norm_alone_gradient_32bit =
    replace_rows(gradient_32bit, {{1024, 1, 256, true, 1, true, false, 4},
                                  sums_from_first_row({8192, 2, 1024, true, 1, true, false, 1}),
                                  {16384, 2, 1024, true, 2, true, false, 1},
                                  sums_from_first_row({32768, 2, 256, true, 16, true, false, 4})});

// softmax_backward and log_softmax_backward on whole-block and cluster rows: round 5 of
// bench/experiments/row_shapes.cu (H100, 2026-11-23; y and dy 2^26 elements each, the copy of
// the counted bytes, y and dy read and dx written; softmax / log-softmax backward): as in round 4,
// direct loads with one block a tile and a register cap win to 16384 columns. Past it, rounds 21
// and 22 (eighteenth session, the same measure): the forward's cluster shapes (blocks of 256-512
// threads, two to four an SM, direct loads) run the rows where round 5, before the one-exchange
// cluster rows, left 16-bit past 32768 and fp32 past 131072 columns to the streaming engines
// (rowfuse-bench 0.56-0.63).

// Round 27 (twentieth session): at 32-512 columns one block a tile under a cap of four blocks an
// SM, where the staged persistent rows before ran 0.93-0.95 / 0.84-0.86; at 64-512 staged, with
// the gradient staged beside the input (engine::staged_streams; the same shape with dy read
// direct: 0.97-0.99 / 0.92-0.94). At 1024 (thirty-seventh session, H200, rowfuse-bench, fp16):
// one pack over a whole block of 128 threads under a cap of eight blocks an SM, as the 2048 row
// holds two, where the rows before ran 0.90 / 0.88 and the attention chain's backward 0.59
// (group rows of four packs, staged; for softmax's backward alone one block a tile, for the others
// the persistent grid): 0.98 / 0.95, 0.69; the same row staged 0.99 / 0.89, 0.67.

/// softmax and log-softmax backward over 16-bit inputs, packs of 8 (softmax / log-softmax
/// backward).
inline constexpr register_shape softmax_gradient_16bit[] = {
    {32, 1, 256, false, 1, false, false, 4},  // r27 1.014 / 0.967
    {512, 2, 256, false, 1, true, false, 4},  // r27 0.988-1.009 / 0.985-1.007 at 64-512
    {1024, 1, 128, true, 1, false, false, 8}, // H200 0.981 / 0.945 ([0.903 / 0.879])
    // r5 1.012 / 1.009 (the norms' row: 0.94). Its phased kernel (rows off the 16-byte grid)
    // capped to the aligned one's seven blocks an SM (ptxas -v, sm_90, twenty-seventh session:
    // 72 registers aligned, 80 phased (six blocks), 72 capped, no spill).
    phased_capped({2048, 2, 128, true, 1, false, false, 4}, 7),
    {4096, 2, 256, true, 1, false, false, 4},  // r5 1.009 / 1.004 (0.94)
    {8192, 2, 512, true, 1, false, false, 2},  // r5 1.009 / 0.998 (0.86 / 0.75)
    {16384, 2, 512, true, 2, false, false, 2}, // r21 1.007 / 0.991 (2 x 1024: 0.997 / r5 0.943)
    {32768, 2, 256, true, 8, false, false, 4}, // r21 1.006 / 0.964 (2 x 512 in 4: 1.000 / 0.955)
    // From 65536 columns persistent clusters (round 26, nineteenth session; the same shapes on
    // one cluster a row tile in brackets, same run).
    {65536, 2, 512, true, 8, false, true, 2},    // r26 0.966-0.978 / 0.937-0.940 ([0.98 / 0.92])
    {131072, 2, 512, true, 16, false, true, 2},  // r26 0.959-0.964 / 0.894-0.896 ([0.92 / 0.86])
    {262144, 2, 1024, true, 16, false, true, 1}, // r26 0.852-0.853 / 0.784-0.788 (4 x 512, r22's
                                                 //   row: 0.88 / 0.76, [0.86 / 0.71])
};

/// softmax and log-softmax backward over fp32 inputs, packs of 4.
inline constexpr register_shape softmax_gradient_32bit[] = {
    {256, 2, 512, false, 1, false, false, 1},   // rowfuse-bench 1.00-1.01
    {512, 4, 256, false, 1, true, false, 1},    // rowfuse-bench 1.01
    {1024, 2, 128, true, 1, false, false, 1},   // rowfuse-bench 1.01
    {2048, 2, 256, true, 1, false, false, 1},   // r5 1.008 / 1.007
    {4096, 2, 512, true, 1, false, false, 1},   // r5 1.016 / 1.015 (the norms' row: 0.90 / 0.83)
    {8192, 2, 1024, true, 1, false, false, 1},  // r5 1.012 / 1.007 (0.93 / 0.76)
    {16384, 4, 1024, true, 1, false, false, 1}, // r5 1.001 / 1.001 (0.73 / 0.67)
    // r21: 4 x 256 direct in clusters of 8 / 16 ran 1.016 / 1.012 and 1.013 / 1.013, but took the
    // attention chain's backward from 0.89 / 0.82 to 0.64 / 0.61 (rowfuse-bench): these stay.
    {32768, 4, 512, true, 4, true, false, 2},    // r21 0.995 / 0.995 (r5 0.946 / 0.908)
    {65536, 4, 512, true, 8, true, false, 2},    // r21 0.995 / 0.996 (r5 0.886 / 0.871)
    {131072, 4, 512, true, 16, false, false, 2}, // r22 1.003 / 1.005 (staged: 0.991 / 0.989)
    {262144, 8, 512, true, 16, false, false, 1}, // r22 0.975 / 0.967 (streaming: 0.59 / 0.58)
};

/// Backward ops over single 16-bit elements: round 3's norm rows (scalar_heavy_chain_16bit's
/// without the forced warp row) up to 8192 columns.
inline constexpr register_shape scalar_gradient_16bit[] = {
    {32, 1, 128, false, 1, false, true, 1},     {256, 8, 128, false, 1, false, true, 1},
    {1024, 16, 64, true, 1, false, true, 1},    {2048, 16, 128, true, 1, false, true, 1},
    {8192, 16, 512, true, 1, false, true, 1},   // layernorm 128 registers
    {16384, 16, 512, true, 2, false, false, 1}, // 32 x 512 spills
    {32768, 16, 512, true, 4, false, false, 1}, // 32 x 1024 spills
};

/// Backward ops over single fp32 elements: scalar_32bit's shapes up to 8192 columns.
inline constexpr register_shape scalar_gradient_32bit[] = {
    {32, 1, 128, false, 1, false, true, 1},     {256, 8, 128, false, 1, false, true, 1},
    {1024, 4, 256, true, 1, false, true, 1},    {2048, 16, 128, true, 1, true, false, 1},
    {8192, 32, 256, true, 1, true, true, 1},    // layernorm 190 registers
    {16384, 16, 512, true, 2, false, false, 1}, // 32 x 512 spills
    {32768, 16, 512, true, 4, false, false, 1}, // 32 x 1024 spills
};

/// Which tables an op takes: softmax's, log-softmax's, attention's (softmax under a load chain
/// that masks and a store chain that drops; over single fp32 elements it takes softmax's),
/// rmsnorm's, layernorm's (the op alone), layernorm_chain's (layernorm under a load chain; in 16
/// bits the two differ on narrow rows only), layernorm_tee_chain's (under a load chain that tees:
/// 16-bit packs differ at a few widths; fp32 its own) or layernorm_store_chain's (under a store
/// chain alone: 16-bit
/// packs and fp32 have their own rows, single elements layernorm_chain's), or a backward op's (they
/// hold two streams): softmax's, or the norms' (the norms' alone differ at a few widths). Which
/// engines an op can be forced onto depends on its family's tables (every backward table's cluster
/// rows reach 262144 columns).
enum class shape_family {
  softmax,
  log_softmax, ///< softmax's shapes but at a few widths (single elements too)
  rmsnorm,
  layernorm,
  softmax_gradient,
  norm_gradient,
  norm_alone_gradient,     ///< the norms' backward with bare chains: norm_gradient's but at a few
                           ///< widths
  attention,               ///< softmax with a load chain that masks and a store chain that drops
  layernorm_chain,         ///< layernorm under a load chain (layernorm: the op alone)
  layernorm_operand_chain, ///< layernorm under a load chain that streams an operand as wide as
                           ///< its input (the residual block): layernorm_chain's shapes but past
                           ///< 16384 16-bit columns
  layernorm_tee_chain,     ///< layernorm under a load chain that tees (rf::tee): layernorm_chain's
                           ///< shapes but at a few widths
  layernorm_store_chain,   ///< layernorm under a store chain alone (its load chain bare)
};

/// The table for elements of `ElementBytes` at packs of `Pack` for ops of `Family`: the kernel
/// table and the plan both take it from here.
template <int ElementBytes, int Pack, shape_family Family> constexpr auto const& shapes_for() {
  if constexpr (Family == shape_family::softmax_gradient || Family == shape_family::norm_gradient ||
                Family == shape_family::norm_alone_gradient) {
    constexpr bool softmax = Family == shape_family::softmax_gradient;
    if constexpr (Pack == 1 && ElementBytes == 4)
      return scalar_gradient_32bit;
    else if constexpr (Pack == 1)
      return scalar_gradient_16bit;
    else if constexpr (ElementBytes == 4 && softmax)
      return softmax_gradient_32bit;
    else if constexpr (ElementBytes == 4 && Family == shape_family::norm_alone_gradient)
      return norm_alone_gradient_32bit;
    else if constexpr (ElementBytes == 4)
      return gradient_32bit;
    else if constexpr (softmax)
      return softmax_gradient_16bit;
    else if constexpr (Family == shape_family::norm_alone_gradient)
      return norm_alone_gradient_16bit;
    else
      return gradient_16bit;
  } else if constexpr (Pack == 1 && ElementBytes == 4) {
    if constexpr (Family == shape_family::softmax || Family == shape_family::log_softmax ||
                  Family == shape_family::layernorm)
      return scalar_flat_32bit;
    else
      return scalar_32bit;
  } else if constexpr (Pack == 1) {
    if constexpr (Family == shape_family::attention)
      return scalar_attention_16bit;
    else if constexpr (Family == shape_family::layernorm_chain ||
                       Family == shape_family::layernorm_operand_chain ||
                       Family == shape_family::layernorm_tee_chain ||
                       Family == shape_family::layernorm_store_chain)
      return scalar_heavy_chain_16bit;
    else
      return scalar_16bit;
  } else if constexpr (ElementBytes == 4) {
    if constexpr (Family == shape_family::softmax)
      return softmax_32bit;
    else if constexpr (Family == shape_family::attention)
      return attention_32bit;
    else if constexpr (Family == shape_family::log_softmax)
      return log_softmax_32bit;
    else if constexpr (Family == shape_family::rmsnorm)
      return rmsnorm_32bit;
    else if constexpr (Family == shape_family::layernorm_chain ||
                       Family == shape_family::layernorm_operand_chain)
      return layernorm_chain_32bit; // its rows read back keep any chain's values
    else if constexpr (Family == shape_family::layernorm_tee_chain)
      return layernorm_tee_chain_32bit;
    else if constexpr (Family == shape_family::layernorm_store_chain)
      return layernorm_store_chain_32bit;
    else
      return layernorm_32bit;
  } else {
    if constexpr (Family == shape_family::attention)
      return attention_16bit;
    else if constexpr (Family == shape_family::softmax)
      return softmax_16bit;
    else if constexpr (Family == shape_family::log_softmax)
      return log_softmax_16bit;
    else if constexpr (Family == shape_family::rmsnorm)
      return rmsnorm_16bit;
    else if constexpr (Family == shape_family::layernorm_chain)
      return layernorm_chain_16bit;
    else if constexpr (Family == shape_family::layernorm_operand_chain)
      return layernorm_operand_chain_16bit;
    else if constexpr (Family == shape_family::layernorm_tee_chain)
      return layernorm_tee_chain_16bit;
    else if constexpr (Family == shape_family::layernorm_store_chain)
      return layernorm_store_chain_16bit;
    else
      return layernorm_16bit;
  }
}

/// Staging keeps two slots of the next row (one is read while the other fills) up to this many
/// bytes; past it one slot, refilled once the current row's values are in registers.
inline constexpr int staging_two_slot_bytes = 160 * 1024;

/// A backward op's staged shape stages the gradient stream beside the input where both streams'
/// slots take at most this many bytes (engine::staged_streams); past it the gradient is read
/// straight to registers. Round 27 (twentieth session, H100): at 32-64 KB of slots staging dy won
/// 0.02-0.15 of a copy (the norms' backward 16-bit at 4096: 0.784 -> 0.842, fp32 at 256: 0.750 ->
/// 0.845); at 128 KB it lost to staging x alone (fp32 layernorm backward at 8192 columns: 0.878 ->
/// 0.859, at 131072: 0.585 -> 0.567), and where two blocks an SM no longer fit (the fp32
/// softmax backward's 4 x 512 cluster rows under a cap of two: 256 KB) 0.09-0.24 in rowfuse-bench.
inline constexpr int staged_gradient_max_bytes = 64 * 1024;

/// The norms' gamma and beta are read once per thread and kept in registers where a thread holds
/// at most this many values of a row; past it, each pack's are read when it is finished.
inline constexpr int kept_column_values = 16;

/// The norm backward's running dgamma / dbeta sums stay in a register-engine thread across the
/// rows of a chunk where it holds at most kept_chunk_sum_values of them and, under a register cap
/// below 255 (512 threads a block), at most kept_chunk_sum_values_capped in at most two packs;
/// elsewhere they are read and written in global memory at every row. ptxas -v (sm_90, CUDA 13.0,
/// layernorm_backward with gamma and beta, every gradient table): no kernel spills under this rule
/// (fp16 8 x 2 x 512: 128 registers, 4 x 128: 218; fp32 8 x 256 clusters: 247), while keeping
/// them in fp32 4 x 4 x 512 clusters spills 8 bytes and in single elements 16 x 512 up to 64.
inline constexpr int kept_chunk_sum_values = 64;
inline constexpr int kept_chunk_sum_values_capped = 32;

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
