// docs/errors.md, the GPU half: the rows of the table through the GPU entry points (rf::softmax,
// rf::log_softmax, rf::layernorm, rf::rmsnorm) on device buffers, each with the exact message
// of the host half (tests/host/bad_input.cpp) and nothing written: every output stays poisoned.
// Then what only a GPU call can hit: forced engines and packs, the cols_range bound, and a build
// whose architectures the device is older than (D2; scripts/gpu-check.sh --future-arch builds
// this file for sm_100 and runs that case on the sm_90 machine).
//
// The calls are compiled for widths 1-32 (rf::cols_range), two kernels an op and chain instead
// of thirty: the checks run before any kernel is chosen, and a bounded call compiles in seconds.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "support.cuh"

namespace {

constexpr rf::cols_range narrow{1, 32};
constexpr char const* op_names[] = {"rf::softmax", "rf::log_softmax", "rf::layernorm",
                                    "rf::rmsnorm"};
float const nan_f = std::numeric_limits<float>::quiet_NaN();
float const inf_f = std::numeric_limits<float>::infinity();

/// Op 0-3 over `load` and `store` on the GPU (the norms without affine, eps 1e-5).
template <class L, class S>
rf::plan run(int op, L const& load, S const& store, rf::launch_options options = {}) {
  switch (op) {
  case 0:
    return rf::softmax<narrow>(load, store, nullptr, options);
  case 1:
    return rf::log_softmax<narrow>(load, store, nullptr, options);
  case 2:
    return rf::layernorm<narrow>(load, store, rf::no_affine, 1e-5f, nullptr, {}, options);
  default:
    return rf::rmsnorm<narrow>(load, store, rf::no_affine, 1e-5f, nullptr, nullptr, options);
  }
}

/// Device buffers of n elements: input x and operand a (ones), output out and tee target t
/// (poisoned), masks m (zeros). `untouched` checks the poison after the device is idle.
struct buffers {
  test::mirrored<float> x, a, out, t;
  test::mirrored<std::uint8_t> m;
  explicit buffers(std::size_t n) : x(n), a(n), out(n), t(n), m(n) {
    std::fill(x.host.begin(), x.host.end(), 1.5f);
    std::fill(a.host.begin(), a.host.end(), 0.5f);
    test::poison(out.host);
    test::poison(t.host);
    for (auto* v : {&x, &a, &out, &t})
      v->upload();
    m.upload();
  }
  float const* xd() { return x.d(); }
  float const* ad() { return a.d(); }
  bool untouched() {
    test::sync_and_check();
    for (auto* v : {&out, &t})
      for (float f : v->download())
        if (!test::is_poison(f))
          return false;
    return true;
  }
};

/// Every op: the message of call(op) is expected(op name), and nothing was written.
void for_every_op(buffers& b, std::function<void(int)> const& call,
                  std::function<std::string(std::string const&)> const& expected) {
  for (int op = 0; op < 4; ++op) {
    CAPTURE(op_names[op]);
    CHECK(test::error_message([&] { call(op); }) == expected(op_names[op]));
  }
  CHECK(b.untouched());
}

} // namespace

// ---- S: shapes and pointers ------------------------------------------------------------------

TEST_CASE("S1: rows < 0") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), -1, 4), rf::store(b.out.d())); },
      [](std::string const& op) { return "rowfuse: " + op + ": rows = -1 must be >= 0"; });
}

TEST_CASE("S2: cols < 0") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 2, -3), rf::store(b.out.d())); },
      [](std::string const& op) { return "rowfuse: " + op + ": cols = -3 must be >= 0"; });
}

TEST_CASE("S3: input null with rows x cols > 0") {
  buffers b(64);
  for_every_op(
      b,
      [&](int op) {
        run(op, rf::load(static_cast<float const*>(nullptr), 3, 4), rf::store(b.out.d()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": input is a null pointer with 3 x 4 elements";
      });
  for (int op = 0; op < 4; ++op) {
    rf::plan const p = run(op, rf::load(static_cast<float const*>(nullptr), 0, 4),
                           rf::store(static_cast<float*>(nullptr)));
    CHECK(p.engine == rf::engine_kind::automatic); // nothing to launch
  }
}

TEST_CASE("S4: output null with rows x cols > 0") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 3, 4), rf::store(static_cast<float*>(nullptr))); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output is a null pointer with 3 x 4 elements";
      });
}

