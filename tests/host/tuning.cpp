// The register-shape tables (dispatch/tuning.hpp) keep the properties the planner relies on:
// rows of one engine in order of width, attention's table able to run every engine forced on
// softmax's (users force engines by softmax's capacities), log-softmax's table
// softmax's but at a few rows, and layernorm's two tables (the op alone, under a chain) apart on
// narrow rows and at 4096 columns only.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <iterator>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <rowfuse/dispatch/cluster_sizing.hpp>
#include <rowfuse/dispatch/compiled_rows.hpp>
#include <rowfuse/dispatch/plan.hpp>
#include <rowfuse/dispatch/tuning.hpp>

#include "../support/described_device.hpp"

namespace rf = rowfuse;
using rf::tuning::shape_family;

namespace {

enum class register_engine { warp_rows, block_rows, cluster_rows };

register_engine engine_of(rf::tuning::register_shape const& s) {
  return !s.whole_block          ? register_engine::warp_rows
         : s.cluster_blocks == 1 ? register_engine::block_rows
                                 : register_engine::cluster_rows;
}

/// The widest row a forced engine can run from `shapes` at `pack` (0: none of that engine).
rf::index_t widest(std::span<rf::tuning::register_shape const> shapes, register_engine engine,
                   int pack) {
  rf::index_t most = 0;
  for (auto const& s : shapes)
    if (engine_of(s) == engine)
      most = std::max(most, rf::tuning::capacity(s, pack));
  return most;
}

struct table_key {
  int element_bytes, pack;
};
constexpr table_key keys[] = {{2, 8}, {2, 1}, {4, 4}, {4, 1}};
constexpr shape_family families[] = {shape_family::softmax,
                                     shape_family::log_softmax,
                                     shape_family::rmsnorm,
                                     shape_family::layernorm,
                                     shape_family::softmax_gradient,
                                     shape_family::norm_gradient,
                                     shape_family::norm_alone_gradient,
                                     shape_family::attention,
                                     shape_family::layernorm_chain,
                                     shape_family::layernorm_operand_chain,
                                     shape_family::layernorm_tee_chain,
                                     shape_family::layernorm_store_chain};
constexpr register_engine engines[] = {register_engine::warp_rows, register_engine::block_rows,
                                       register_engine::cluster_rows};

using table = std::span<rf::tuning::register_shape const>;

/// How many rows of `shapes` of `cols` columns a phased plan could take: every row but those for
/// devices of wide memory alone without a phased kernel (for_wide_memory), which plan aligned
/// rows alone.
int rows_with_phased_plans_at(table shapes, rf::index_t cols) {
  int rows = 0;
  for (auto const& s : shapes)
    rows += s.max_cols == cols && !(s.wide_memory_only && !s.has_phased_kernel);
  return rows;
}

/// `row` without its sized twin: whether a row has one is each family's measurement (tuning.hpp,
/// register_shape::sized_at_launch), so tables that share a shape compare without it.
rf::tuning::register_shape unsized(rf::tuning::register_shape row) {
  row.sized_at_launch = false;
  row.sized_min_blocks_per_sm = 0;
  return row;
}

/// `rows` without the rows for devices of wide memory (tuning::register_shape::wide_memory_only):
/// what every other device plans from.
std::vector<rf::tuning::register_shape> narrow_memory_rows(table rows) {
  std::vector<rf::tuning::register_shape> kept;
  std::ranges::copy_if(rows, std::back_inserter(kept),
                       [](auto const& row) { return !row.wide_memory_only; });
  return kept;
}

/// Runs body(first's table, second's table, key) for every element size and pack width.
template <class Body> void for_each_table_pair(shape_family first, shape_family second, Body body) {
  for (auto key : keys) {
    CAPTURE(key.element_bytes);
    CAPTURE(key.pack);
    body(rf::detail::register_shapes(key.element_bytes, key.pack, first),
         rf::detail::register_shapes(key.element_bytes, key.pack, second), key);
  }
}

/// Whether `a`'s widest row of every engine holds what `b`'s does (compare(a's, b's)), among the
/// rows every device plans from: a table's rows for devices of wide memory are its own (on such a
/// device an engine forced on the op alone may hold widths its chain's refuses; the GPU suites
/// take each call's forced plans from its own dry run, test::plans_for).
template <class Compare> void check_widest(table a, table b, int pack, Compare compare) {
  auto const a_rows = narrow_memory_rows(a);
  auto const b_rows = narrow_memory_rows(b);
  for (auto engine : engines) {
    CAPTURE(int(engine));
    CHECK(compare(widest(a_rows, engine, pack), widest(b_rows, engine, pack)));
  }
}

} // namespace

TEST_CASE("every table lists one engine's rows in order of width, each able to hold its width") {
  for (auto family : families)
    for (auto key : keys) {
      auto const shapes = rf::detail::register_shapes(key.element_bytes, key.pack, family);
      CAPTURE(int(family));
      CAPTURE(key.element_bytes);
      CAPTURE(key.pack);
      REQUIRE(!shapes.empty());
      for (auto engine : engines) {
        // Rows for phased plans alone (for_phased_rows) on compile-time groups stand first, in
        // their own order; a whole-block one stands right before a row of its width (the next of
        // its engine) that has no phased kernel, whose phased plans it holds, or, where no other
        // row of its width can take a phased plan, alone.
        rf::index_t previous = 0;
        bool in_phased_rows = true;
        rf::tuning::register_shape const* holds_phased_plans_of_next = nullptr;
        for (auto const& s : shapes) {
          if (engine_of(s) != engine)
            continue;
          CAPTURE(s.max_cols);
          CAPTURE(s.phased_only);
          bool const leading = s.phased_only && !s.whole_block;
          if (in_phased_rows && !leading) {
            in_phased_rows = false;
            previous = 0;
          }
          CHECK(leading == in_phased_rows);
          if (s.phased_only)
            CHECK((s.has_phased_kernel && !s.wide_memory_only));
          // Their edges spread over a compile-time group (register_config::edges_per_lane).
          if (leading)
            CHECK(s.row_threads > 0);
          if (holds_phased_plans_of_next != nullptr) {
            if (s.max_cols == holds_phased_plans_of_next->max_cols)
              CHECK((!s.phased_only && !s.has_phased_kernel && !s.wide_memory_only));
            else
              CHECK(rows_with_phased_plans_at(shapes, holds_phased_plans_of_next->max_cols) == 1);
          }
          holds_phased_plans_of_next = s.phased_only && s.whole_block ? &s : nullptr;
          CHECK(s.max_cols >= previous);
          CHECK(rf::tuning::capacity(s, key.pack) >= s.max_cols);
          CHECK(s.block_threads % 32 == 0);
          CHECK(!(s.row_threads > 0 && s.whole_block)); // threads a row: a group row's
          CHECK((s.row_threads & (s.row_threads - 1)) == 0);
          if (s.row_threads > 0)
            CHECK(s.block_threads % s.row_threads == 0);
          // A phased kernel's own cap differs from the row's where it is given: more blocks
          // where its extra registers cost one, fewer where the aligned cap would make it spill.
          CHECK((s.phased_min_blocks_per_sm == 0 ||
                 s.phased_min_blocks_per_sm != s.min_blocks_per_sm));
          previous = s.max_cols;
        }
        CHECK(holds_phased_plans_of_next == nullptr);
      }
    }
}

TEST_CASE("attention's shapes: its own for packs and single 16-bit elements, softmax's for single "
          "fp32 elements past 256 columns, every forced engine of softmax's") {
  auto const attention_wide = rf::detail::register_shapes(2, 8, shape_family::attention);
  auto const softmax_wide = rf::detail::register_shapes(2, 8, shape_family::softmax);
  CHECK(attention_wide.data() != softmax_wide.data());
  for_each_table_pair(
      shape_family::attention, shape_family::softmax,
      [](table attention, table softmax, table_key key) {
        // Single fp32 elements: softmax's rows past 256 columns; to 256 a run-time group, where
        // softmax's flat tiles were not timed under attention's chains (thirty-fifth session).
        if (key.element_bytes == 4 && key.pack == 1) {
          auto const past_256 = [](table rows) {
            return std::find_if(rows.begin(), rows.end(),
                                [](auto const& row) { return row.max_cols > 256; });
          };
          CHECK(std::equal(past_256(attention), attention.end(), past_256(softmax), softmax.end()));
          CHECK(attention.front().row_threads == 0);
          CHECK(softmax.front().staged);
        }
        // fp32 packs: softmax's rows (but its rows for devices of wide memory) where the survey
        // of the pipeline found better (twenty-first session).
        if (key.element_bytes == 4 && key.pack == 4) {
          auto const softmax_rows = narrow_memory_rows(softmax);
          REQUIRE(attention.size() == softmax_rows.size());
          for (std::size_t i = 0; i < attention.size(); ++i)
            CHECK(attention[i].max_cols == softmax_rows[i].max_cols);
        }
        // Round 3's single-element rows (softmax's are rounds 11-13's).
        if (key.element_bytes == 2 && key.pack == 1)
          CHECK(attention.data() != softmax.data());
        check_widest(attention, softmax, key.pack, std::greater_equal<>{});
      });
  // The automatic plan keeps a 32768-column attention row in one block (0.88 of copy, against
  // 0.60 on softmax's cluster row).
  rf::device_info const h100 = test::described_device();
  rf::plan const p = rf::detail::choose_plan("attention", 64, 32768, 8, rf::engine_kind::automatic,
                                             h100, attention_wide);
  CHECK(p.engine == rf::engine_kind::block_rows);
  CHECK(p.block_threads == 1024);
  rf::plan const q = rf::detail::choose_plan("softmax", 64, 32768, 8, rf::engine_kind::automatic,
                                             h100, softmax_wide);
  CHECK(q.engine == rf::engine_kind::cluster_rows);
}

