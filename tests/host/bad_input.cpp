// docs/errors.md, the host half: every bad argument that rowfuse checks on the host before any
// GPU work, through the host reference entry points (rf::reference::softmax, log_softmax,
// layernorm, rmsnorm, which bind and check their expressions exactly as rf::softmax and the
// others do), rf::broadcast, the plan (choose_plan, on described devices: no GPU needed) and
// rf::current_device. Each TEST_CASE is named after its row of docs/errors.md and pins the exact
// message; the GPU half (tests/gpu/bad_input.cu) runs the same rows through the GPU entry
// points. The last case checks that every row of the table names a test that exists.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include <rowfuse/dispatch/compiled_rows.hpp>
#include <rowfuse/dispatch/plan.hpp>
#include <rowfuse/expr.hpp>
#include <rowfuse/op/affine.hpp>
#include <rowfuse/reference.hpp>

#include "../support/described_device.hpp"
#include "../support/error_message.hpp"

namespace rf = rowfuse;
using rf::index_t;

namespace {

float const nan_f = std::numeric_limits<float>::quiet_NaN();
float const inf_f = std::numeric_limits<float>::infinity();

/// The four reference entry points behind one call: `reference(op, load, store)` runs op 0-3
/// (softmax, log_softmax, layernorm, rmsnorm; the norms without affine, eps 1e-5).
constexpr char const* op_names[] = {"rf::softmax", "rf::log_softmax", "rf::layernorm",
                                    "rf::rmsnorm"};

template <class L, class S> void reference(int op, L const& load, S const& store) {
  switch (op) {
  case 0:
    rf::reference::softmax(load, store);
    break;
  case 1:
    rf::reference::log_softmax(load, store);
    break;
  case 2:
    rf::reference::layernorm(load, store, rf::no_affine, 1e-5f);
    break;
  default:
    rf::reference::rmsnorm(load, store, rf::no_affine, 1e-5f);
  }
}

/// Host buffers: input x, operand a, output out (poisoned), tee target t (poisoned), masks m.
struct buffers {
  std::vector<float> x, a, out, t;
  std::vector<std::uint8_t> m;
  explicit buffers(std::size_t n) : x(n, 1.5f), a(n, 0.5f), out(n), t(n), m(n, 0) {
    std::memset(out.data(), 0x7F, n * 4);
    std::memset(t.data(), 0x7F, n * 4);
  }
  bool untouched() const {
    for (auto const* v : {&out, &t})
      for (float f : *v) {
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        if (u != 0x7F7F7F7Fu)
          return false;
      }
    return true;
  }
};

/// Checks `expected(op_name)` against the message of `call(op)` for every op, and that nothing
/// was written.
void for_every_op(buffers& b, std::function<void(int)> const& call,
                  std::function<std::string(std::string const&)> const& expected) {
  for (int op = 0; op < 4; ++op) {
    CAPTURE(op_names[op]);
    CHECK(test::error_message([&] { call(op); }) == expected(op_names[op]));
  }
  CHECK(b.untouched());
}

std::string plan_error(rf::engine_kind kind, index_t cols, int pack, int cc = 90,
                       int element_bytes = 4, int cluster_cache_bytes = 4) {
  return test::error_message([&] {
    rf::detail::choose_plan(
        "rf::softmax", 2, cols, pack, kind, test::described_device(cc),
        rf::detail::register_shapes(element_bytes, pack, rf::tuning::shape_family::softmax),
        cluster_cache_bytes);
  });
}

} // namespace

// ---- S: shapes and pointers ------------------------------------------------------------------

TEST_CASE("S1: rows < 0") {
  buffers b(16);
  for_every_op(
      b, [&](int op) { reference(op, rf::load(b.x.data(), -1, 4), rf::store(b.out.data())); },
      [](std::string const& op) { return "rowfuse: " + op + ": rows = -1 must be >= 0"; });
}

TEST_CASE("S2: cols < 0") {
  buffers b(16);
  for_every_op(
      b, [&](int op) { reference(op, rf::load(b.x.data(), 2, -3), rf::store(b.out.data())); },
      [](std::string const& op) { return "rowfuse: " + op + ": cols = -3 must be >= 0"; });
}