TEST_CASE("S5: operand null with rows x cols > 0") {
  buffers b(64);
  auto const load = rf::load(b.xd(), 3, 4);
  float const* none = nullptr;
  for_every_op(
      b, [&](int op) { run(op, load | rf::add(none), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand is a null pointer with 3 x 4 elements";
      });
  for_every_op(
      b,
      [&](int op) {
        run(op, load | rf::mask(static_cast<std::uint8_t const*>(nullptr)), rf::store(b.out.d()));
      },
      [](std::string const& op) {
        return "rowfuse: " + op + ": mask is a null pointer with 3 x 4 elements";
      });
  for_every_op(
      b, [&](int op) { run(op, load | rf::bias(none), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": bias is a null pointer with 1 x 4 elements";
      });
  for_every_op(
      b,
      [&](int op) { run(op, load | rf::tee(static_cast<float*>(nullptr)), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target is a null pointer with 3 x 4 elements";
      });
  CHECK(test::error_message([&] {
          rf::layernorm<narrow>(load, rf::store(b.out.d()), rf::affine(none, b.ad()), 1e-5f);
        }) == "rowfuse: rf::layernorm: gamma is a null pointer with 1 x 4 elements");
  CHECK(test::error_message([&] {
          rf::rmsnorm<narrow>(load, rf::store(b.out.d()), rf::zero_centered_gamma(none), 1e-5f);
        }) == "rowfuse: rf::rmsnorm: gamma is a null pointer with 1 x 4 elements");
  CHECK(b.untouched());
}

TEST_CASE("S6: input ld < cols") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 4, 6, 5), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": input.ld = 5 must be >= cols = 6";
      });
}

TEST_CASE("S7: output ld < cols") {
  buffers b(64);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 4, 6), rf::store(b.out.d(), 4)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output.ld = 4 must be >= cols = 6";
      });
}

TEST_CASE("S8: operand ld < cols") {
  buffers b(64);
  auto const load = rf::load(b.xd(), 4, 6);
  auto const store = rf::store(b.out.d());
  for_every_op(
      b, [&](int op) { run(op, load | rf::add(b.ad(), 3), store); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand.ld = 3 must be >= cols = 6";
      });
  for_every_op(
      b,
      [&](int op) {
        run(op, load | rf::mask(static_cast<std::uint8_t const*>(b.m.d()), -1.0f, 2), store);
      },
      [](std::string const& op) { return "rowfuse: " + op + ": mask.ld = 2 must be >= cols = 6"; });
  for_every_op(
      b, [&](int op) { run(op, load | rf::tee(b.t.d(), 1), store); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target.ld = 1 must be >= cols = 6";
      });
  for_every_op(
      b, [&](int op) { run(op, load, store | rf::dropout(0.5f, 1, 2, b.m.d(), 5)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": dropout keep_mask.ld = 5 must be >= cols = 6";
      });
}

TEST_CASE("S9: output shape differs from the input's") {
  buffers b(64);
  auto const load = rf::load(b.xd(), 4, 5);
  for_every_op(
      b, [&](int op) { run(op, load, rf::store(b.out.d(), 3, 5, 5)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output has rows = 3, the input has 4";
      });
  for_every_op(
      b, [&](int op) { run(op, load, rf::store(b.out.d(), 4, 6, 6)); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": output has cols = 6, the input has 5";
      });
}

TEST_CASE("S10: operand shape differs from the input's") {
  buffers b(64);
  auto const load = rf::load(b.xd(), 4, 5);
  for_every_op(
      b, [&](int op) { run(op, load | rf::add(rf::dense(b.ad(), 2, 5)), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": add operand has rows = 2, the input has 4";
      });
  for_every_op(
      b, [&](int op) { run(op, load | rf::tee(rf::dense(b.t.d(), 5, 5)), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": tee target has rows = 5, the input has 4";
      });
}

TEST_CASE("S11: broadcast operand over other rows than the input's") {
  buffers b(256);
  auto const over = rf::broadcast(b.ad(), {2, 1, 4, 5}, {2, 3, 4, 5}); // 24 rows
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 12, 5) | rf::add(over), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": add operand broadcasts over 24 rows (the product of its target's leading "
               "dimensions), but the input has 12";
      });
}

TEST_CASE("S12: broadcast operand over other columns than the input's") {
  buffers b(256);
  auto const over =
      rf::broadcast(static_cast<std::uint8_t const*>(b.m.d()), {2, 1, 4, 5}, {2, 3, 4, 5});
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 24, 6) | rf::mask(over), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": mask has cols = 5, the input has 6";
      });
}