TEST_CASE("log-softmax's shapes: softmax's but at a few widths, the same widest row of every "
          "engine") {
  for_each_table_pair(shape_family::log_softmax, shape_family::softmax,
                      [](table log_with_wide_rows, table softmax_with_wide_rows, table_key key) {
                        // Each table's rows for devices of wide memory are its own.
                        auto const log_rows = narrow_memory_rows(log_with_wide_rows);
                        auto const softmax_rows = narrow_memory_rows(softmax_with_wide_rows);
                        table const log = log_rows;
                        table const softmax = softmax_rows;
                        REQUIRE(log.size() == softmax.size());
                        // The shapes of the aligned kernels: the phased kernels' and the sized
                        // twins' caps apart, and the padding of the phases (each op's own
                        // measurement: tuning::padded).
                        auto const aligned = [](rf::tuning::register_shape s) {
                          s.phased_min_blocks_per_sm = 0;
                          s.sized_min_blocks_per_sm = 0;
                          s.pads_values = s.phased_pads_values = false;
                          return s;
                        };
                        int differ = 0;
                        for (std::size_t i = 0; i < log.size(); ++i) {
                          CHECK(log[i].max_cols == softmax[i].max_cols);
                          differ += !(aligned(log[i]) == aligned(softmax[i]));
                        }
                        // Rounds 10 and 25: 16384, 32768, 131072, 262144; rounds 30 and 31
                        // (thirty-first session): the rows of five packs at 20480, 40960,
                        // 81920 and 163840 and of six at 24576, 49152, 98304 and 196608.
                        CHECK(differ <= 12);
                        check_widest(log, softmax, key.pack, std::equal_to<>{});
                      });
  // fp32 at 262144 columns: softmax's cluster row under a cap of two blocks an SM.
  auto const log32 = rf::detail::register_shapes(4, 4, shape_family::log_softmax);
  CHECK(log32.back().max_cols == 262144);
  CHECK(log32.back().min_blocks_per_sm == 2);
  CHECK(rf::detail::register_shapes(4, 4, shape_family::softmax).back().min_blocks_per_sm == 1);
}

TEST_CASE(
    "layernorm alone and under a 16-bit load chain: the same rows past 1024 columns but at 4096, "
    "at "
    "8192 and 16384 (single 16-bit elements: their own) and where the op alone reads gamma and "
    "beta "
    "ahead, the op alone holding every engine's widest row of the chains', their own narrow rows") {
  using rf::tuning::column_placement;
  auto const shared_rows = [](table shapes, table alone, table_key key) {
    std::vector<rf::tuning::register_shape> rows;
    std::ranges::transform(shapes, std::back_inserter(rows), unsized);
    std::erase_if(rows, [&](auto const& s) {
      bool const read_ahead_alone = std::ranges::any_of(alone, [&](auto const& a) {
        return a.max_cols == s.max_cols &&
               (a.columns == column_placement::ahead || a.columns == column_placement::held);
      });
      // The chain's survey rows, and those that stage the residual beside the input.
      bool const staged_chain = key.element_bytes == 2 && key.pack == 8 &&
                                (s.max_cols == 2048 || s.max_cols == 8192 || s.max_cols == 16384);
      // The op alone's rows of five and six packs (round 32, thirty-first session).
      bool const between_alone = s.packs == 5 || s.packs == 6;
      // Rows for devices of wide memory: each table's own, measured on an H200 (tuning.hpp).
      return !(s.max_cols > 1024 && s.max_cols != 4096 && !staged_chain && !read_ahead_alone &&
               !between_alone && !s.wide_memory_only);
    });
    return rows;
  };
  for_each_table_pair(shape_family::layernorm, shape_family::layernorm_chain,
                      [&](table alone, table chain, table_key key) {
                        // The chain keeps round 3's single-element rows; the op alone takes
                        // rounds 11-13's. The fp32 chain has the residual block's own rows
                        // (twenty-first session).
                        if (key.element_bytes == 2 && key.pack == 1)
                          CHECK(alone.data() != chain.data());
                        else if (key.element_bytes == 2)
                          CHECK(shared_rows(alone, alone, key) == shared_rows(chain, alone, key));
                        // Every engine forced on the op alone runs under a chain too (the GPU
                        // suites run both with one plan's options).
                        check_widest(alone, chain, key.pack, std::equal_to<>{});
                      });
  for_each_table_pair(shape_family::layernorm, shape_family::layernorm_store_chain,
                      [&](table alone, table store_chain, table_key key) {
                        check_widest(alone, store_chain, key.pack, std::equal_to<>{});
                      });
  // 16-bit rows past 32768 columns on a cluster's registers: under a load chain with gamma and
  // beta held with the row, on persistent clusters of 8 at 65536 columns (nineteenth session's
  // wide survey: the residual block 0.49 -> 0.58); alone and under a store chain the row read back
  // from its staging slot, gamma and beta held, on persistent clusters of 2 (round 24: 0.81 ->
  // 0.93); under a chain that streams an operand as wide as its input (the residual block), the
  // row read back with the residual staged beside it and the chain's values kept there, on
  // persistent clusters of 4 (seventy-seventh session: 0.59 -> 0.70).
  rf::device_info const h100 = test::described_device();
  for (shape_family family :
       {shape_family::layernorm, shape_family::layernorm_chain, shape_family::layernorm_store_chain,
        shape_family::layernorm_operand_chain}) {
    CAPTURE(int(family));
    auto const shapes = rf::detail::register_shapes(2, 8, family);
    rf::plan const wide = rf::detail::choose_plan("layernorm", 2048, 65536, 8,
                                                  rf::engine_kind::automatic, h100, shapes);
    CHECK(wide.engine == rf::engine_kind::cluster_rows);
    CHECK(wide.persistent);
    bool const chain = family == shape_family::layernorm_chain;
    bool const operand_chain = family == shape_family::layernorm_operand_chain;
    CHECK(wide.cluster_blocks == (chain ? 8 : operand_chain ? 4 : 2));
    CHECK(shapes[std::size_t(wide.shape)].columns ==
          (chain ? column_placement::per_engine : column_placement::held));
    CHECK(shapes[std::size_t(wide.shape)].stages_operands == operand_chain);
  }
  // 256 fp16 columns: four packs a thread, one block a tile, for the op alone; the residual
  // block's chain one pack on a persistent grid.
  rf::plan const alone =
      rf::detail::choose_plan("layernorm", 1 << 20, 256, 8, rf::engine_kind::automatic, h100,
                              rf::detail::register_shapes(2, 8, shape_family::layernorm));
  CHECK(alone.engine == rf::engine_kind::warp_rows);
  CHECK(alone.packs == 4);
  CHECK(!alone.persistent);
  rf::plan const chain =
      rf::detail::choose_plan("layernorm", 1 << 20, 256, 8, rf::engine_kind::automatic, h100,
                              rf::detail::register_shapes(2, 8, shape_family::layernorm_chain));
  CHECK(chain.engine == rf::engine_kind::warp_rows);
  CHECK(chain.packs == 1);
  CHECK(chain.persistent);
}

TEST_CASE("layernorm under a load chain that tees: the chain's rows but at a few 16-bit widths, "
          "fp32 its own, rows read back from their slots at 32768-65536 columns, every "
          "engine's widest row of the chain's") {
  using rf::tuning::column_placement;
  for_each_table_pair(shape_family::layernorm_tee_chain, shape_family::layernorm_chain,
                      [](table tee, table chain, table_key key) {
                        if (key.element_bytes == 2 && key.pack == 8) {
                          CHECK(tee.data() != chain.data());
                          // 2048, 4096 and 16384 read the residual straight to registers; the
                          // chain's 32768 block row kept for forced plans alone (max_cols 16384), a
                          // cluster row at 32768, of five and six packs a thread at 40960 and
                          // 49152; 65536 its own; the residual block's 98304- and 114688-column
                          // rows for phased plans alone; 131072 read back after a row for phased
                          // plans alone, and three more past it (163840, 196608, 229376). (The
                          // rows for devices of wide memory: "rows for devices of wide memory"
                          // below.)
                          auto const tee_rows = narrow_memory_rows(tee);
                          auto const chain_rows = narrow_memory_rows(chain);
                          CHECK(tee_rows.size() == chain_rows.size() + 10);
                          int differ = 0;
                          for (auto const& row : tee_rows)
                            differ += std::ranges::none_of(chain_rows, [&](auto const& c) {
                              return unsized(c) == unsized(row);
                            });
                          CHECK(differ == 17);
                        } else if (key.pack == 1) {
                          CHECK(tee.data() == chain.data());
                        } else {
                          CHECK(tee.data() != chain.data()); // fp32: the tee's own survey rows
                        }
                        check_widest(tee, chain, key.pack, std::equal_to<>{});
                      });
  rf::device_info const h100 = test::described_device();
  for (auto key : {table_key{2, 8}, table_key{4, 4}}) {
    CAPTURE(key.element_bytes);
    auto const wide =
        rf::detail::register_shapes(key.element_bytes, key.pack, shape_family::layernorm_tee_chain);
    for (rf::index_t cols : {32768, 65536}) {
      CAPTURE(cols);
      rf::plan const p = rf::detail::choose_plan("layernorm", 2048, cols, key.pack,
                                                 rf::engine_kind::automatic, h100, wide);
      CHECK(p.engine == rf::engine_kind::cluster_rows);
      CHECK(p.cluster_blocks == (cols == 32768 ? 2 : 4));
      CHECK(p.persistent);
      CHECK(wide[std::size_t(p.shape)].columns == column_placement::held);
      CHECK(wide[std::size_t(p.shape)].stages_operands);
    }
  }
  auto const shapes = rf::detail::register_shapes(2, 8, shape_family::layernorm_tee_chain);
  rf::plan const forced = rf::detail::choose_plan("layernorm", 2048, 32768, 8,
                                                  rf::engine_kind::block_rows, h100, shapes);
  CHECK(forced.engine == rf::engine_kind::block_rows);
  CHECK(forced.block_threads == 1024);
}