TEST_CASE("S3: input null with rows x cols > 0") {
  buffers b(16);
  float const* none = nullptr;
  for_every_op(
      b, [&](int op) { reference(op, rf::load(none, 3, 4), rf::store(b.out.data())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": input is a null pointer with 3 x 4 elements";
      });
  // Zero rows or columns: nothing to point at, no error.
  for (int op = 0; op < 4; ++op) {
    CHECK_NOTHROW(reference(op, rf::load(none, 0, 4), rf::store(static_cast<float*>(nullptr))));
    CHECK_NOTHROW(reference(op, rf::load(none, 3, 0), rf::store(static_cast<float*>(nullptr))));
  }
}

TEST_CASE("S4: output null with rows x cols > 0") {
  buffers b(16);
  for_every_op(
      b,
      [&](int op) { reference(op, rf::load(b.x.data(), 3, 4), rf::store(static_cast<float*>(0))); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output is a null pointer with 3 x 4 elements";
      });
}

TEST_CASE("S5: operand null with rows x cols > 0") {
  buffers b(16);
  auto const load = rf::load(b.x.data(), 3, 4);
  float const* none = nullptr;
  for_every_op(
      b, [&](int op) { reference(op, load | rf::add(none), rf::store(b.out.data())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand is a null pointer with 3 x 4 elements";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::mask(static_cast<bool const*>(nullptr)), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": mask is a null pointer with 3 x 4 elements";
      });
  for_every_op(
      b, [&](int op) { reference(op, load | rf::bias(none), rf::store(b.out.data())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": bias is a null pointer with 1 x 4 elements";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::tee(static_cast<float*>(nullptr)), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target is a null pointer with 3 x 4 elements";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::apply_keep_mask(static_cast<std::uint8_t const*>(nullptr), 0.1f),
                  rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": apply_keep_mask keep_mask is a null pointer with 3 x 4 elements";
      });
  // gamma: rf::affine(nullptr) and rf::zero_centered_gamma(nullptr); a null beta is "no beta".
  CHECK(test::error_message([&] {
          rf::reference::layernorm(load, rf::store(b.out.data()), rf::affine(none, b.a.data()),
                                   1e-5f);
        }) == "rowfuse: rf::layernorm: gamma is a null pointer with 1 x 4 elements");
  CHECK(test::error_message([&] {
          rf::reference::rmsnorm(load, rf::store(b.out.data()), rf::zero_centered_gamma(none),
                                 1e-5f);
        }) == "rowfuse: rf::rmsnorm: gamma is a null pointer with 1 x 4 elements");
  CHECK(b.untouched());
}

TEST_CASE("S6: input ld < cols") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { reference(op, rf::load(b.x.data(), 4, 6, 5), rf::store(b.out.data())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": input.ld = 5 must be >= cols = 6";
      });
  // -1 is "ld = cols"; any other negative ld is an ld < cols.
  for_every_op(
      b, [&](int op) { reference(op, rf::load(b.x.data(), 4, 6, -2), rf::store(b.out.data())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": input.ld = -2 must be >= cols = 6";
      });
}

TEST_CASE("S7: output ld < cols") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { reference(op, rf::load(b.x.data(), 4, 6), rf::store(b.out.data(), 4)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output.ld = 4 must be >= cols = 6";
      });
}

TEST_CASE("S8: operand ld < cols") {
  buffers b(64);
  auto const load = rf::load(b.x.data(), 4, 6);
  auto const store = rf::store(b.out.data());
  for_every_op(
      b, [&](int op) { reference(op, load | rf::add(b.a.data(), 3), store); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand.ld = 3 must be >= cols = 6";
      });
  for_every_op(
      b, [&](int op) { reference(op, load | rf::mask(b.m.data(), -1.0f, 2), store); },
      [](std::string const& op) { return "rowfuse: " + op + ": mask.ld = 2 must be >= cols = 6"; });
  for_every_op(
      b, [&](int op) { reference(op, load | rf::tee(b.t.data(), 1), store); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target.ld = 1 must be >= cols = 6";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load, rf::store(b.out.data()) | rf::dropout(0.5f, 1, 2, b.m.data(), 5));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": dropout keep_mask.ld = 5 must be >= cols = 6";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load, rf::store(b.out.data()) | rf::apply_keep_mask(b.m.data(), 0.5f, 5));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": apply_keep_mask keep_mask.ld = 5 must be >= cols = 6";
      });
}

TEST_CASE("S9: output shape differs from the input's") {
  buffers b(64);
  auto const load = rf::load(b.x.data(), 4, 5);
  for_every_op(
      b, [&](int op) { reference(op, load, rf::store(b.out.data(), 3, 5, 5)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output has rows = 3, the input has 4";
      });
  for_every_op(
      b, [&](int op) { reference(op, load, rf::store(b.out.data(), 4, 6, 6)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output has cols = 6, the input has 5";
      });
  for_every_op(
      b, [&](int op) { reference(op, load, rf::store(b.out.data(), -5, 5, 5)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output has rows = -5, the input has 4";
      });
}

TEST_CASE("S10: operand shape differs from the input's") {
  buffers b(64);
  auto const load = rf::load(b.x.data(), 4, 5);
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::add(rf::dense(b.a.data(), 2, 5)), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand has rows = 2, the input has 4";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::mask(rf::dense(b.m.data(), 4, 7)), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": mask has cols = 7, the input has 5";
      });
  for_every_op(
      b,
      [&](int op) {
        reference(op, load | rf::tee(rf::dense(b.t.data(), 5, 5)), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target has rows = 5, the input has 4";
      });
}

TEST_CASE("S11: broadcast operand over other rows than the input's") {
  buffers b(256);
  auto const over = rf::broadcast(b.a.data(), {2, 1, 4, 5}, {2, 3, 4, 5}); // 24 rows
  for_every_op(
      b,
      [&](int op) {
        reference(op, rf::load(b.x.data(), 12, 5) | rf::add(over), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": add operand broadcasts over 24 rows (the product of its target's leading "
               "dimensions), but the input has 12";
      });
}

TEST_CASE("S12: broadcast operand over other columns than the input's") {
  buffers b(256);
  auto const over = rf::broadcast(b.m.data(), {2, 1, 4, 5}, {2, 3, 4, 5});
  for_every_op(
      b,
      [&](int op) {
        reference(op, rf::load(b.x.data(), 24, 6) | rf::mask(over), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": mask has cols = 5, the input has 6";
      });
}

TEST_CASE("S13: tee into a broadcast view") {
  buffers b(256);
  auto const over = rf::broadcast(b.t.data(), {2, 1, 4, 5}, {2, 3, 4, 5});
  for_every_op(
      b,
      [&](int op) {
        reference(op, rf::load(b.x.data(), 24, 5) | rf::tee(over), rf::store(b.out.data()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": tee target is a broadcast view; a tee writes every element of the input's "
               "shape once: give it a dense [rows, cols] view";
      });
}

// ---- B: rf::broadcast ----------------------------------------------------------------------

TEST_CASE("B1: broadcast shape and over of different ranks") {
  float p[8] = {};
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {2, 4, 5}, {2, 3, 4, 5});
        }) == "rowfuse: rf::broadcast: shape has 3 dimensions, over has 4");
}

TEST_CASE("B2: broadcast over with 0 or more than 5 dimensions") {
  float p[8] = {};
  CHECK(test::error_message([&] { (void)rf::broadcast(p, {}, {}); }) ==
        "rowfuse: rf::broadcast: over has 0 dimensions; 1 to 5 are supported");
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {1, 1, 1, 1, 1, 5}, {1, 2, 1, 1, 1, 5});
        }) == "rowfuse: rf::broadcast: over has 6 dimensions; 1 to 5 are supported");
}

