// docs/errors.md, the backward rows (G1-G9): the checks of rf::softmax_backward,
// rf::log_softmax_backward, rf::layernorm_backward and rf::rmsnorm_backward, each with its exact
// message and nothing written (dx, dgamma and dbeta stay poisoned). The shape and pointer rows of
// the forward ops (S1-S13) hold for y or x, dx and the chains' operands through the same code.
//
// Compiled for widths 1-32 (rf::cols_range): the checks run before any kernel is chosen.
#include <string>

#include "support.cuh"

namespace {

constexpr rf::cols_range narrow{1, 32};
constexpr long rows = 3, cols = 4;

struct buffers {
  test::mirrored<float> y, dy, dx, gamma, beta, mean, rstd, dgamma, dbeta;
  buffers()
      : y(rows * cols), dy(rows * cols), dx(rows * cols), gamma(cols), beta(cols), mean(rows),
        rstd(rows), dgamma(cols), dbeta(cols) {
    for (auto* v : {&y, &dy, &gamma, &beta, &mean, &rstd}) {
      std::fill(v->host.begin(), v->host.end(), 0.25f);
      v->upload();
    }
    for (auto* v : {&dx, &dgamma, &dbeta}) {
      test::poison(v->host);
      v->upload();
    }
  }
  float const* c(test::mirrored<float>& m) { return m.d(); }
  bool untouched() {
    test::sync_and_check();
    for (auto* v : {&dx, &dgamma, &dbeta})
      for (float f : v->download())
        if (!test::is_poison(f))
          return false;
    return true;
  }
};

/// The message of softmax_backward (op 0) or log_softmax_backward (op 1) over these expressions.
template <class Y, class G, class S> std::string softmax_message(int op, Y y, G dy, S dx) {
  return test::error_message([&] {
    if (op == 0)
      rf::softmax_backward<narrow>(y, dy, dx);
    else
      rf::log_softmax_backward<narrow>(y, dy, dx);
  });
}

char const* const softmax_names[] = {"rf::softmax_backward", "rf::log_softmax_backward"};

} // namespace

TEST_CASE("G1: dy null with rows x cols > 0") {
  for (int op : {0, 1}) {
    buffers b;
    CHECK(softmax_message(op, rf::load(b.c(b.y), rows, cols),
                          rf::load(static_cast<float const*>(nullptr), rows, cols),
                          rf::store(b.dx.d())) == std::string("rowfuse: ") + softmax_names[op] +
                                                      ": dy is a null pointer with 3 x 4 elements");
    CHECK(b.untouched());
  }
}

TEST_CASE("G2: dy of another shape than the input") {
  for (int op : {0, 1}) {
    buffers b;
    CHECK(softmax_message(op, rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), rows - 1, cols),
                          rf::store(b.dx.d())) ==
          std::string("rowfuse: ") + softmax_names[op] + ": dy has rows = 2, the input has 3");
    CHECK(softmax_message(op, rf::load(b.c(b.y), rows, cols - 1), rf::load(b.c(b.dy), rows, cols),
                          rf::store(b.dx.d())) ==
          std::string("rowfuse: ") + softmax_names[op] + ": dy has cols = 4, the input has 3");
    CHECK(softmax_message(op, rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), -1, cols),
                          rf::store(b.dx.d())) ==
          std::string("rowfuse: ") + softmax_names[op] + ": dy rows = -1 must be >= 0");
    CHECK(b.untouched());
  }
}

TEST_CASE("G3: dy ld < cols") {
  buffers b;
  CHECK(softmax_message(0, rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), rows, cols, 2),
                        rf::store(b.dx.d())) ==
        "rowfuse: rf::softmax_backward: dy.ld = 2 must be >= cols = 4");
  CHECK(b.untouched());
}

TEST_CASE("G4: dx of another shape than the input") {
  buffers b;
  CHECK(softmax_message(1, rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), rows, cols),
                        rf::store(b.dx.d(), rows, cols + 1, cols + 1)) ==
        "rowfuse: rf::log_softmax_backward: output has cols = 5, the input has 4");
  CHECK(b.untouched());
}