TEST_CASE("layernorm under a load chain that streams an operand as wide as its input: the "
          "chain's rows to 16384 16-bit columns, past them rows read back from staging on the grid "
          "and the chain's rows off it; fp32 and single elements the chain's") {
  using rf::tuning::column_placement;
  for_each_table_pair(
      shape_family::layernorm_operand_chain, shape_family::layernorm_chain,
      [](table operand, table chain, table_key key) {
        if (!(key.element_bytes == 2 && key.pack == 8)) {
          CHECK(operand.data() == chain.data());
          return;
        }
        auto const operand_rows = narrow_memory_rows(operand);
        auto const chain_rows = narrow_memory_rows(chain);
        // The chain's rows to 16384 columns lead (the operand table's block row for
        // forced plans, of 16384 columns too, stands after them).
        std::size_t shared = 0;
        while (shared < chain_rows.size() && chain_rows[shared].max_cols <= 16384)
          ++shared;
        REQUIRE(operand_rows.size() > shared);
        for (std::size_t i = 0; i < shared; ++i)
          CHECK(operand_rows[i] == chain_rows[i]);
        // Past 16384 columns: rows read back at 32768 (no phased kernel: phased
        // plans pass it by), at 40960-98304 with their phased kernels,
        // which rows one element off the grid take as rows on it do, at 131072
        // after a row for phased plans alone that is the chain's row of that
        // width; the chain's 262144-column row.
        rf::device_info const h100 = test::described_device();
        for (rf::index_t cols : {32768, 40960, 49152, 65536, 98304, 131072}) {
          CAPTURE(cols);
          rf::plan const p = rf::detail::choose_plan("layernorm", 2048, cols, 8,
                                                     rf::engine_kind::automatic, h100, operand);
          auto const& row = operand[std::size_t(p.shape)];
          CHECK(p.engine == rf::engine_kind::cluster_rows);
          CHECK(p.persistent);
          CHECK(row.columns == column_placement::held);
          CHECK(row.stages_operands);
          CHECK(row.max_cols == cols);
          bool const phased_here = cols > 32768 && cols < 131072;
          CHECK(row.has_phased_kernel == phased_here);
          CHECK(row.phased_passes_by == (cols == 32768));
          CHECK(row.packs == (cols == 40960 ? 5 : cols == 49152 || cols == 98304 ? 6 : 4));
          if (phased_here) {
            // An odd width the row holds (40001 for the 40960-column row).
            rf::index_t const odd_cols = cols - 959;
            rf::plan const off = rf::detail::try_phased_plan(
                "layernorm", 2048, odd_cols, 8, rf::engine_kind::automatic, h100, operand);
            CHECK(off.phased);
            CHECK(off.shape == p.shape);
          }
          if (cols == 131072) {
            auto const& phased = operand[std::size_t(p.shape) - 1];
            CHECK(phased.phased_only);
            rf::plan const q = rf::detail::choose_plan("layernorm", 2048, cols, 8,
                                                       rf::engine_kind::automatic, h100, chain);
            auto chain_row = chain[std::size_t(q.shape)];
            chain_row.phased_only = true;
            CHECK(phased == chain_row);
          }
        }
        // The chain's widest row, its phased plans on the row read back before it.
        auto widest = chain_rows.back();
        widest.has_phased_kernel = false;
        CHECK(operand_rows.back() == widest);
      });
}

TEST_CASE("layernorm under a store chain alone: its own rows for 16-bit packs (four packs a "
          "thread from 65 columns, staged on a persistent grid) and fp32 packs, the load chain's "
          "for single elements, the same widest row of every engine") {
  for_each_table_pair(shape_family::layernorm_store_chain, shape_family::layernorm_chain,
                      [](table store_chain, table chain, table_key key) {
                        if (key.pack > 1)
                          CHECK(store_chain.data() != chain.data());
                        else
                          CHECK(store_chain.data() == chain.data());
                        check_widest(store_chain, chain, key.pack, std::equal_to<>{});
                      });
  rf::device_info const h100 = test::described_device();
  auto const shapes = rf::detail::register_shapes(2, 8, shape_family::layernorm_store_chain);
  rf::plan const narrow = rf::detail::choose_plan("layernorm", 1 << 20, 256, 8,
                                                  rf::engine_kind::automatic, h100, shapes);
  CHECK(narrow.engine == rf::engine_kind::warp_rows);
  CHECK(narrow.packs == 4);
  CHECK(narrow.persistent);
  CHECK(narrow.staged);
  rf::plan const at_4096 = rf::detail::choose_plan("layernorm", 1 << 15, 4096, 8,
                                                   rf::engine_kind::automatic, h100, shapes);
  CHECK(at_4096.engine == rf::engine_kind::block_rows);
  CHECK(at_4096.packs == 4);
  CHECK(at_4096.block_threads == 128);
}

TEST_CASE("single 16-bit elements from 257 to 1024 columns: a warp a row, its 32 lanes fixed, "
          "whatever the width; forced on the pipelines' tables too") {
  rf::device_info const h100 = test::described_device();
  for (shape_family family :
       {shape_family::softmax, shape_family::rmsnorm, shape_family::layernorm}) {
    CAPTURE(int(family));
    for (rf::index_t cols : {257, 300, 1000, 1024}) {
      CAPTURE(cols);
      rf::plan const p =
          rf::detail::choose_plan("softmax", 4096, cols, 1, rf::engine_kind::automatic, h100,
                                  rf::detail::register_shapes(2, 1, family));
      CHECK(p.engine == rf::engine_kind::warp_rows);
      CHECK(p.packs == 32);
      CHECK(p.group == 32);
      CHECK(p.block_threads == 128);
    }
  }
  // The pipelines keep round 3's rows at 300 columns and take the warp row when forced.
  for (shape_family family : {shape_family::attention, shape_family::layernorm_chain,
                              shape_family::layernorm_store_chain}) {
    CAPTURE(int(family));
    auto const shapes = rf::detail::register_shapes(2, 1, family);
    rf::plan const automatic =
        rf::detail::choose_plan("softmax", 4096, 300, 1, rf::engine_kind::automatic, h100, shapes);
    CHECK(automatic.engine == rf::engine_kind::block_rows);
    rf::plan const forced =
        rf::detail::choose_plan("softmax", 4096, 300, 1, rf::engine_kind::warp_rows, h100, shapes);
    CHECK(forced.engine == rf::engine_kind::warp_rows);
    CHECK(forced.group == 32);
    CHECK(shapes[std::size_t(forced.shape)].row_threads == 32);
  }
}