TEST_CASE("S13: tee into a broadcast view") {
  buffers b(256);
  auto const over = rf::broadcast(b.t.d(), {2, 1, 4, 5}, {2, 3, 4, 5});
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 24, 5) | rf::tee(over), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": tee target is a broadcast view; a tee writes every element of the input's "
               "shape once: give it a dense [rows, cols] view";
      });
}

// ---- P: parameters -------------------------------------------------------------------------

TEST_CASE("P1: causal_mask q_len <= 0") {
  buffers b(64);
  for_every_op(
      b,
      [&](int op) { run(op, rf::load(b.xd(), 2, 3) | rf::causal_mask(0), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op + ": causal_mask q_len = 0 must be > 0";
      });
}

TEST_CASE("P2: dropout p outside [0, 1), NaN or infinite, on either side") {
  buffers b(64);
  for (auto [p, text] : {std::pair<float, char const*>{-0.1f, "-0.1"},
                         {1.0f, "1"},
                         {nan_f, "nan"},
                         {inf_f, "inf"}}) {
    CAPTURE(text);
    std::string const value = text;
    auto expected = [&](std::string const& op) {
      return "rowfuse: " + op + ": dropout p = " + value + " must be in [0, 1)";
    };
    for_every_op(
        b,
        [&, p = p](int op) {
          run(op, rf::load(b.xd(), 2, 3), rf::store(b.out.d()) | rf::dropout(p, 1));
        },
        expected);
    for_every_op(
        b,
        [&, p = p](int op) {
          run(op, rf::load(b.xd(), 2, 3) | rf::dropout(p, 1), rf::store(b.out.d()));
        },
        expected);
  }
}

TEST_CASE("P3: cast scale <= 0, infinite or NaN") {
  buffers b(64);
  for (auto [s, text] :
       {std::pair<float, char const*>{0.0f, "0"}, {-1.0f, "-1"}, {inf_f, "inf"}, {nan_f, "nan"}}) {
    CAPTURE(text);
    std::string const value = text;
    for_every_op(
        b,
        [&, s = s](int op) {
          run(op, rf::load(b.xd(), 2, 3), rf::store(b.out.d()) | rf::cast<float>(s));
        },
        [&](std::string const& op) {
          return "rowfuse: " + op + ": cast scale = " + value + " must be finite and > 0";
        });
  }
}

TEST_CASE("P4: eps <= 0, NaN or infinite (layernorm, rmsnorm)") {
  buffers b(64);
  for (auto [eps, text] : {std::pair<float, char const*>{0.0f, "0"},
                           {-1e-5f, "-1e-05"},
                           {nan_f, "nan"},
                           {inf_f, "inf"}}) {
    CAPTURE(text);
    std::string const value = text;
    CHECK(test::error_message([&, eps = eps] {
            rf::layernorm<narrow>(rf::load(b.xd(), 2, 3), rf::store(b.out.d()),
                                  rf::affine(b.ad(), b.ad()), eps);
          }) == "rowfuse: rf::layernorm: eps = " + value + " must be finite and > 0");
    CHECK(test::error_message([&, eps = eps] {
            rf::rmsnorm<narrow>(rf::load(b.xd(), 2, 3), rf::store(b.out.d()), rf::no_affine, eps);
          }) == "rowfuse: rf::rmsnorm: eps = " + value + " must be finite and > 0");
  }
  CHECK(b.untouched());
}

TEST_CASE("P5: rmsnorm given a beta") {
  buffers b(64);
  std::ostringstream pointer;
  pointer << static_cast<void const*>(b.ad());
  CHECK(test::error_message([&] {
          rf::rmsnorm<narrow>(rf::load(b.xd(), 2, 3), rf::store(b.out.d()),
                              rf::affine(b.ad(), b.ad()), 1e-5f);
        }) == "rowfuse: rf::rmsnorm: beta = " + pointer.str() +
                  " given, but rmsnorm has no shift: pass rf::affine(gamma) or "
                  "rf::zero_centered_gamma(gamma)");
  CHECK(b.untouched());
}

// ---- L: plans
// ------------------------------------------------------------------------------------

TEST_CASE("L1: a forced engine that cannot run the width") {
  buffers b(8192);
  auto const load = rf::load(b.xd(), 1, 5000);
  // The widest row the tuning table gives warp_rows for fp32 packs of 4 on this device: 512
  // columns, 640 on a device of wide memory (its rows of five packs a lane: tuning.hpp).
  bool const wide_memory = rf::current_device().wide_memory();
  rf::index_t widest = 0;
  for (auto const& row : rf::tuning::softmax_32bit)
    if (!row.whole_block && rf::current_device().takes(row))
      widest = std::max(widest, rf::tuning::capacity(row, 4));
  CHECK(widest == (wide_memory ? 640 : 512));
  std::string const holds = "(warp_rows holds at most " + std::to_string(widest) + " columns)";
  CHECK(test::error_message([&] {
          rf::softmax(load, rf::store(b.out.d()), nullptr, {rf::engine_kind::warp_rows, 0});
        }) ==
        "rowfuse: rf::softmax: engine warp_rows cannot run cols = 5000 with packs of 4 " + holds);
  // Odd width: packs of 1 (the scalar table: 32 lanes x 8 elements).
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(b.xd(), 1, 4999), rf::store(b.out.d()), nullptr,
                      {rf::engine_kind::warp_rows, 0});
        }) == "rowfuse: rf::softmax: engine warp_rows cannot run cols = 4999 with packs of 1 "
              "(warp_rows holds at most 256 columns)");
  // A dry run says the same in the plan instead of throwing, and launches nothing.
  rf::plan const dry =
      rf::softmax(load, rf::store(b.out.d()), nullptr, {rf::engine_kind::warp_rows, 0, true});
  CHECK(dry.refused ==
        "rowfuse: rf::softmax: engine warp_rows cannot run cols = 5000 with packs of 4 " + holds);
  CHECK(dry.engine == rf::engine_kind::automatic);
  CHECK(rf::explain(dry).find("refused (" + dry.refused + ")") != std::string::npos);
  test::sync_and_check();
  CHECK(b.untouched());
}

