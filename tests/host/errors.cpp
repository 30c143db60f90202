// Bad arguments raise rowfuse::error whose message names the call, the argument and its value,
// before anything is written; null pointers with nothing to point at are fine.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <rowfuse/expr.hpp>
#include <rowfuse/op/affine.hpp>
#include <rowfuse/reference.hpp>

#include "../support/error_message.hpp"

namespace rf = rowfuse;
using rf::index_t;

namespace {

/// Checks that `what` contains every one of `parts`.
void check_mentions(std::string const& what, std::initializer_list<char const*> parts) {
  CAPTURE(what);
  CHECK(what.rfind("rowfuse: ", 0) == 0);
  for (char const* p : parts) {
    std::string const part = p;
    CAPTURE(part);
    CHECK(what.find(part) != std::string::npos);
  }
}

float const nan_f = std::numeric_limits<float>::quiet_NaN();
float const inf_f = std::numeric_limits<float>::infinity();

constexpr std::uint32_t poison_word = 0x7F7F7F7Fu;

struct buffers {
  std::vector<float> x, a, out, t;
  std::vector<std::uint8_t> m;
  explicit buffers(std::size_t n) : x(n, 1.5f), a(n, 0.5f), out(n), t(n), m(n, 0) {
    std::memset(out.data(), 0x7F, n * 4);
    std::memset(t.data(), 0x7F, n * 4);
  }
  bool untouched() const {
    for (float v : out) {
      std::uint32_t u;
      std::memcpy(&u, &v, 4);
      if (u != poison_word)
        return false;
    }
    for (float v : t) {
      std::uint32_t u;
      std::memcpy(&u, &v, 4);
      if (u != poison_word)
        return false;
    }
    return true;
  }
};

} // namespace

TEST_CASE("the message format: 'rowfuse: <call>: <argument> = <value> <requirement>'") {
  float out[4];
  std::string const what = test::error_message([&] {
    rf::reference::softmax(rf::load(static_cast<float const*>(nullptr), 2, -3), rf::store(out));
  });
  CHECK(what == "rowfuse: rf::softmax: cols = -3 must be >= 0");
  // rowfuse::error is a std::runtime_error.
  CHECK_THROWS_AS(rf::detail::fail("x"), std::runtime_error);
}

TEST_CASE("null pointers with a nonzero size") {
  buffers b(12);
  float const* no_input = nullptr;
  float* no_output = nullptr;
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(no_input, 3, 4), rf::store(b.out.data()));
                 }),
                 {"rf::softmax", "input", "null pointer", "3 x 4"});
  check_mentions(test::error_message([&] {
                   rf::reference::log_softmax(rf::load(b.x.data(), 3, 4), rf::store(no_output));
                 }),
                 {"rf::log_softmax", "output", "null pointer", "3 x 4"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(b.x.data(), 3, 4) | rf::add(no_input),
                                          rf::store(b.out.data()));
                 }),
                 {"add operand", "null pointer", "3 x 4"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(b.x.data(), 3, 4) |
                                              rf::mask(static_cast<bool const*>(nullptr)),
                                          rf::store(b.out.data()));
                 }),
                 {"mask", "null pointer", "3 x 4"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(b.x.data(), 3, 4) | rf::bias(no_input),
                                          rf::store(b.out.data()));
                 }),
                 {"bias", "null pointer", "1 x 4"});
  check_mentions(test::error_message([&] {
                   rf::reference::layernorm(rf::load(b.x.data(), 3, 4) | rf::tee(no_output),
                                            rf::store(b.out.data()), rf::no_affine, 1e-5f);
                 }),
                 {"rf::layernorm", "tee target", "null pointer", "3 x 4"});
  CHECK(b.untouched());
}

TEST_CASE("a null pointer with zero rows (or zero columns) is fine") {
  float const* no_input = nullptr;
  float* no_output = nullptr;
  for (auto [rows, cols] : {std::pair<index_t, index_t>{0, 4}, {3, 0}, {0, 0}}) {
    CAPTURE(rows);
    CAPTURE(cols);
    CHECK_NOTHROW(rf::reference::softmax(rf::load(no_input, rows, cols) | rf::add(no_input) |
                                             rf::mask(static_cast<std::uint8_t const*>(nullptr)) |
                                             rf::tee(no_output) | rf::scale(2.f),
                                         rf::store(no_output) | rf::dropout(0.5f, 1, 0, nullptr) |
                                             rf::cast<float>()));
    CHECK_NOTHROW(rf::reference::rmsnorm(rf::load(no_input, rows, cols), rf::store(no_output),
                                         rf::no_affine, 1e-5f));
  }
  // The same pointers with rows > 0 are errors (the check is not vacuous).
  CHECK_THROWS_AS(rf::reference::softmax(rf::load(no_input, 1, 4), rf::store(no_output)),
                  rf::error);
}