TEST_CASE("phased plans: the shape that holds a row's whole packs (in registers or read back from "
          "staging), 16+ lanes a row") {
  rf::device_info const h100 = test::described_device();
  auto const wide = rf::detail::register_shapes(2, 8, shape_family::softmax);
  auto const phased = [&](rf::index_t cols, rf::engine_kind forced = rf::engine_kind::automatic) {
    return rf::detail::try_phased_plan("softmax", 4096, cols, 8, forced, h100, wide);
  };
  // 4097 columns hold at most 512 whole packs (the head and tail are single elements): the
  // 4096-column row, as 4096 aligned columns plan it, not the 8192-column one.
  rf::plan const at_4097 = phased(4097);
  rf::plan const at_4096 =
      rf::detail::choose_plan("softmax", 4096, 4096, 8, rf::engine_kind::automatic, h100, wide);
  CHECK(at_4097.phased);
  CHECK(at_4097.refused.empty());
  CHECK(at_4097.cols == 4097);
  CHECK(at_4097.shape == at_4096.shape);
  CHECK(at_4097.pack == 8);
  // Every register engine up to the widest row.
  for (rf::index_t cols : {300, 1000, 2047, 8191, 16383, 32767, 100003, 262151}) {
    CAPTURE(cols);
    rf::plan const p = phased(cols);
    CHECK(p.phased);
    CHECK(p.group >= 14);
    CHECK(wide[std::size_t(p.shape)].max_cols >= cols / 8 * 8);
  }
  // Narrow rows: the rows for phased plans alone, whose compile-time groups of 4 and 8 lanes hold
  // the row's 14 edge elements at most, several a lane; rows on the grid never take them.
  for (rf::index_t cols : {9, 33, 40, 63, 71, 72, 100, 135}) {
    CAPTURE(cols);
    rf::plan const p = phased(cols);
    CHECK(p.phased);
    CHECK(p.refused.empty());
    rf::tuning::register_shape const& s = wide[std::size_t(p.shape)];
    CHECK(s.phased_only);
    CHECK(p.group == s.row_threads);
    CHECK(s.max_cols >= cols / 8 * 8);
    rf::plan const aligned = rf::detail::choose_plan("softmax", 4096, cols / 8 * 8, 8,
                                                     rf::engine_kind::automatic, h100, wide);
    CHECK(!wide[std::size_t(aligned.shape)].phased_only);
  }
  // Past them, the rows aligned plans take, phased on run-time groups of 16 lanes or more.
  for (rf::index_t cols : {136, 200, 263}) {
    CAPTURE(cols);
    rf::plan const p = phased(cols);
    CHECK(p.phased);
    CHECK(!wide[std::size_t(p.shape)].phased_only);
    CHECK(p.group >= 14);
  }
  // No whole pack, rows past the registers and engines that hold no row in registers: not phased,
  // and the plan says why.
  for (rf::index_t cols : {5, 300000}) {
    CAPTURE(cols);
    rf::plan const p = phased(cols);
    CHECK(!p.phased);
    CHECK(p.refused.find("phased") != std::string::npos);
  }
  CHECK(!phased(4097, rf::engine_kind::block_smem).phased);
  CHECK(phased(4097, rf::engine_kind::cluster_rows).phased);

  // The tee'd residual block reads its 32768-column row back from staging (held), and phased plans
  // of 16385-32768 columns take that row's phased kernel: they pass the table's block row for
  // forced plans by. The residual block without the tee keeps the opposite: its 32768-column row
  // passes phased plans by for that block row. Its rows read back at 40960, 49152 and 65536 columns
  // keep their phased
  // rows (40001, 41001, 50001 columns); at 65537-98304 phased plans take the residual block's
  // 98304-column row, for phased plans alone in this table.
  auto const tee_chain = rf::detail::register_shapes(2, 8, shape_family::layernorm_tee_chain);
  auto const tee_phased = [&](rf::index_t cols) {
    return rf::detail::try_phased_plan("layernorm", 4096, cols, 8, rf::engine_kind::automatic, h100,
                                       tee_chain);
  };
  auto const tee_aligned = [&](rf::index_t cols) {
    return rf::detail::choose_plan("layernorm", 4096, cols, 8, rf::engine_kind::automatic, h100,
                                   tee_chain);
  };
  rf::plan const tee_at_32768 = tee_aligned(32768);
  auto const& tee_32768 = tee_chain[std::size_t(tee_at_32768.shape)];
  REQUIRE(tee_32768.columns == rf::tuning::column_placement::held);
  CHECK(!tee_32768.phased_passes_by);
  CHECK(tee_32768.has_phased_kernel);
  for (rf::index_t cols : {16393, 24577, 32767}) {
    CAPTURE(cols);
    rf::plan const at = tee_phased(cols);
    CHECK(at.phased);
    CHECK(at.shape == tee_at_32768.shape);
  }
  auto const residual_chain =
      rf::detail::register_shapes(2, 8, shape_family::layernorm_operand_chain);
  rf::plan const residual_at_32767 = rf::detail::try_phased_plan(
      "layernorm", 4096, 32767, 8, rf::engine_kind::automatic, h100, residual_chain);
  CHECK(residual_at_32767.phased);
  CHECK(residual_at_32767.engine == rf::engine_kind::block_rows);
  CHECK(rf::tuning::capacity(residual_chain[std::size_t(residual_at_32767.shape)], 8) >= 32760);
  rf::plan const at_40001 = tee_phased(40001);
  CHECK(at_40001.phased);
  CHECK(at_40001.shape == tee_aligned(40960).shape);
  CHECK(tee_phased(41001).shape == tee_aligned(49152).shape);
  CHECK(tee_phased(50001).shape == tee_aligned(65536).shape);
  rf::plan const tee_at_90001 = tee_phased(90001);
  CHECK(tee_at_90001.phased);
  CHECK(tee_chain[std::size_t(tee_at_90001.shape)] ==
        rf::tuning::for_phased_rows(rf::tuning::layernorm_operand_chain_16bit_98304));
  CHECK(tee_chain[std::size_t(at_40001.shape)].columns == rf::tuning::column_placement::held);
  auto const layernorm_alone = rf::detail::register_shapes(2, 8, shape_family::layernorm);
  // Narrow phased rows on run-time-group rows: a 32-lane group filled to at most 5/8 takes the
  // row with more packs a lane (two rows a warp), one of too few lanes for the edges the row with
  // fewer; a full group keeps the automatic row.
  auto const softmax_16 = rf::detail::register_shapes(2, 8, shape_family::softmax);
  rf::plan const at_300 = rf::detail::try_phased_plan("softmax", 4096, 300, 8,
                                                      rf::engine_kind::automatic, h100, softmax_16);
  CHECK(at_300.phased);
  CHECK(at_300.engine == rf::engine_kind::warp_rows);
  CHECK(at_300.packs == 4);
  CHECK(at_300.group == 16);
  rf::plan const at_1000 = rf::detail::try_phased_plan(
      "softmax", 4096, 1000, 8, rf::engine_kind::automatic, h100, softmax_16);
  CHECK(at_1000.packs == 4);
  CHECK(at_1000.group == 32);
  rf::plan const aligned_1024 = rf::detail::choose_plan(
      "softmax", 4096, 1024, 8, rf::engine_kind::automatic, h100, softmax_16);
  CHECK(at_1000.shape == aligned_1024.shape);
  // A call bounded to 257-512 columns (cols_range) compiled no kernel of the 1024-column row: the
  // rule keeps the automatic row, the H100's own 512-column row (aligned plans on an H100 take an
  // H200's row there, which has no phased kernel: a device of the H100's own rows marks it).
  auto const compiled = std::make_unique<bool[]>(softmax_16.size()); // every row false
  compiled[std::size_t(rf::detail::choose_plan("softmax", 4096, 512, 8, rf::engine_kind::automatic,
                                               test::described_own_rows(), softmax_16)
                           .shape)] = true;
  rf::plan const bounded_300 = rf::detail::try_phased_plan(
      "softmax", 4096, 300, 8, rf::engine_kind::automatic, h100, softmax_16,
      std::span<bool const>(compiled.get(), softmax_16.size()));
  CHECK(bounded_300.phased);
  CHECK(bounded_300.packs == 2);
  CHECK(bounded_300.group == 32);
  // Layernorm's 4-pack row would leave rows of 17-32 packs (136-263 columns) 8 lanes, too few for
  // one edge a lane: its rows for phased plans alone hold them, the edges two a lane; under a
  // store chain, whose table has none, the rule takes its 2-pack row, 16 lanes.
  auto const layernorm_store_chain =
      rf::detail::register_shapes(2, 8, shape_family::layernorm_store_chain);
  for (rf::index_t cols : {140, 260}) {
    CAPTURE(cols);
    rf::plan const narrow = rf::detail::try_phased_plan(
        "layernorm", 4096, cols, 8, rf::engine_kind::automatic, h100, layernorm_alone);
    CHECK(narrow.phased);
    CHECK(layernorm_alone[std::size_t(narrow.shape)].phased_only);
    CHECK(narrow.packs == 4);
    CHECK(narrow.group == 8);
    rf::plan const chained = rf::detail::try_phased_plan(
        "layernorm", 4096, cols, 8, rf::engine_kind::automatic, h100, layernorm_store_chain);
    CHECK(chained.phased);
    CHECK(chained.packs == 2);
    CHECK(chained.group == 16);
  }
  // Past 32768 columns layernorm's 16-bit tables (alone and under a store chain) read their rows
  // back from staging (held), and so do their phased rows: each takes the row its whole packs
  // take aligned (40001 and 50257 columns, and 100003 columns), but the op alone's 65536-column
  // row, whose phased plans take the 81920-column row's kernel (phased_elsewhere: at 50257).
  for (shape_family family : {shape_family::layernorm, shape_family::layernorm_store_chain}) {
    CAPTURE(int(family));
    auto const shapes = rf::detail::register_shapes(2, 8, family);
    for (rf::index_t cols : {40001, 50257, 100003}) {
      CAPTURE(cols);
      rf::plan const aligned = rf::detail::choose_plan("layernorm", 2048, cols / 8 * 8, 8,
                                                       rf::engine_kind::automatic, h100, shapes);
      CHECK(shapes[std::size_t(aligned.shape)].columns == rf::tuning::column_placement::held);
      rf::plan const p = rf::detail::try_phased_plan("layernorm", 2048, cols, 8,
                                                     rf::engine_kind::automatic, h100, shapes);
      CHECK(p.phased);
      CHECK(p.engine == rf::engine_kind::cluster_rows);
      CHECK(shapes[std::size_t(p.shape)].columns == rf::tuning::column_placement::held);
      bool const passed_by = shapes[std::size_t(aligned.shape)].phased_passes_by;
      CHECK(passed_by == (family == shape_family::layernorm && cols == 50257));
      if (passed_by)
        CHECK(shapes[std::size_t(p.shape)].max_cols == 81920);
      else
        CHECK(p.shape == aligned.shape);
    }
    // A call whose cols_range left that row's kernels out: not phased, and the plan says why.
    auto const none = std::make_unique<bool[]>(shapes.size()); // every row false
    rf::plan const bounded =
        rf::detail::try_phased_plan("layernorm", 2048, 50257, 8, rf::engine_kind::automatic, h100,
                                    shapes, std::span<bool const>(none.get(), shapes.size()));
    CHECK(!bounded.phased);
    CHECK(bounded.refused.find("phased") != std::string::npos);
  }
  // fp32 layernorm -> fp8 reads its rows back from staging past 16384 columns: phased there but
  // on its 131072-column row, whose rows off the grid run single elements (unphased).
  auto const store_chain_32 =
      rf::detail::register_shapes(4, 4, shape_family::layernorm_store_chain);
  for (rf::index_t cols : {24577, 40961, 65545, 131081, 262143}) {
    CAPTURE(cols);
    rf::plan const p = rf::detail::try_phased_plan(
        "layernorm", 2048, cols, 4, rf::engine_kind::automatic, h100, store_chain_32);
    CHECK(store_chain_32[std::size_t(p.shape)].columns == rf::tuning::column_placement::held);
    CHECK(p.phased == (cols <= 65536 || cols > 131072));
  }
}

TEST_CASE("sized rows: rows filling at most 5/8 of a sized_at_launch shape (packs) take the "
          "fewest whole warps that hold them; every other row the shape's threads") {
  rf::device_info const h100 = test::described_device();
  int sized_plans = 0;
  for (auto key : keys) {
    CAPTURE(key.element_bytes);
    CAPTURE(key.pack);
    for (shape_family family : families) {
      CAPTURE(int(family));
      auto const shapes = rf::detail::register_shapes(key.element_bytes, key.pack, family);
      for (auto const& s : shapes)
        if (s.sized_at_launch)
          CHECK(s.whole_block);
      for (rf::index_t cols :
           {32,    100,   1000,  1032,  2049,  3000,  4104,  5120,  6144,  8200,  10240,
            12288, 16392, 20480, 24576, 32776, 40960, 50257, 65544, 81920, 151936}) {
        CAPTURE(cols);
        for (rf::engine_kind kind : {rf::engine_kind::automatic, rf::engine_kind::block_rows}) {
          rf::plan const p =
              rf::detail::try_plan("softmax", 64, cols, key.pack, kind, h100, shapes);
          if (p.shape < 0)
            continue;
          auto const& shape = shapes[std::size_t(p.shape)];
          rf::index_t const packs = (cols + key.pack - 1) / key.pack;
          // A thread's packs over the row's blocks (one, or a cluster's).
          rf::index_t const thread_packs = rf::index_t(shape.packs) * shape.cluster_blocks;
          bool const sized =
              shape.sized_at_launch && 8 * packs <= 5 * thread_packs * shape.block_threads;
          if (shape.whole_block)
            CHECK(p.group == p.block_threads * shape.cluster_blocks);
          if (sized) {
            ++sized_plans;
            CHECK(p.block_threads % 32 == 0);
            CHECK(rf::index_t(p.block_threads) * thread_packs >= packs);
            CHECK(rf::index_t(p.block_threads - 32) * thread_packs < packs);
          } else {
            CHECK(p.block_threads == shape.block_threads);
          }
        }
      }
    }
  }
  CHECK(sized_plans > 0);
  // 8200 16-bit columns (1025 packs of 8) on softmax's 16384-column row (8 packs x 256 threads):
  // five warps, where the shape's eight would hold four packs of their eight; 10240 columns fill
  // the row to 5/8 (five warps), 12288 to 6/8 (the shape's eight), 16384 wholly. (An H100 takes
  // the H200's rows of five and six packs at 8200-12288 since the sixty-ninth session: a device
  // that plans from the H100's own rows alone.)
  rf::device_info const own_rows = test::described_own_rows();
  auto const softmax_16 = rf::detail::register_shapes(2, 8, shape_family::softmax);
  for (auto [cols, threads] : {std::pair{8200, 160}, {10240, 160}, {12288, 256}, {16384, 256}}) {
    CAPTURE(cols);
    rf::plan const p = rf::detail::choose_plan("softmax", 64, cols, 8, rf::engine_kind::automatic,
                                               own_rows, softmax_16);
    CHECK(p.engine == rf::engine_kind::block_rows);
    CHECK(p.block_threads == threads);
    CHECK(p.group == threads);
  }
  // Single 16-bit elements from 1025 columns (every op's but the pipelines') on the sized rows of
  // 32 values a thread: 1025 columns on two warps, 2049 on three, 5000 on five, 20480 (5/8 of
  // 32768) on twenty, 20481 on the shape's 1024 threads.
  for (shape_family family : {shape_family::softmax, shape_family::log_softmax,
                              shape_family::rmsnorm, shape_family::layernorm}) {
    CAPTURE(int(family));
    auto const singles = rf::detail::register_shapes(2, 1, family);
    for (auto [cols, threads] : {std::pair{1025, 64},
                                 {2049, 96},
                                 {5000, 160},
                                 {16384, 512},
                                 {20480, 640},
                                 {20481, 1024}}) {
      CAPTURE(cols);
      rf::plan const p = rf::detail::choose_plan("softmax", 64, cols, 1, rf::engine_kind::automatic,
                                                 h100, singles);
      CHECK(p.engine == rf::engine_kind::block_rows);
      CHECK(singles[std::size_t(p.shape)].sized_at_launch);
      CHECK(p.packs == 32);
      CHECK(p.block_threads == threads);
    }
  }
  // Cluster rows size each block of the cluster: the held 262144-column row (8 packs x 256
  // threads in clusters of 16) of layernorm under a store chain (to fp8) takes five warps a block
  // at 151936 columns (18992 packs) and at 163840 (5/8 of it), the shape's eight at 196608 (6/8).
  auto const layernorm_16 = rf::detail::register_shapes(2, 8, shape_family::layernorm_store_chain);
  for (auto [cols, threads] : {std::pair{151936, 160}, {163840, 160}, {196608, 256}}) {
    CAPTURE(cols);
    rf::plan const p = rf::detail::choose_plan("layernorm", 64, cols, 8, rf::engine_kind::automatic,
                                               h100, layernorm_16);
    auto const& shape = layernorm_16[std::size_t(p.shape)];
    CHECK(p.engine == rf::engine_kind::cluster_rows);
    CHECK(shape.cluster_blocks > 1);
    CHECK(p.cluster_blocks == shape.cluster_blocks);
    CHECK(p.block_threads == threads);
    CHECK(p.group == threads * shape.cluster_blocks);
  }
  // Phased rows size their block by their whole packs: 8201 columns hold at most 1025.
  rf::plan const phased = rf::detail::try_phased_plan(
      "softmax", 64, 8201, 8, rf::engine_kind::automatic, own_rows, softmax_16);
  CHECK(phased.phased);
  CHECK(phased.block_threads == 160);
  // The tee'd residual block's 8192-column row has no sized twin (it lost there).
  auto const tee = rf::detail::register_shapes(2, 8, shape_family::layernorm_tee_chain);
  rf::plan const tee_8200 =
      rf::detail::choose_plan("layernorm", 64, 8200, 8, rf::engine_kind::automatic, h100, tee);
  CHECK(tee_8200.block_threads == tee[std::size_t(tee_8200.shape)].block_threads);
}