TEST_CASE("B3: broadcast over with a negative dimension") {
  float p[8] = {};
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {1, 5}, {-1, 5});
        }) == "rowfuse: rf::broadcast: over[0] = -1 must be >= 0");
}

TEST_CASE("B4: broadcast shape dimension neither 1 nor over's") {
  float p[8] = {};
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {2, 3, 4, 5}, {2, 4, 4, 5});
        }) == "rowfuse: rf::broadcast: shape[1] = 3 must be 1 or over[1] = 4");
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {-2, 4, 5}, {2, 4, 5});
        }) == "rowfuse: rf::broadcast: shape[0] = -2 must be 1 or over[0] = 2");
}

TEST_CASE("B5: broadcast over the columns") {
  float p[8] = {};
  CHECK(test::error_message([&] {
          (void)rf::broadcast(p, {2, 1, 4, 1}, {2, 3, 4, 5});
        }) == "rowfuse: rf::broadcast: shape's last dimension 1 must equal over's last dimension 5 "
              "(the columns)");
}

// ---- P: parameters -----------------------------------------------------------------------------

TEST_CASE("P1: causal_mask q_len <= 0") {
  buffers b(16);
  for (index_t q : {index_t(0), index_t(-2)}) {
    CAPTURE(q);
    for_every_op(
        b,
        [&](int op) {
          reference(op, rf::load(b.x.data(), 2, 3) | rf::causal_mask(q), rf::store(b.out.data()));
        },
        [&](std::string const& op) {
          return "rowfuse: " + op + ": causal_mask q_len = " + std::to_string(q) + " must be > 0";
        });
  }
}