TEST_CASE("L3: a forced pack that the views or the width do not allow") {
  buffers b(64);
  // One element off the allocation's alignment: no 16-byte packs.
  CHECK(
      test::error_message([&] {
        run(0, rf::load(b.xd() + 1, 2, 16), rf::store(b.out.d()), {rf::engine_kind::automatic, 4});
      }) == "rowfuse: rf::softmax: pack = 4 was forced but the views or cols = 16 do not allow "
            "packs of 4");
  CHECK(test::error_message([&] {
          run(2, rf::load(b.xd(), 2, 15), rf::store(b.out.d()), {rf::engine_kind::automatic, 4});
        }) == "rowfuse: rf::layernorm: pack = 4 was forced but the views or cols = 15 do not "
              "allow packs of 4");
  // A dry run says the same in the plan; bad arguments still throw from one (L4).
  rf::plan const dry = run(0, rf::load(b.xd() + 1, 2, 16), rf::store(b.out.d()),
                           {rf::engine_kind::automatic, 4, true});
  CHECK(dry.refused == "rowfuse: rf::softmax: pack = 4 was forced but the views or cols = 16 do "
                       "not allow packs of 4");
  CHECK(dry.engine == rf::engine_kind::automatic);
  CHECK(test::error_message([&] {
          run(0, rf::load(b.xd(), 2, 16), rf::store(b.out.d()),
              {rf::engine_kind::automatic, 3, true});
        }) == "rowfuse: rf::softmax: pack = 3 is not available; use 0, 1 or 4");
  test::sync_and_check();
  CHECK(b.untouched());
}