TEST_CASE("rows of five and six packs: the 16-bit widths between the powers of two, on the "
          "shape's own threads") {
  // Rounds 30 and 31 (thirty-first session): 5 packs a thread hold 5/8 of the next power of two,
  // 6 packs 3/4. softmax and log-softmax take five past 16384, 32768, 65536 and 131072 columns and
  // six past 5/8 of the next power of two; rmsnorm five past 16384 and 131072, six past 32768 and
  // 65536 and past 5/8 of 262144; layernorm alone (round 32) five where softmax does, six past
  // 5/8 of 262144. The powers of two and the widths past 3/4 keep the rows they took. These are
  // the H100's own rows: a device that plans from them alone (an H100 takes some of the H200's
  // rows between the powers of two too, on_h100_too). Some 3/4 rows are 12 packs a thread of 128
  // threads since the seventy-first session (bench/NOTES.md): log-softmax's at 163848-196608 (V63)
  // and 81928-98304, softmax's at 163848-196608 (V64).
  rf::device_info const h100 = test::described_own_rows();
  struct expected {
    shape_family family;
    char const* op;
    std::vector<rf::index_t> five_packs, six_packs;
  };
  std::vector<rf::index_t> const softmax_five{16392, 18432, 20480, 32776,  36864,  40960,
                                              65544, 73728, 81920, 131080, 151936, 163840};
  std::vector<rf::index_t> const softmax_six{20488, 24576, 40968,  49152,
                                             81928, 98304, 163848, 196608};
  for (auto const& [family, op, five_packs, six_packs] :
       {expected{shape_family::softmax, "softmax", softmax_five, softmax_six},
        expected{shape_family::log_softmax, "log_softmax", softmax_five, softmax_six},
        expected{
            shape_family::rmsnorm,
            "rmsnorm",
            {16392, 18432, 20480, 131080, 151936, 163840},
            {32776, 36864, 40960, 40968, 49152, 65544, 73728, 81920, 81928, 98304, 163848, 196608}},
        expected{shape_family::layernorm, "layernorm", softmax_five, {163848, 196608}}}) {
    std::string const name = op;
    CAPTURE(name);
    auto const shapes = rf::detail::register_shapes(2, 8, family);
    for (rf::index_t cols :
         {16384, 16392, 18432,  20480,  20488,  24576,  28672,  32768,  32776,
          36864, 40960, 40968,  49152,  57344,  65536,  65544,  73728,  81920,
          81928, 98304, 131072, 131080, 151936, 163840, 163848, 196608, 262144}) {
      CAPTURE(cols);
      rf::plan const p =
          rf::detail::choose_plan(op, 64, cols, 8, rf::engine_kind::automatic, h100, shapes);
      auto const& shape = shapes[std::size_t(p.shape)];
      bool const five = std::ranges::find(five_packs, cols) != five_packs.end();
      bool const six = std::ranges::find(six_packs, cols) != six_packs.end();
      // The 3/4 rows of twelve packs of 128 threads (above) hold what six of 256 would.
      bool const twelve = (name == "log_softmax" &&
                           (cols == 81928 || cols == 98304 || cols == 163848 || cols == 196608)) ||
                          (name == "softmax" && (cols == 163848 || cols == 196608));
      CHECK((shape.packs == 5) == five);
      CHECK((shape.packs == (twelve ? 12 : 6)) == six);
      if (!five && !six)
        continue;
      // Its capacity is 5/8 (3/4) of a power of two, and the width past half of it.
      rf::index_t const eighths = five ? 5 : 6;
      CHECK(rf::tuning::capacity(shape, 8) == shape.max_cols);
      CHECK(shape.max_cols * 8 % eighths == 0);
      rf::index_t const power = shape.max_cols * 8 / eighths;
      CHECK(std::has_single_bit(std::uint64_t(power)));
      CHECK(2 * cols > power);
      CHECK(p.block_threads == shape.block_threads);
      CHECK(p.group == shape.block_threads * shape.cluster_blocks);
    }
  }
}

TEST_CASE("the norms' backward alone: the norms' rows but at 128-2048, 8192, 32768 and 65536 "
          "16-bit columns and at 1024, 8192, 16384 and 32768 fp32 columns, the same widest row "
          "of every engine") {
  using rf::tuning::register_shape;
  // The rows where the op alone and under a chain differ (tuning.hpp): 16-bit a row of its own at
  // 128 (the chain's 256 row holds those widths), 256 on two packs a lane, 512 under a cap of two,
  // staged where the chain reads direct, 1024 on 2 x 64, 65536 on 8 blocks of 1024; fp32 1024
  // staged for the op alone, 8192 the same blocks with the chunk sums set by each chunk's first
  // row for the op alone, 16384 on 2 x 1024 in 2 for the op alone, 32768 on 1 x 1024 in 8 for
  // the chain.
  auto const differing = [](table_key key, rf::index_t max_cols) {
    if (key.element_bytes == 2 && key.pack == 8)
      return max_cols == 128 || max_cols == 256 || max_cols == 512 || max_cols == 1024 ||
             max_cols == 2048 || max_cols == 8192 || max_cols == 32768 || max_cols == 65536;
    if (key.element_bytes == 4 && key.pack == 4)
      return max_cols == 1024 || max_cols == 8192 || max_cols == 16384 || max_cols == 32768;
    return false;
  };
  auto const only_alone = [](table_key key, rf::index_t max_cols) {
    return key.element_bytes == 2 && key.pack == 8 && max_cols == 128;
  };
  for_each_table_pair(
      shape_family::norm_alone_gradient, shape_family::norm_gradient,
      [&](table alone, table chained, table_key key) {
        std::size_t matched = 0;
        for (register_shape const& row : alone) {
          CAPTURE(row.max_cols);
          auto const same_width = std::find_if(chained.begin(), chained.end(), [&](auto const& s) {
            return s.max_cols == row.max_cols;
          });
          if (same_width == chained.end()) {
            CHECK(only_alone(key, row.max_cols));
            continue;
          }
          ++matched;
          CHECK((row == *same_width) == !differing(key, row.max_cols));
          // The 16-bit rows the chain reads direct, the op alone stages.
          if (key.element_bytes == 2 && differing(key, row.max_cols) && !same_width->staged)
            CHECK(row.staged);
        }
        CHECK(matched == chained.size());
        check_widest(alone, chained, key.pack, std::equal_to<>{});
      });
  auto const row_at = [](table rows, rf::index_t max_cols) {
    auto const row = std::find_if(rows.begin(), rows.end(),
                                  [&](register_shape const& s) { return s.max_cols == max_cols; });
    REQUIRE(row != rows.end());
    return *row;
  };
  auto const alone_16 = rf::detail::register_shapes(2, 8, shape_family::norm_alone_gradient);
  auto const chained_16 = rf::detail::register_shapes(2, 8, shape_family::norm_gradient);
  auto const alone_32 = rf::detail::register_shapes(4, 4, shape_family::norm_alone_gradient);
  auto const chained_32 = rf::detail::register_shapes(4, 4, shape_family::norm_gradient);
  auto const blocks = [](register_shape const& s) {
    return std::tuple{s.packs, s.block_threads, s.cluster_blocks, s.min_blocks_per_sm};
  };
  CHECK(blocks(row_at(alone_16, 128)) == std::tuple{1, 256, 1, 4});
  CHECK(blocks(row_at(alone_16, 256)) == std::tuple{2, 256, 1, 2});
  CHECK(blocks(row_at(chained_16, 256)) == std::tuple{1, 256, 1, 4});
  CHECK(blocks(row_at(alone_16, 512)) == std::tuple{2, 256, 1, 2});
  CHECK(blocks(row_at(chained_16, 512)) == std::tuple{2, 256, 1, 1});
  CHECK(blocks(row_at(alone_16, 1024)) == std::tuple{2, 64, 1, 8});
  CHECK(blocks(row_at(chained_16, 1024)) == std::tuple{1, 128, 1, 8});
  CHECK(blocks(row_at(alone_16, 65536)) == std::tuple{1, 1024, 8, 1});
  CHECK(blocks(row_at(chained_16, 65536)) == std::tuple{1, 512, 16, 2});
  CHECK(row_at(alone_32, 1024).staged);
  CHECK(!row_at(chained_32, 1024).staged);
  CHECK(blocks(row_at(alone_32, 1024)) == blocks(row_at(chained_32, 1024)));
  CHECK(blocks(row_at(alone_32, 8192)) == blocks(row_at(chained_32, 8192)));
  CHECK(row_at(alone_32, 8192).sums_from_first_row);
  CHECK(!row_at(chained_32, 8192).sums_from_first_row);
  CHECK(blocks(row_at(alone_32, 16384)) == std::tuple{2, 1024, 2, 1});
  CHECK(blocks(row_at(chained_32, 16384)) == std::tuple{1, 512, 8, 2});
  CHECK(blocks(row_at(alone_32, 32768)) == std::tuple{2, 256, 16, 4});
  CHECK(blocks(row_at(chained_32, 32768)) == std::tuple{1, 1024, 8, 1});
  // The automatic plan of each width takes its family's row.
  rf::device_info const h100 = test::described_device();
  auto const plan_of = [&](int element_bytes, int pack, rf::index_t cols, table rows) {
    CAPTURE(cols);
    return rf::detail::choose_plan("layernorm_backward", 4096, cols, pack,
                                   rf::engine_kind::automatic, h100, rows);
  };
  for (rf::index_t cols : {256, 1024, 2048, 8192, 32768, 65536}) {
    rf::plan const alone = plan_of(2, 8, cols, alone_16);
    rf::plan const chained = plan_of(2, 8, cols, chained_16);
    CHECK(alone.staged);
    CHECK(!chained.staged);
    CHECK(alone.block_threads == row_at(alone_16, cols).block_threads);
    CHECK(alone.cluster_blocks == row_at(alone_16, cols).cluster_blocks);
  }
  // At 65-128 columns the op alone takes its 128 row (one pack a lane), at 129-256 the 256 row
  // (two packs a lane: 16 lanes a row at 256 columns); the chain takes its 256 row at both.
  for (rf::index_t cols : {128, 256}) {
    rf::plan const alone = plan_of(2, 8, cols, alone_16);
    CHECK(alone.packs == row_at(alone_16, cols).packs);
    CHECK(alone.group == cols / 8 / alone.packs);
    CHECK(plan_of(2, 8, cols, chained_16).shape == plan_of(2, 8, 256, chained_16).shape);
  }
  for (rf::index_t cols : {16384, 32768}) {
    rf::plan const alone = plan_of(4, 4, cols, alone_32);
    rf::plan const chained = plan_of(4, 4, cols, chained_32);
    CHECK(alone.block_threads == row_at(alone_32, cols).block_threads);
    CHECK(alone.cluster_blocks == row_at(alone_32, cols).cluster_blocks);
    CHECK(chained.block_threads == row_at(chained_32, cols).block_threads);
    CHECK(chained.cluster_blocks == row_at(chained_32, cols).cluster_blocks);
  }
}