TEST_CASE("P2: dropout p outside [0, 1), NaN or infinite, on either side") {
  buffers b(16);
  for (auto [p, text] : {std::pair<float, char const*>{-0.1f, "-0.1"},
                         {1.0f, "1"},
                         {1.5f, "1.5"},
                         {nan_f, "nan"},
                         {inf_f, "inf"},
                         {-inf_f, "-inf"}}) {
    CAPTURE(text);
    std::string const value = text;
    auto expected = [&](std::string const& op) {
      return "rowfuse: " + op + ": dropout p = " + value + " must be in [0, 1)";
    };
    for_every_op(
        b,
        [&, p = p](int op) {
          reference(op, rf::load(b.x.data(), 2, 3), rf::store(b.out.data()) | rf::dropout(p, 1));
        },
        expected);
    for_every_op(
        b,
        [&, p = p](int op) {
          reference(op, rf::load(b.x.data(), 2, 3) | rf::dropout(p, 1), rf::store(b.out.data()));
        },
        expected);
  }
}

TEST_CASE("P6: apply_keep_mask p outside [0, 1), NaN or infinite, on either side") {
  buffers b(16);
  for (auto [p, text] : {std::pair<float, char const*>{-0.1f, "-0.1"},
                         {1.0f, "1"},
                         {nan_f, "nan"},
                         {inf_f, "inf"}}) {
    CAPTURE(text);
    std::string const value = text;
    auto expected = [&](std::string const& op) {
      return "rowfuse: " + op + ": apply_keep_mask p = " + value + " must be in [0, 1)";
    };
    for_every_op(
        b,
        [&, p = p](int op) {
          reference(op, rf::load(b.x.data(), 2, 3),
                    rf::store(b.out.data()) | rf::apply_keep_mask(b.m.data(), p));
        },
        expected);
    for_every_op(
        b,
        [&, p = p](int op) {
          reference(op, rf::load(b.x.data(), 2, 3) | rf::apply_keep_mask(b.m.data(), p),
                    rf::store(b.out.data()));
        },
        expected);
  }
}

TEST_CASE("P3: cast scale <= 0, infinite or NaN") {
  buffers b(16);
  for (auto [s, text] :
       {std::pair<float, char const*>{0.0f, "0"}, {-1.0f, "-1"}, {inf_f, "inf"}, {nan_f, "nan"}}) {
    CAPTURE(text);
    std::string const value = text;
    for_every_op(
        b,
        [&, s = s](int op) {
          reference(op, rf::load(b.x.data(), 2, 3), rf::store(b.out.data()) | rf::cast<float>(s));
        },
        [&](std::string const& op) {
          return "rowfuse: " + op + ": cast scale = " + value + " must be finite and > 0";
        });
  }
}

TEST_CASE("P4: eps <= 0, NaN or infinite (layernorm, rmsnorm)") {
  buffers b(16);
  float const gamma[3] = {1, 1, 1};
  for (auto [eps, text] : {std::pair<float, char const*>{0.0f, "0"},
                           {-1e-5f, "-1e-05"},
                           {nan_f, "nan"},
                           {inf_f, "inf"}}) {
    CAPTURE(text);
    std::string const value = text;
    CHECK(test::error_message([&, eps = eps] {
            rf::reference::layernorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                     rf::affine(gamma), eps);
          }) == "rowfuse: rf::layernorm: eps = " + value + " must be finite and > 0");
    CHECK(test::error_message([&, eps = eps] {
            rf::reference::rmsnorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                   rf::no_affine, eps);
          }) == "rowfuse: rf::rmsnorm: eps = " + value + " must be finite and > 0");
  }
  CHECK(b.untouched());
}

TEST_CASE("P5: rmsnorm given a beta") {
  buffers b(16);
  float const gamma[3] = {1, 1, 1}, beta[3] = {0, 0, 0};
  std::string const what = test::error_message([&] {
    rf::reference::rmsnorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                           rf::affine(gamma, beta), 1e-5f);
  });
  std::ostringstream pointer;
  pointer << static_cast<void const*>(beta);
  CHECK(what == "rowfuse: rf::rmsnorm: beta = " + pointer.str() +
                    " given, but rmsnorm has no shift: pass rf::affine(gamma) or "
                    "rf::zero_centered_gamma(gamma)");
  CHECK(b.untouched());
}