TEST_CASE("L4: a pack that no kernel has") {
  buffers b(64);
  for (int pack : {2, 3, 8, -1}) {
    CAPTURE(pack);
    for_every_op(
        b,
        [&](int op) {
          run(op, rf::load(b.xd(), 2, 16), rf::store(b.out.d()),
              {rf::engine_kind::automatic, pack});
        },
        [&](std::string const& op) {
          return "rowfuse: " + op + ": pack = " + std::to_string(pack) +
                 " is not available; use 0, 1 or 4";
        });
  }
}

TEST_CASE("L5: cols outside the call's cols_range") {
  buffers b(256);
  for_every_op(
      b, [&](int op) { run(op, rf::load(b.xd(), 2, 100), rf::store(b.out.d())); },
      [](std::string const& op) {
        return "rowfuse: " + op +
               ": cols = 100 is outside the cols_range [1, 32] this call was compiled for";
      });
  // Inside the range the same call runs.
  CHECK(run(0, rf::load(b.xd(), 2, 32), rf::store(b.out.d())).engine != rf::engine_kind::automatic);
  test::sync_and_check();
}

TEST_CASE("L2: a forced cluster engine on a device below compute capability 9.0") {
  buffers b(8192);
  if (rf::current_device().compute_capability >= 90) {
    MESSAGE("compute capability 9.0 or newer: L2 is checked by tests/host/bad_input.cpp on a "
            "described device");
    return;
  }
  CHECK(test::error_message([&] {
          rf::softmax(rf::load(b.xd(), 1, 4096), rf::store(b.out.d()), nullptr,
                      {rf::engine_kind::cluster_rows, 0});
        }).find("needs thread-block clusters (compute capability 9.0)") != std::string::npos);
}

// ---- D: the device
// ---------------------------------------------------------------------------------

namespace {

/// The oldest architecture this file was built for, as __CUDA_ARCH__ spells it (900 for sm_90).
constexpr int oldest_built_arch() {
  constexpr int archs[] = {__CUDA_ARCH_LIST__};
  int oldest = archs[0];
  for (int a : archs)
    oldest = a < oldest ? a : oldest;
  return oldest;
}

} // namespace

TEST_CASE("D2: a device older than every architecture of the build") {
  rf::device_info const& dev = rf::current_device();
  if (dev.compute_capability * 10 >= oldest_built_arch()) {
    MESSAGE("device " << dev.compute_capability << " runs this build (oldest architecture "
                      << oldest_built_arch() / 10
                      << "): D2 runs in the build of scripts/gpu-check.sh --future-arch");
    return;
  }
  // No thrust here: its own kernels have no image for this device either.
  float* x = nullptr;
  float* y = nullptr;
  REQUIRE(cudaMalloc(&x, 64 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&y, 64 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemset(x, 0, 64 * sizeof(float)) == cudaSuccess);
  for (int op = 0; op < 4; ++op) {
    CAPTURE(op_names[op]);
    std::string const what = test::error_message(
        [&] { run(op, rf::load(static_cast<float const*>(x), 4, 16), rf::store(y)); });
    MESSAGE("D2 message: " << what);
    CHECK(what.rfind("rowfuse: ", 0) == 0);
    CHECK(what.find("is older than every architecture this program was built for") !=
          std::string::npos);
    CHECK(what.find("cudaErrorNoKernelImageForDevice") != std::string::npos);
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess); // nothing was launched, nothing is broken
  cudaFree(x);
  cudaFree(y);
}