TEST_CASE("the norms' backward off the grid, alone and under a chain: phased rows but the 16-bit "
          "cluster rows to 32768") {
  rf::device_info const h100 = test::described_device();
  for (shape_family const family :
       {shape_family::norm_gradient, shape_family::norm_alone_gradient}) {
    CAPTURE(int(family));
    auto const norm_16 = rf::detail::register_shapes(2, 8, family);
    auto const norm_32 = rf::detail::register_shapes(4, 4, family);
    // Which rows have phased kernels, as the launch marks them (has_phased_kernel).
    auto const compiled = [](auto const& shapes) {
      std::vector<char> marks;
      for (auto const& s : shapes)
        marks.push_back(s.has_phased_kernel);
      return marks;
    };
    auto const marks_16 = compiled(norm_16), marks_32 = compiled(norm_32);
    for (auto const& s : norm_16) {
      CAPTURE(s.max_cols);
      CHECK(s.has_phased_kernel == (s.cluster_blocks == 1 || s.max_cols > 32768));
    }
    for (auto const& s : norm_32)
      CHECK(s.has_phased_kernel);
    auto const phased = [&](auto const& shapes, auto const& marks, int pack, rf::index_t cols) {
      std::span<bool const> const rows(reinterpret_cast<bool const*>(marks.data()), marks.size());
      return rf::detail::try_phased_plan("layernorm_backward", 4096, cols, pack,
                                         rf::engine_kind::automatic, h100, shapes, rows);
    };
    for (rf::index_t cols : {1000, 3000, 4097, 50257, 100003}) {
      CAPTURE(cols);
      CHECK(phased(norm_16, marks_16, 8, cols).phased);
      CHECK(phased(norm_32, marks_32, 4, cols).phased);
    }
    for (rf::index_t cols : {4200, 8191, 16383, 32767}) {
      CAPTURE(cols);
      rf::plan const p = phased(norm_16, marks_16, 8, cols);
      CHECK(!p.phased);
      CHECK(!p.refused.empty());
      CHECK(phased(norm_32, marks_32, 4, cols).phased);
    }
  }
}

TEST_CASE("rows for devices of wide memory: taken on an H200 at their widths, on rows on the grid "
          "and off it where they have a phased kernel; on an H100 those marked on_h100_too alone") {
  rf::device_info const h100 = test::described_device();
  rf::device_info const h200 = test::described_h200();
  CHECK(!h100.wide_memory());
  CHECK(h200.wide_memory());
  int wide_rows = 0, wide_phased_rows = 0, h100_rows = 0, h100_rows_past = 0;
  for (auto family : families)
    for (auto key : keys) {
      CAPTURE(int(family));
      CAPTURE(key.element_bytes);
      CAPTURE(key.pack);
      auto const shapes = rf::detail::register_shapes(key.element_bytes, key.pack, family);
      for (std::size_t i = 0; i < shapes.size(); ++i) {
        auto const& row = shapes[i];
        CAPTURE(row.max_cols);
        // Exchanging once a row is for cluster rows alone; of the H100's own rows only these take
        // it (sixty-eighth to seventy-fifth sessions): the 16-bit softmax and log-softmax rows at
        // 262144 columns, softmax's at 196608 and log-softmax's at 65536, 98304, 163840, 196608
        // and 229376 (for phased plans alone). Every other exchanges once a phase (the H200's
        // rows it takes too may exchange once).
        if (row.exchanges_once)
          CHECK(row.cluster_blocks > 1);
        if (row.exchanges_once && !row.wide_memory_only) {
          bool const softmax = family == rf::tuning::shape_family::softmax;
          bool const log_softmax = family == rf::tuning::shape_family::log_softmax;
          CHECK(key.element_bytes == 2);
          bool const listed = ((softmax || log_softmax) && row.max_cols == 262144) ||
                              (softmax && row.max_cols == 196608) ||
                              (log_softmax && (row.max_cols == 65536 || row.max_cols == 98304 ||
                                               row.max_cols == 163840 || row.max_cols == 196608 ||
                                               row.max_cols == 229376));
          CHECK(listed);
        }
        if (!row.wide_memory_only)
          continue;
        ++wide_rows;
        if (row.has_phased_kernel)
          ++wide_phased_rows;
        bool const on_h100 = h100.takes(row);
        CHECK(on_h100 == (row.wide_memory_from == rf::tuning::h100_memory_bytes_per_cycle));
        CHECK(h200.takes(row));
        if (on_h100)
          ++h100_rows;
        // Taken on an H100 past a width alone: at that width and every narrower one the H100
        // plans from another row.
        if (row.narrow_memory_past_cols > 0) {
          ++h100_rows_past;
          CHECK(on_h100);
          CHECK(!h100.takes(row, row.narrow_memory_past_cols));
          CHECK(h100.takes(row, row.narrow_memory_past_cols + 1));
          CHECK(h200.takes(row, row.narrow_memory_past_cols));
          for (rf::index_t cols = key.pack; cols <= row.narrow_memory_past_cols; cols += key.pack) {
            CAPTURE(cols);
            rf::plan const other = rf::detail::choose_plan(
                "op", 4096, cols, key.pack, rf::engine_kind::automatic, h100, shapes);
            CHECK(other.shape != int(i));
          }
        }
        // A row after it holds its width for other devices.
        CHECK(std::any_of(shapes.begin() + std::ptrdiff_t(i) + 1, shapes.end(), [&](auto const& s) {
          return !s.wide_memory_only && s.max_cols >= row.max_cols;
        }));
        for (rf::index_t cols : {row.max_cols, row.max_cols - key.pack}) {
          CAPTURE(cols);
          // A width below a row's own that a wide row before it holds is that row's (the plan
          // takes the first row that holds a width): layernorm's 16-bit rows of two lanes, direct
          // to 56 columns and on a flat tile at 57-64. A row's own max_cols is always its.
          if (cols < row.max_cols &&
              std::any_of(shapes.begin(), shapes.begin() + std::ptrdiff_t(i),
                          [&](auto const& s) { return s.wide_memory_only && s.max_cols >= cols; }))
            continue;
          rf::plan const wide = rf::detail::choose_plan("op", 4096, cols, key.pack,
                                                        rf::engine_kind::automatic, h200, shapes);
          rf::plan const narrow = rf::detail::choose_plan("op", 4096, cols, key.pack,
                                                          rf::engine_kind::automatic, h100, shapes);
          CHECK(wide.shape == int(i));
          CHECK(h100.takes(shapes[std::size_t(narrow.shape)]));
          if (h100.takes(row, cols))
            CHECK(narrow.shape == int(i));
          else
            CHECK(narrow.shape != int(i));
          // Off the grid (a width one element past whole packs) the H200 takes the row where it
          // has a phased kernel, and never a wide row without one; the H100 likewise where it
          // takes the row, and no other row for devices of wide memory than those.
          rf::index_t const off = cols + 1;
          rf::plan const phased_wide = rf::detail::try_phased_plan(
              "op", 4096, off, key.pack, rf::engine_kind::automatic, h200, shapes);
          rf::plan const phased_narrow = rf::detail::try_phased_plan(
              "op", 4096, off, key.pack, rf::engine_kind::automatic, h100, shapes);
          if (row.has_phased_kernel) {
            CHECK(phased_wide.shape == int(i));
            CHECK(phased_wide.phased);
          } else if (phased_wide.shape >= 0) {
            auto const& taken = shapes[std::size_t(phased_wide.shape)];
            CHECK((!taken.wide_memory_only || taken.has_phased_kernel));
          }
          if (on_h100 && row.has_phased_kernel)
            CHECK(phased_narrow.shape == int(i));
          if (phased_narrow.shape >= 0) {
            auto const& taken = shapes[std::size_t(phased_narrow.shape)];
            CHECK(h100.takes(taken));
            CHECK((!taken.wide_memory_only || taken.has_phased_kernel));
          }
        }
      }
    }
  // tuning.hpp lists each session's rows under its own comment: 45 by the forty-sixth session
  // (the pipelines' and the ops' at the powers of two and the 16-bit ops' clusters), 108 by the
  // forty-seventh (the widths between the powers of two past 8192 columns, layernorm's, round 43's
  // narrow 16-bit rows), 228 by the forty-eighth (rounds 44-46 and the pipelines' survey of the
  // widths between the powers of two to 7168 columns: 54 16-bit op rows, 38 fp32, 28 pipeline),
  // 235 by the forty-ninth (round 47's eight 16-bit op rows past 8192 columns, one replaced), 237
  // by the fiftieth (round 49's layernorm rows to 64 columns), 238 by the fifty-second (that
  // row's widths past 56 on a flat tile), 234 by the fifty-sixth (four of log-softmax's 16-bit
  // rows dropped, so that its call's object stays under 1 MB), 233 by the sixtieth (log-softmax's
  // 16-bit 224-column row dropped: the 256-column row takes its widths), 237 by the seventy-first
  // (log-softmax's 16-bit rows of 144 and 248 columns for an H100, and the H100's rows at 163840
  // and 196608 before V63 kept for devices of wide memory), 239 with its 24576-column row before
  // V64 and softmax's 163840-column row before V65, 234 by the seventy-fourth (V92: those three
  // log-softmax rows and its 98304-column row dropped, so that its call's object stays under 1 MiB;
  // V95: layernorm's 2048-column row, to make room in its call for a phased kernel), 233 by the
  // seventy-fifth (V105: log-softmax's 65536-column row, to make room in its call for the
  // 229376-column row for phased plans alone), 243 by the seventy-seventh (the residual block's
  // family of its own, layernorm_operand_chain, which shares layernorm_chain's ten).
  CHECK(wide_rows == 243);
  // With a phased kernel: since the fifty-fifth session 9 of softmax's 16-bit rows, 6 of
  // rmsnorm's, 1 of layernorm's; since the fifty-sixth 2 more of softmax's, 3 of log-softmax's
  // and 3 more of layernorm's; since the sixtieth log-softmax's at 114688 columns; since the
  // seventy-first its 163840-, 196608- and 24576-column rows kept for devices of wide memory, which
  // went in the seventy-fourth (V92), when layernorm's 24576- and 98304-column rows took one (V94,
  // V95) and log-softmax's 2560- and 3072-column rows (V96; bench/NOTES.md).
  CHECK(wide_phased_rows == 29);
  // On an H100 too since the sixty-ninth session (V55, bench/NOTES.md): 20 of softmax's 16-bit
  // rows, 16 of log-softmax's, 13 of rmsnorm's and 21 of layernorm's; since the seventieth (V57)
  // 7 of log-softmax's 16-bit narrow run (96-512 columns, but 128 and 256), each past the width of
  // the row before it that an H100 takes; since the seventy-first (V63) its 144- and 248-column
  // rows in place of the 160-column row, and (V67) layernorm's 16-bit 98304-column row.
  CHECK(h100_rows == 79);
  CHECK(h100_rows_past == 8);
  // Attention to 10240 columns plans on the H200 as on the H100 (the same shape, sized alike).
  auto const attention = rf::detail::register_shapes(2, 8, shape_family::attention);
  for (rf::index_t cols : {8200, 10240}) {
    CAPTURE(cols);
    rf::plan const wide = rf::detail::choose_plan("softmax", 4096, cols, 8,
                                                  rf::engine_kind::automatic, h200, attention);
    rf::plan const narrow = rf::detail::choose_plan("softmax", 4096, cols, 8,
                                                    rf::engine_kind::automatic, h100, attention);
    CHECK(attention[std::size_t(wide.shape)].wide_memory_only);
    CHECK(wide.packs == narrow.packs);
    CHECK(wide.block_threads == narrow.block_threads);
    CHECK(wide.block_threads < 512);
  }
  // The H200's plan for the residual block at 4096 columns: four packs of 128 threads, one block a
  // tile; at 3073 columns the same row (the H100's sizes a twin of its own row there; 2049-3072
  // take the rows of whole warps of the forty-eighth session).
  auto const chain = rf::detail::register_shapes(2, 8, shape_family::layernorm_chain);
  for (rf::index_t cols : {4096, 3073}) {
    CAPTURE(cols);
    rf::plan const p = rf::detail::choose_plan("layernorm", 4096, cols, 8,
                                               rf::engine_kind::automatic, h200, chain);
    CHECK(p.engine == rf::engine_kind::block_rows);
    CHECK(p.block_threads == 128);
    CHECK(p.packs == 4);
    CHECK(!p.persistent);
  }
  // A forced engine takes the first row of its engine that holds the width and is for the device.
  rf::plan const forced =
      rf::detail::choose_plan("layernorm", 4096, 4096, 8, rf::engine_kind::block_rows, h100, chain);
  CHECK(!chain[std::size_t(forced.shape)].wide_memory_only);
}