// ---- L: plans the device cannot run (choose_plan, on described devices) -------------------------

TEST_CASE("L1: a forced engine that cannot run the width") {
  // fp32 in packs of 4 on an H100-like device: the widest group row is 32 lanes x 4 packs x 4,
  // the widest block row 512 threads x 8 packs x 4 (wider rows take clusters).
  CHECK(plan_error(rf::engine_kind::warp_rows, 5000, 4) ==
        "rowfuse: rf::softmax: engine warp_rows cannot run cols = 5000 with packs of 4 (warp_rows "
        "holds at most 512 columns)");
  CHECK(plan_error(rf::engine_kind::block_rows, 40000, 4) ==
        "rowfuse: rf::softmax: engine block_rows cannot run cols = 40000 with packs of 4 "
        "(block_rows holds at most 16384 columns)");
  CHECK(plan_error(rf::engine_kind::cluster_rows, 300000, 4) ==
        "rowfuse: rf::softmax: engine cluster_rows cannot run cols = 300000 with packs of 4 "
        "(cluster_rows holds at most 262144 columns)");
  // (232448 - 1024) / 4 fp32 columns of shared memory.
  CHECK(plan_error(rf::engine_kind::block_smem, 60000, 4) ==
        "rowfuse: rf::softmax: engine block_smem cannot run cols = 60000 with packs of 4 "
        "(block_smem holds at most 57856 columns)");
  // 16 blocks x (232448 - 1024) bytes / 4 bytes a column.
  CHECK(plan_error(rf::engine_kind::block_cluster, 1000000, 4) ==
        "rowfuse: rf::softmax: engine block_cluster cannot run cols = 1000000 with packs of 4 "
        "(block_cluster holds at most 925696 columns)");
  // Every width fits block_uncached; a width that fits is no error.
  CHECK(plan_error(rf::engine_kind::block_uncached, 1000000, 4) == "<no exception>");
  CHECK(plan_error(rf::engine_kind::warp_rows, 512, 4) == "<no exception>");
  // try_plan (a dry run's planner) gives the same text in the plan, with nothing to launch.
  rf::plan const refused = rf::detail::try_plan(
      "rf::softmax", 2, 5000, 4, rf::engine_kind::warp_rows, test::described_device(90),
      rf::detail::register_shapes(4, 4, rf::tuning::shape_family::softmax));
  CHECK(refused.refused == plan_error(rf::engine_kind::warp_rows, 5000, 4));
  CHECK(refused.engine == rf::engine_kind::automatic);
  rf::plan const runs = rf::detail::try_plan(
      "rf::softmax", 2, 512, 4, rf::engine_kind::warp_rows, test::described_device(90),
      rf::detail::register_shapes(4, 4, rf::tuning::shape_family::softmax));
  CHECK(runs.refused.empty());
  CHECK(runs.engine == rf::engine_kind::warp_rows);
}

TEST_CASE("L6: a forced engine under a cols_range takes a compiled row that holds the width, and "
          "says so where the bound left every such row out") {
  rf::device_info const h200 = test::described_h200();
  std::span<rf::tuning::register_shape const> const shapes =
      rf::detail::register_shapes(2, 8, rf::tuning::shape_family::softmax);
  auto const compiled_in = [&](rf::cols_range range) {
    auto rows = std::make_unique<bool[]>(shapes.size());
    for (std::size_t row = 0; row < shapes.size(); ++row)
      rows[row] = rf::detail::compiled_row(shapes, row, 8, range, false);
    return rows;
  };
  auto const between = compiled_in({1024, 4096});
  std::span<bool const> const bounded(between.get(), shapes.size());
  for (rf::index_t cols : {1024, 2048, 3000}) {
    CAPTURE(cols);
    rf::plan const unbounded =
        rf::detail::try_plan("rf::softmax", 64, cols, 8, rf::engine_kind::warp_rows, h200, shapes);
    rf::plan const p = rf::detail::try_plan("rf::softmax", 64, cols, 8, rf::engine_kind::warp_rows,
                                            h200, shapes, 4, 4, bounded);
    REQUIRE(p.refused.empty());
    CHECK(p.engine == rf::engine_kind::warp_rows);
    CHECK(bounded[std::size_t(p.shape)]);
    CHECK(rf::tuning::capacity(shapes[std::size_t(p.shape)], 8) >= cols);
    // The unbounded plan's row where the bound compiled it, a wider one where it did not.
    if (bounded[std::size_t(unbounded.shape)])
      CHECK(p.shape == unbounded.shape);
    else
      CHECK(p.shape > unbounded.shape);
  }
  // The warp rows that hold 4096 columns take wider widths automatically: left out of this bound.
  CHECK(rf::detail::try_plan("rf::softmax", 64, 4096, 8, rf::engine_kind::warp_rows, h200, shapes,
                             4, 4, bounded)
            .refused == "rowfuse: rf::softmax: engine warp_rows holds cols = 4096 with packs of 8 "
                        "only on rows this call's cols_range left out");
  // Rows of at most 32 columns compile no block row: a forced block_rows is refused, and says why.
  auto const narrow = compiled_in({1, 32});
  rf::plan const refused =
      rf::detail::try_plan("rf::softmax", 64, 32, 8, rf::engine_kind::block_rows, h200, shapes, 4,
                           4, std::span<bool const>(narrow.get(), shapes.size()));
  CHECK(refused.engine == rf::engine_kind::automatic);
  CHECK(refused.refused ==
        "rowfuse: rf::softmax: engine block_rows holds cols = 32 with packs of 8 "
        "only on rows this call's cols_range left out");
  // Unbounded, the same forced engine runs.
  CHECK(rf::detail::try_plan("rf::softmax", 64, 32, 8, rf::engine_kind::block_rows, h200, shapes)
            .refused.empty());
}