TEST_CASE("ld < cols for the input, the output and every operand") {
  buffers b(64);
  auto const load = rf::load(b.x.data(), 4, 6);
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(b.x.data(), 4, 6, 5), rf::store(b.out.data()));
                 }),
                 {"input.ld = 5", "cols = 6"});
  check_mentions(
      test::error_message([&] { rf::reference::softmax(load, rf::store(b.out.data(), 4)); }),
      {"output.ld = 4", "cols = 6"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(load | rf::add(b.a.data(), 3), rf::store(b.out.data()));
                 }),
                 {"add operand.ld = 3", "cols = 6"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(load | rf::mask(b.m.data(), -1.f, 2),
                                          rf::store(b.out.data()));
                 }),
                 {"mask.ld = 2", "cols = 6"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(load | rf::tee(b.t.data(), 1), rf::store(b.out.data()));
                 }),
                 {"tee target.ld = 1", "cols = 6"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(load, rf::store(b.out.data()) |
                                                    rf::dropout(0.5f, 1, 2, b.m.data(), 5));
                 }),
                 {"dropout keep_mask.ld = 5", "cols = 6"});
  CHECK(b.untouched());
  // ld == cols and ld > cols are fine.
  CHECK_NOTHROW(rf::reference::softmax(rf::load(b.x.data(), 4, 6, 6), rf::store(b.out.data(), 7)));
}

TEST_CASE("negative rows or cols") {
  float out[4];
  float const x[4] = {1, 2, 3, 4};
  check_mentions(
      test::error_message([&] { rf::reference::softmax(rf::load(x, -1, 4), rf::store(out)); }),
      {"rf::softmax", "rows = -1", "must be >= 0"});
  check_mentions(test::error_message([&] {
                   rf::reference::layernorm(rf::load(x, 2, -7), rf::store(out), rf::no_affine,
                                            1e-5f);
                 }),
                 {"rf::layernorm", "cols = -7", "must be >= 0"});
  check_mentions(
      test::error_message([&] { (void)rf::detail::bind(rf::load(x, -5, -7), "rf::rmsnorm"); }),
      {"rf::rmsnorm", "rows = -5"});
}

TEST_CASE("dropout p outside [0, 1)") {
  buffers b(6);
  for (auto [p, text] : {std::pair<float, char const*>{-0.1f, "dropout p = -0.1"},
                         {1.0f, "dropout p = 1 "},
                         {1.5f, "dropout p = 1.5"},
                         {nan_f, "dropout p = nan"},
                         {inf_f, "dropout p = inf"}}) {
    check_mentions(test::error_message([&] {
                     rf::reference::softmax(rf::load(b.x.data(), 2, 3),
                                            rf::store(b.out.data()) | rf::dropout(p, 1));
                   }),
                   {"rf::softmax", text, "[0, 1)"});
  }
  CHECK(b.untouched());
}

TEST_CASE("eps <= 0, NaN or infinite for layernorm and rmsnorm") {
  buffers b(6);
  float const gamma[3] = {1, 1, 1};
  for (auto [eps, text] : {std::pair<float, char const*>{0.0f, "eps = 0 "},
                           {-1e-5f, "eps = -1e-05"},
                           {nan_f, "eps = nan"},
                           {inf_f, "eps = inf"}}) {
    CAPTURE(text);
    check_mentions(test::error_message([&, eps = eps] {
                     rf::reference::layernorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                              rf::affine(gamma), eps);
                   }),
                   {"rf::layernorm", text, "must be finite and > 0"});
    check_mentions(test::error_message([&, eps = eps] {
                     rf::reference::rmsnorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                            rf::no_affine, eps);
                   }),
                   {"rf::rmsnorm", text, "must be finite and > 0"});
  }
  CHECK(b.untouched());
  CHECK_NOTHROW(rf::reference::rmsnorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                       rf::no_affine, std::numeric_limits<float>::denorm_min()));
}

TEST_CASE("causal_mask q_len <= 0") {
  buffers b(6);
  for (auto [q, text] : {std::pair<index_t, char const*>{0, "causal_mask q_len = 0"},
                         {-2, "causal_mask q_len = -2"}})
    check_mentions(test::error_message([&, q = q] {
                     rf::reference::softmax(rf::load(b.x.data(), 2, 3) | rf::causal_mask(q),
                                            rf::store(b.out.data()));
                   }),
                   {"rf::softmax", text, "must be > 0"});
  CHECK(b.untouched());
}