namespace {

/// Column bounds of the cols_range tests: narrow rows, group rows, block rows, cluster rows, the
/// widest, and one bound of a single width.
constexpr rf::cols_range bounds[] = {{1, 32},        {33, 100},       {129, 300},    {257, 512},
                                     {1000, 1000},   {1024, 4096},    {4097, 20000}, {20001, 70000},
                                     {65536, 65600}, {100000, 262144}};

/// check(key, shapes, bound) for every table of packs of `key.pack` or more elements and every
/// bound above.
void for_every_bound(int narrowest_pack, auto const& check) {
  for (auto key : keys) {
    if (key.pack < narrowest_pack)
      continue;
    CAPTURE(key.element_bytes);
    CAPTURE(key.pack);
    for (shape_family family : families) {
      CAPTURE(int(family));
      table const shapes = rf::detail::register_shapes(key.element_bytes, key.pack, family);
      for (rf::cols_range const bound : bounds) {
        CAPTURE(bound.min);
        CAPTURE(bound.max);
        check(key, shapes, bound);
      }
    }
  }
}

} // namespace

TEST_CASE("a call bounded by cols_range compiles the aligned row of every automatic plan inside "
          "its bound, and no row whose automatic widths lie outside it") {
  rf::device_info const devices[] = {test::described_device(), test::described_h200()};
  int plans = 0, left_out = 0;
  for_every_bound(1, [&](table_key key, table shapes, rf::cols_range bound) {
    std::vector<bool> compiled(shapes.size());
    for (std::size_t row = 0; row < shapes.size(); ++row)
      compiled[row] = rf::detail::compiled_row(shapes, row, key.pack, bound, false);
    // Each row's edges and a spread of widths between the bounds.
    std::vector<rf::index_t> widths = {bound.min, bound.max};
    for (int step = 1; step < 16; ++step)
      widths.push_back(bound.min + (bound.max - bound.min) * step / 16);
    for (auto const& s : shapes)
      for (rf::index_t cols : {s.max_cols, s.max_cols + 1})
        if (cols >= bound.min && cols <= bound.max)
          widths.push_back(cols);
    for (auto const& device : devices)
      for (rf::index_t cols : widths) {
        CAPTURE(cols);
        rf::plan const p = rf::detail::try_plan("softmax", 64, cols, key.pack,
                                                rf::engine_kind::automatic, device, shapes);
        if (p.shape < 0)
          continue; // past the registers: the streaming and cluster engines
        ++plans;
        CHECK(compiled[std::size_t(p.shape)]);
      }
    // Rows narrower than the bound whose capacity reaches into it: a forced engine could run them
    // there, no automatic plan takes them.
    for (std::size_t row = 0; row < shapes.size(); ++row)
      left_out += !compiled[row] && !shapes[row].phased_only && shapes[row].max_cols < bound.min &&
                  rf::tuning::capacity(shapes[row], key.pack) >= bound.min;
  });
  CHECK(plans > 1000);
  CHECK(left_out > 100);
}

TEST_CASE("a whole-block row for phased plans alone holds its twin's phased plans, or those of the "
          "widths it stands between: automatic, bounded to the width and forced on its engine") {
  // rmsnorm 16-bit's 6 x 256 and 114688-column rows (tuning.hpp, V97, V100): off the grid a
  // staged persistent row, on it the twin read straight; rmsnorm's, softmax's and log-softmax's
  // 229376-column rows and layernorm's 49152-column row (V100, V105, V98) alone; the residual
  // block's and its tee'd form's 131072-column rows (seventy-seventh session): off the grid the
  // rows over a cluster's registers, on it the twin read back from its staging slot; the tee'd
  // form's 98304-column row (the residual block's read back, eightieth session) and both blocks'
  // 114688-column rows (eighty-first session) and 163840-, 196608- and 229376-column rows
  // (eighty-second session) alone.
  struct family_rows {
    shape_family family;
    char const* op;
    int twinned, alone;
  };
  rf::device_info const devices[] = {test::described_device(), test::described_h200()};
  for (auto const& [family, op, twinned, alone] :
       {family_rows{shape_family::rmsnorm, "rmsnorm", 4, 1},
        family_rows{shape_family::layernorm, "layernorm", 0, 1},
        family_rows{shape_family::softmax, "softmax", 0, 1},
        family_rows{shape_family::log_softmax, "log_softmax", 0, 1},
        family_rows{shape_family::layernorm_operand_chain, "layernorm", 2, 4},
        family_rows{shape_family::layernorm_tee_chain, "layernorm", 2, 5}}) {
    CAPTURE(op);
    auto const shapes = rf::detail::register_shapes(2, 8, family);
    int twinned_seen = 0, alone_seen = 0;
    for (std::size_t row = 0; row < shapes.size(); ++row) {
      auto const& s = shapes[row];
      if (!(s.phased_only && s.whole_block))
        continue;
      CAPTURE(s.max_cols);
      REQUIRE(row + 1 < shapes.size());
      if (shapes[row + 1].max_cols == s.max_cols) {
        ++twinned_seen;
        CHECK(!shapes[row + 1].has_phased_kernel);
      } else {
        ++alone_seen;
      }
      // One pack past seven eighths: a row for phased plans alone at seven eighths (the
      // residual blocks' 114688-column row before their 131072-column one) takes that width's
      // phased plans one element past it, its edge elements outside its packs.
      for (rf::index_t const cols : {s.max_cols - 7, s.max_cols * 7 / 8 + 9}) {
        CAPTURE(cols);
        rf::cols_range const bound{cols, cols};
        auto compiled = std::make_unique<bool[]>(shapes.size());
        for (std::size_t r = 0; r < shapes.size(); ++r)
          compiled[r] = rf::detail::compiled_row(shapes, r, 8, bound, true);
        std::span<bool const> const bounded(compiled.get(), shapes.size());
        CHECK(bounded[row]);
        for (auto const& device : devices)
          for (auto const forced : {rf::engine_kind::automatic, rf::engine_kind::cluster_rows}) {
            CAPTURE(int(forced));
            for (std::span<bool const> const among : {std::span<bool const>{}, bounded}) {
              rf::plan const p =
                  rf::detail::try_phased_plan(op, 64, cols, 8, forced, device, shapes, among);
              CHECK(p.phased);
              CHECK(p.shape == int(row));
            }
          }
      }
    }
    CHECK(twinned_seen == twinned);
    CHECK(alone_seen == alone);
  }
}