TEST_CASE("G5: a norm backward without its saved statistics") {
  buffers b;
  auto const x = rf::load(b.c(b.y), rows, cols);
  auto const dy = rf::load(b.c(b.dy), rows, cols);
  CHECK(test::error_message([&] {
          rf::layernorm_backward<narrow>(x, dy, rf::store(b.dx.d()), rf::no_affine,
                                         rf::row_stats{nullptr, b.rstd.d()});
        }) == "rowfuse: rf::layernorm_backward: mean is a null pointer with 3 rows (pass the "
              "forward's saved mean)");
  CHECK(test::error_message([&] {
          rf::layernorm_backward<narrow>(x, dy, rf::store(b.dx.d()), rf::no_affine,
                                         rf::row_stats{b.mean.d(), nullptr});
        }) == "rowfuse: rf::layernorm_backward: rstd is a null pointer with 3 rows (pass the "
              "forward's saved rstd)");
  CHECK(test::error_message([&] {
          rf::rmsnorm_backward<narrow>(x, dy, rf::store(b.dx.d()), rf::no_affine, nullptr);
        }) == "rowfuse: rf::rmsnorm_backward: rstd is a null pointer with 3 rows (pass the "
              "forward's saved rstd)");
  CHECK(b.untouched());
}

TEST_CASE("G6: dgamma asked for without a gamma") {
  buffers b;
  std::string const message = test::error_message([&] {
    rf::layernorm_backward<narrow>(rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), rows, cols),
                                   rf::store(b.dx.d()), rf::no_affine,
                                   rf::row_stats{b.mean.d(), b.rstd.d()},
                                   rf::affine_grads{b.dgamma.d(), nullptr});
  });
  CHECK(message.rfind("rowfuse: rf::layernorm_backward: dgamma = ", 0) == 0);
  CHECK(message.find(" given, but affine is rf::no_affine: there is no gamma") !=
        std::string::npos);
  CHECK(b.untouched());
}

TEST_CASE("G7: rmsnorm_backward with a beta or a dbeta") {
  buffers b;
  auto const x = rf::load(b.c(b.y), rows, cols);
  auto const dy = rf::load(b.c(b.dy), rows, cols);
  std::string const with_beta = test::error_message([&] {
    rf::rmsnorm_backward<narrow>(x, dy, rf::store(b.dx.d()), rf::affine(b.c(b.gamma), b.c(b.beta)),
                                 b.rstd.d());
  });
  CHECK(with_beta.rfind("rowfuse: rf::rmsnorm_backward: beta = ", 0) == 0);
  CHECK(with_beta.find(" given, but rmsnorm has no shift: pass rf::affine(gamma) or "
                       "rf::zero_centered_gamma(gamma)") != std::string::npos);
  std::string const with_dbeta = test::error_message([&] {
    rf::rmsnorm_backward<narrow>(x, dy, rf::store(b.dx.d()), rf::affine(b.c(b.gamma)), b.rstd.d(),
                                 rf::affine_grads{nullptr, b.dbeta.d()});
  });
  CHECK(with_dbeta.rfind("rowfuse: rf::rmsnorm_backward: dbeta = ", 0) == 0);
  CHECK(with_dbeta.find(" given, but rmsnorm has no shift") != std::string::npos);
  CHECK(b.untouched());
}

TEST_CASE("G8: a norm backward's gamma null") {
  buffers b;
  CHECK(test::error_message([&] {
          rf::layernorm_backward<narrow>(
              rf::load(b.c(b.y), rows, cols), rf::load(b.c(b.dy), rows, cols), rf::store(b.dx.d()),
              rf::affine(static_cast<float const*>(nullptr)), rf::row_stats{b.mean.d(), b.rstd.d()},
              rf::affine_grads{b.dgamma.d(), b.dbeta.d()});
        }) == "rowfuse: rf::layernorm_backward: gamma is a null pointer with 1 x 4 elements");
  CHECK(b.untouched());
}

TEST_CASE("G9: no rows: dgamma and dbeta are zeros, nothing else is written") {
  buffers b;
  rf::layernorm_backward<narrow>(rf::load(b.c(b.y), 0, cols), rf::load(b.c(b.dy), 0, cols),
                                 rf::store(b.dx.d()), rf::affine(b.c(b.gamma), b.c(b.beta)),
                                 rf::row_stats{nullptr, nullptr},
                                 rf::affine_grads{b.dgamma.d(), b.dbeta.d()});
  test::sync_and_check();
  for (auto* v : {&b.dgamma, &b.dbeta})
    for (float f : v->download())
      CHECK(f == 0.0f);
  for (float f : b.dx.download())
    CHECK(test::is_poison(f));
}