TEST_CASE("L2: a forced cluster engine on a device below compute capability 9.0") {
  CHECK(plan_error(rf::engine_kind::cluster_rows, 4096, 4, 80) ==
        "rowfuse: rf::softmax: engine cluster_rows needs thread-block clusters (compute "
        "capability 9.0); device 0 has 80");
  CHECK(plan_error(rf::engine_kind::block_cluster, 100000, 4, 80) ==
        "rowfuse: rf::softmax: engine block_cluster needs thread-block clusters (compute "
        "capability 9.0); device 0 has 80");
  // The automatic plan on such a device takes no cluster engine.
  rf::plan const p = rf::detail::choose_plan(
      "rf::softmax", 2, 100000, 4, rf::engine_kind::automatic, test::described_device(80),
      rf::detail::register_shapes(4, 4, rf::tuning::shape_family::softmax));
  CHECK(p.engine == rf::engine_kind::block_uncached);
}

// ---- D: the device
// -------------------------------------------------------------------------------

TEST_CASE("D1: no usable CUDA device") {
  int devices = 0;
  cudaError_t const status = cudaGetDeviceCount(&devices);
  if (status == cudaSuccess && devices > 0) {
    CHECK(test::error_message([] { (void)rf::current_device(); }) == "<no exception>");
    MESSAGE("a device is present: D1's message is checked on machines without one");
    return;
  }
  (void)cudaGetLastError();
  std::string const what = test::error_message([] { (void)rf::current_device(); });
  CAPTURE(what);
  CHECK(what.rfind("rowfuse: no usable CUDA device: ", 0) == 0);
}

// ---- the table and its tests -----------------------------------------------------------------

/// Every row of docs/errors.md names its test: a file under tests/ and, for the host and GPU
/// halves, a TEST_CASE that starts with the row's id. Rows without a test fail here.
TEST_CASE("every row of docs/errors.md names a test that exists") {
  namespace fs = std::filesystem;
  fs::path const root = fs::path(__FILE__).parent_path().parent_path().parent_path();
  std::ifstream table(root / "docs" / "errors.md");
  REQUIRE(table.good());
  auto const read = [](fs::path const& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  // | id | ... | test |: the last cell names one or more files `tests/...`.
  std::regex const row(R"(^\| ([A-Z][0-9]+) \|.*\|([^|]*)\|\s*$)");
  std::regex const file_in_cell("`(tests/[^`]+)`");
  std::set<std::string> ids;
  std::string line;
  while (std::getline(table, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row))
      continue;
    std::string const id = m[1], cell = m[2];
    CAPTURE(id);
    CHECK(ids.insert(id).second); // ids are unique
    int files = 0;
    for (std::sregex_iterator f(cell.begin(), cell.end(), file_in_cell), end; f != end; ++f) {
      std::string const file = (*f)[1];
      CAPTURE(file);
      ++files;
      fs::path const test = root / file;
      REQUIRE(fs::exists(test));
      if (file.find("compile_fail/") == std::string::npos)
        CHECK(read(test).find("TEST_CASE(\"" + id + ": ") != std::string::npos);
    }
    CHECK(files > 0);
  }
  CHECK(ids.size() >= 30);
}