TEST_CASE("a call bounded by cols_range compiles the phased row of every automatic phased plan "
          "that the bound's widths can take, and leaves out narrower rows no such plan takes") {
  rf::device_info const devices[] = {test::described_device(), test::described_h200()};
  int phased_plans = 0, dropped = 0;
  // Phased plans are of the widest pack.
  for_every_bound(2, [&](table_key key, table shapes, rf::cols_range bound) {
    // The bound's phased kernels, and those with every narrower row whose capacity reaches into
    // the bound (what the bound compiled before it left out the ones no plan takes).
    auto compiled = std::make_unique<bool[]>(shapes.size());
    auto wider = std::make_unique<bool[]>(shapes.size());
    rf::index_t const narrowest = bound.min / key.pack * key.pack;
    for (std::size_t row = 0; row < shapes.size(); ++row) {
      auto const& s = shapes[row];
      compiled[row] = rf::detail::compiled_row(shapes, row, key.pack, bound, true);
      wider[row] = compiled[row] || (s.has_phased_kernel && s.max_cols < bound.min &&
                                     rf::tuning::capacity(s, key.pack) >= narrowest);
      dropped += wider[row] && !compiled[row];
    }
    std::span<bool const> const bounded(compiled.get(), shapes.size()),
        reference(wider.get(), shapes.size());
    for (auto const& device : devices)
      for (int step = 0; step <= 16; ++step) {
        // Off the grid: a width one past whole packs where the bound holds one.
        rf::index_t cols = bound.min + (bound.max - bound.min) * step / 16;
        cols = std::min(bound.max, cols / key.pack * key.pack + 1);
        CAPTURE(cols);
        rf::plan const p = rf::detail::try_phased_plan(
            "softmax", 64, cols, key.pack, rf::engine_kind::automatic, device, shapes, bounded);
        rf::plan const q = rf::detail::try_phased_plan(
            "softmax", 64, cols, key.pack, rf::engine_kind::automatic, device, shapes, reference);
        CHECK(p.phased == q.phased);
        CHECK(p.shape == q.shape);
        phased_plans += p.phased;
      }
  });
  CHECK(phased_plans > 500);
  CHECK(dropped > 10);
}

TEST_CASE("a compile check instantiates, of the rows with a kernel in a call, the first of each "
          "set of engine paths, and every row with a kernel shares its paths with one of them") {
  int rows_with_kernels = 0, first_rows = 0;
  for_every_bound(1, [&](table_key key, table shapes, rf::cols_range bound) {
    for (bool const phased : {false, true}) {
      CAPTURE(phased);
      for (std::size_t row = 0; row < shapes.size(); ++row) {
        CAPTURE(row);
        bool const has_kernel = rf::detail::row_has_kernel(shapes, row, key.pack, bound, phased);
        bool const first = rf::detail::first_of_its_paths(shapes, row, key.pack, bound, phased);
        // This build is not a compile check: every row with a kernel is compiled.
        CHECK(rf::detail::compiled_row(shapes, row, key.pack, bound, phased) == has_kernel);
        if (!has_kernel) {
          CHECK_FALSE(first);
          continue;
        }
        ++rows_with_kernels;
        first_rows += first;
        int firsts_alike = 0, alike_before = 0;
        for (std::size_t other = 0; other <= row; ++other) {
          bool const alike = rf::detail::same_kernel_paths(shapes[other], shapes[row]);
          firsts_alike +=
              alike && rf::detail::first_of_its_paths(shapes, other, key.pack, bound, phased);
          alike_before += alike && other < row &&
                          rf::detail::row_has_kernel(shapes, other, key.pack, bound, phased);
        }
        CHECK(firsts_alike == 1);
        CHECK(first == (alike_before == 0));
      }
    }
  });
  CHECK(first_rows > 0);
  CHECK(first_rows < rows_with_kernels);
}

TEST_CASE("rows share their engine paths where they differ in sizes alone") {
  rf::tuning::register_shape const row{.max_cols = 4096,
                                       .packs = 4,
                                       .block_threads = 128,
                                       .whole_block = true,
                                       .cluster_blocks = 1,
                                       .staged = true,
                                       .persistent = false,
                                       .min_blocks_per_sm = 2};
  auto resized = row;
  resized.max_cols = 16384;
  resized.packs = 6;
  resized.block_threads = 512;
  resized.min_blocks_per_sm = 1;
  CHECK(rf::detail::same_kernel_paths(row, row));
  CHECK(rf::detail::same_kernel_paths(row, resized));
  auto clustered = row;
  clustered.cluster_blocks = 2;
  CHECK_FALSE(rf::detail::same_kernel_paths(row, clustered));
  auto wider_cluster = clustered;
  wider_cluster.cluster_blocks = 4;
  CHECK_FALSE(rf::detail::same_kernel_paths(clustered, wider_cluster));
  auto widest_cluster = wider_cluster;
  widest_cluster.cluster_blocks = 16;
  CHECK(rf::detail::same_kernel_paths(wider_cluster, widest_cluster));
  auto unstaged = row;
  unstaged.staged = false;
  CHECK_FALSE(rf::detail::same_kernel_paths(row, unstaged));
  auto held = row;
  held.columns = rf::tuning::column_placement::held;
  CHECK_FALSE(rf::detail::same_kernel_paths(row, held));
  auto sized = rf::tuning::sized(row);
  CHECK_FALSE(rf::detail::same_kernel_paths(row, sized));
  auto group = row;
  group.whole_block = false;
  group.row_threads = 4;
  auto wider_group = group;
  wider_group.row_threads = 16;
  CHECK(rf::detail::same_kernel_paths(group, wider_group));
  wider_group.row_threads = 32;
  CHECK_FALSE(rf::detail::same_kernel_paths(group, wider_group));
}

TEST_CASE("random plans, forced or not, on rows of up to 2^62 columns: a plan runs its forced "
          "engine or says why, fits its shape and its device, and takes a compiled row") {
  // A fixed seed: the same 60000 calls every run. Shapes far past what memory holds too: the plan
  // is integer arithmetic on index_t, which must neither overflow nor refuse them.
  std::mt19937_64 random(20261205);
  rf::device_info const devices[] = {test::described_device(), test::described_h200(),
                                     test::described_device(80), test::described_device(70)};
  constexpr rf::engine_kind kinds[] = {
      rf::engine_kind::automatic,     rf::engine_kind::warp_rows,  rf::engine_kind::block_rows,
      rf::engine_kind::cluster_rows,  rf::engine_kind::block_smem, rf::engine_kind::block_cluster,
      rf::engine_kind::block_uncached};
  auto const log_uniform = [&](int bits) {
    return rf::index_t(std::exp2(std::uniform_real_distribution<double>(0, bits)(random)));
  };
  std::vector<std::string> failures;
  int planned = 0, refused = 0;
  for (int call = 0; call < 60000; ++call) {
    table_key const key = keys[random() % std::size(keys)];
    table const shapes = rf::detail::register_shapes(key.element_bytes, key.pack,
                                                     families[random() % std::size(families)]);
    rf::device_info const& device = devices[random() % std::size(devices)];
    rf::engine_kind const forced = kinds[random() % std::size(kinds)];
    rf::index_t const cols = random() % 2 ? 1 + rf::index_t(random() % 300000) : log_uniform(62);
    rf::index_t const rows = random() % 5 == 0 ? 0 : log_uniform(62);
    // Half the calls under a bound that compiled about two rows in three.
    bool const bounded = random() % 2;
    std::unique_ptr<bool[]> const compiled(new bool[shapes.size()]);
    for (std::size_t row = 0; row < shapes.size(); ++row)
      compiled[row] = random() % 3 != 0;
    std::span<bool const> const compiled_rows =
        bounded ? std::span<bool const>(compiled.get(), shapes.size()) : std::span<bool const>();
    bool const phased = random() % 3 == 0;
    // What a cluster row and block_smem keep a column in (try_plan's cache bytes).
    int const cluster_cache_bytes = 2 << (random() % 3);
    int const streaming_cache_bytes = random() % 2 ? 4 : 8;
    rf::plan const p =
        phased ? rf::detail::try_phased_plan("softmax", rows, cols, key.pack, forced, device,
                                             shapes, compiled_rows)
               : rf::detail::try_plan("softmax", rows, cols, key.pack, forced, device, shapes,
                                      cluster_cache_bytes, streaming_cache_bytes, compiled_rows);
    auto const fail = [&](char const* what) {
      failures.push_back(std::string(what) + ": forced " + rf::to_string(forced) + ", " +
                         (phased ? "phased, " : "") + (bounded ? "bounded, " : "") +
                         rf::explain(p));
    };
    if (p.rows != rows || p.cols != cols)
      fail("the plan's shape is not the call's");
    if (!p.refused.empty()) {
      ++refused;
      if (p.engine != rf::engine_kind::automatic)
        fail("refused, yet an engine to launch");
      continue;
    }
    if (p.engine == rf::engine_kind::automatic) {
      if (rows > 0 && cols > 0)
        fail("nothing to launch, and no reason why");
      continue;
    }
    ++planned;
    if (forced != rf::engine_kind::automatic && p.engine != forced)
      fail("another engine than the forced one");
    if (p.block_threads < 32 || p.block_threads > 1024 || p.block_threads % 32 != 0)
      fail("a block the device cannot launch");
    if (p.cluster_blocks < 1 || p.cluster_blocks > rf::detail::cluster_max_blocks)
      fail("a cluster the device cannot launch");
    if (p.pack < 1 || p.pack > key.pack || p.group < 1)
      fail("a pack or group out of range");
    if (phased != p.phased && p.shape >= 0)
      fail("phased where not asked, or not where asked");
    if (p.shape < 0)
      continue; // past the registers
    if (std::size_t(p.shape) >= shapes.size()) {
      fail("a row past its table");
      continue;
    }
    auto const& row = shapes[std::size_t(p.shape)];
    if (!phased && rf::tuning::capacity(row, p.pack) < cols)
      fail("a row that cannot hold the columns");
    if (!row.whole_block && p.block_threads % p.group != 0)
      fail("a group that does not divide its block");
    if (bounded && forced != rf::engine_kind::automatic && !compiled[std::size_t(p.shape)])
      fail("a forced engine on a row the bound left out");
  }
  INFO("planned ", planned, ", refused ", refused, "; first failures: ",
       failures.empty() ? std::string("none")
                        : failures[0] + (failures.size() > 1 ? " | " + failures[1] : ""));
  CHECK(failures.empty());
  CHECK(planned > 10000);
  CHECK(refused > 10000);
}