TEST_CASE("cast scale <= 0, infinite or NaN") {
  buffers b(6);
  for (auto [s, text] : {std::pair<float, char const*>{0.0f, "cast scale = 0"},
                         {-1.0f, "cast scale = -1"},
                         {inf_f, "cast scale = inf"},
                         {nan_f, "cast scale = nan"}}) {
    check_mentions(test::error_message([&, s = s] {
                     rf::reference::softmax(rf::load(b.x.data(), 2, 3),
                                            rf::store(b.out.data()) | rf::cast<float>(s));
                   }),
                   {"rf::softmax", text, "must be finite and > 0"});
  }
  CHECK(b.untouched());
}

TEST_CASE("an output whose spelled-out shape differs from the input's") {
  buffers b(40);
  auto const load = rf::load(b.x.data(), 4, 5);
  check_mentions(
      test::error_message([&] { rf::reference::softmax(load, rf::store(b.out.data(), 3, 5, 5)); }),
      {"output has rows = 3", "the input has 4"});
  check_mentions(
      test::error_message([&] { rf::reference::softmax(load, rf::store(b.out.data(), 4, 6, 6)); }),
      {"output has cols = 6", "the input has 5"});
  CHECK(b.untouched());
  CHECK_NOTHROW(rf::reference::softmax(load, rf::store(b.out.data(), 4, 5, 8)));
}

TEST_CASE("broadcast: incompatible shapes, ranks and row counts") {
  std::vector<float> op(200, 1.0f);
  float* p = op.data();
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {2, 3, 4, 5}, {2, 4, 4, 5});
                 }),
                 {"rf::broadcast", "shape[1] = 3", "must be 1 or over[1] = 4"});
  // The last dimension (the columns) must be equal; broadcasting it is not allowed either.
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {2, 1, 4, 6}, {2, 3, 4, 5});
                 }),
                 {"rf::broadcast", "last dimension 6", "last dimension 5"});
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {2, 1, 4, 1}, {2, 3, 4, 5});
                 }),
                 {"rf::broadcast", "last dimension 1", "over's last dimension 5"});
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {2, 4, 5}, {2, 3, 4, 5});
                 }),
                 {"rf::broadcast", "shape has 3 dimensions, over has 4"});
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {1, 1, 1, 1, 1, 5}, {1, 2, 1, 1, 1, 5});
                 }),
                 {"rf::broadcast", "over has 6 dimensions"});
  check_mentions(test::error_message([&] { (void)rf::broadcast(p, {}, {}); }),
                 {"rf::broadcast", "over has 0 dimensions"});
  check_mentions(test::error_message([&] {
                   (void)rf::broadcast(p, {1, 5}, {-1, 5});
                 }),
                 {"rf::broadcast", "over[0] = -1"});

  // A broadcast view whose target has other rows, or other columns, than the input.
  std::vector<float> x(200, 1.0f), out(200);
  std::vector<std::uint8_t> m(200, 0);
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(rf::load(x.data(), 12, 5) |
                                              rf::add(rf::broadcast(p, {2, 1, 4, 5}, {2, 3, 4, 5})),
                                          rf::store(out.data()));
                 }),
                 {"rf::softmax", "add operand broadcasts over 24 rows", "the input has 12"});
  check_mentions(test::error_message([&] {
                   rf::reference::softmax(
                       rf::load(x.data(), 24, 6) |
                           rf::mask(rf::broadcast(m.data(), {2, 1, 4, 5}, {2, 3, 4, 5})),
                       rf::store(out.data()));
                 }),
                 {"mask has cols = 5", "the input has 6"});
  CHECK_NOTHROW(rf::reference::softmax(rf::load(x.data(), 24, 5) |
                                           rf::add(rf::broadcast(p, {2, 1, 4, 5}, {2, 3, 4, 5})),
                                       rf::store(out.data())));
}

TEST_CASE("rf::affine and rf::zero_centered_gamma with a null gamma") {
  buffers b(6);
  float const* no_gamma = nullptr;
  float const beta[3] = {0, 0, 0};
  check_mentions(test::error_message([&] {
                   rf::reference::layernorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                            rf::affine(no_gamma, beta), 1e-5f);
                 }),
                 {"rf::layernorm", "gamma", "null pointer"});
  check_mentions(test::error_message([&] {
                   rf::reference::rmsnorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                          rf::zero_centered_gamma(no_gamma), 1e-5f);
                 }),
                 {"rf::rmsnorm", "gamma", "null pointer"});
  CHECK(b.untouched());
  // A null beta is "no beta".
  float const gamma[3] = {1, 2, 3};
  CHECK_NOTHROW(rf::reference::layernorm(rf::load(b.x.data(), 2, 3), rf::store(b.out.data()),
                                         rf::affine(gamma, static_cast<float const*>(nullptr)),
                                         1e-5f));
}
