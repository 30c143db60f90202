// Determinism: the same call on the same input gives the same bits, run after run, for every op
// and every engine and pack path that runs each width: outputs, tee values, dropout keep masks,
// amax and saved statistics. Across engines, the dropout masks are the same bits too (they depend
// only on seed, offset, row and col); the outputs may differ in their last bits, because each
// engine adds the row in its own order. The case prints how many elements differ from the
// automatic plan's, engine by engine (README.md, "Determinism", says what to expect).
#include <cstring>

#include "norm_support.cuh"

namespace {

constexpr int runs = 3;
constexpr long widths[] = {33, 1000, 3000, 20000, 70000};

long rows_for(long cols) {
  long const elements = test::small_mode() ? (1L << 13) : (1L << 19);
  return std::max(2L, std::min(1000L, elements / cols));
}

/// The bytes of every buffer a run writes, in one vector, and the masks apart.
struct snapshot {
  std::vector<unsigned char> outputs; // output, tee, amax, statistics
  std::vector<unsigned char> masks;   // dropout keep masks
};

template <class T> void append(std::vector<unsigned char>& bytes, test::mirrored<T> const& m) {
  auto const host = m.download();
  auto const* p = reinterpret_cast<unsigned char const*>(host.data());
  bytes.insert(bytes.end(), p, p + host.size() * sizeof(host[0]));
}

/// Elements of `a` and `b` (as T) that differ in any bit: outputs across engines.
template <class T>
long differing(std::vector<unsigned char> const& a, std::vector<unsigned char> const& b,
               std::size_t count) {
  long n = 0;
  for (std::size_t i = 0; i < count; ++i)
    n += std::memcmp(a.data() + i * sizeof(T), b.data() + i * sizeof(T), sizeof(T)) != 0;
  return n;
}

// ---- one op each: its buffers and its call
// -------------------------------------------------------

struct softmax_case { // fp16 | scale -> fp16 | dropout
  static constexpr char const* name = "softmax fp16 | scale -> dropout";
  using out_t = __half;
  long rows, cols;
  test::mirrored<__half> x, y;
  test::mirrored<std::uint8_t> keep;
  softmax_case(long r, long c, std::mt19937& rng)
      : rows(r), cols(c), x(r * c), y(r * c), keep(r * c) {
    test::fill_uniform(x.host, rng, -8.0f, 8.0f);
    x.upload();
  }
  rf::plan run(rf::launch_options o) {
    return rf::softmax(rf::load(static_cast<__half const*>(x.d()), rows, cols) | rf::scale(0.7f),
                       rf::store(y.d()) | rf::dropout(0.3f, 2024, 11, keep.d()), nullptr, o);
  }
  snapshot take() {
    snapshot s;
    append(s.outputs, y);
    append(s.masks, keep);
    return s;
  }
  void poison() {
    test::poison(y.host);
    y.upload();
    test::poison(keep.host);
    keep.upload();
  }
};

struct log_softmax_case { // fp32 -> bf16
  static constexpr char const* name = "log_softmax fp32 -> bf16";
  using out_t = __nv_bfloat16;
  long rows, cols;
  test::mirrored<float> x;
  test::mirrored<__nv_bfloat16> y;
  log_softmax_case(long r, long c, std::mt19937& rng) : rows(r), cols(c), x(r * c), y(r * c) {
    test::fill_uniform(x.host, rng, -20.0f, 20.0f);
    x.upload();
  }
  rf::plan run(rf::launch_options o) {
    return rf::log_softmax(rf::load(static_cast<float const*>(x.d()), rows, cols), rf::store(y.d()),
                           nullptr, o);
  }
  snapshot take() {
    snapshot s;
    append(s.outputs, y);
    return s;
  }
  void poison() {
    test::poison(y.host);
    y.upload();
  }
};

struct layernorm_case { // bf16 | bias | dropout | add | tee -> bf16, gamma, beta, mean, rstd
  static constexpr char const* name = "layernorm bf16 | bias | dropout | add | tee";
  using out_t = __nv_bfloat16;
  long rows, cols;
  test::mirrored<__nv_bfloat16> x, residual, h, y, gamma, beta;
  test::mirrored<float> bias, mean, rstd;
  test::mirrored<std::uint8_t> keep;
  layernorm_case(long r, long c, std::mt19937& rng)
      : rows(r), cols(c), x(r * c), residual(r * c), h(r * c), y(r * c), gamma(c), beta(c), bias(c),
        mean(r), rstd(r), keep(r * c) {
    test::fill_uniform(x.host, rng);
    test::fill_uniform(residual.host, rng);
    test::fill_uniform(gamma.host, rng);
    test::fill_uniform(beta.host, rng);
    test::fill_uniform(bias.host, rng);
    for (auto* m : {&x, &residual, &gamma, &beta})
      m->upload();
    bias.upload();
  }
  rf::plan run(rf::launch_options o) {
    auto const load = rf::load(static_cast<__nv_bfloat16 const*>(x.d()), rows, cols) |
                      rf::bias(static_cast<float const*>(bias.d())) |
                      rf::dropout(0.1f, 7, 0, keep.d()) |
                      rf::add(static_cast<__nv_bfloat16 const*>(residual.d())) | rf::tee(h.d());
    return rf::layernorm(load, rf::store(y.d()),
                         rf::affine(static_cast<__nv_bfloat16 const*>(gamma.d()),
                                    static_cast<__nv_bfloat16 const*>(beta.d())),
                         1e-5f, nullptr, rf::row_stats{mean.d(), rstd.d()}, o);
  }
  snapshot take() {
    snapshot s;
    append(s.outputs, y);
    append(s.outputs, h);
    append(s.outputs, mean);
    append(s.outputs, rstd);
    append(s.masks, keep);
    return s;
  }
  void poison() {
    for (auto* m : {&y, &h}) {
      test::poison(m->host);
      m->upload();
    }
    for (auto* m : {&mean, &rstd}) {
      test::poison(m->host);
      m->upload();
    }
    test::poison(keep.host);
    keep.upload();
  }
};

struct rmsnorm_case { // fp16 -> e5m2 with scale and amax, zero-centred gamma, rstd
  static constexpr char const* name = "rmsnorm fp16 -> fp8 e5m2 with amax";
  using out_t = __nv_fp8_e5m2;
  long rows, cols;
  test::mirrored<__half> x, gamma;
  test::mirrored<__nv_fp8_e5m2> y;
  test::mirrored<float> amax, rstd;
  rmsnorm_case(long r, long c, std::mt19937& rng)
      : rows(r), cols(c), x(r * c), gamma(c), y(r * c), amax(1), rstd(r) {
    test::fill_uniform(x.host, rng);
    test::fill_uniform(gamma.host, rng, -0.5f, 0.5f);
    x.upload();
    gamma.upload();
  }
  rf::plan run(rf::launch_options o) {
    return rf::rmsnorm(rf::load(static_cast<__half const*>(x.d()), rows, cols),
                       rf::store(y.d()) | rf::cast<__nv_fp8_e5m2>(1000.0f, amax.d()),
                       rf::zero_centered_gamma(static_cast<__half const*>(gamma.d())), 1e-6f,
                       nullptr, rstd.d(), o);
  }
  snapshot take() {
    snapshot s;
    append(s.outputs, y);
    append(s.outputs, amax);
    append(s.outputs, rstd);
    return s;
  }
  void poison() {
    test::poison(y.host);
    y.upload();
    test::poison(rstd.host);
    rstd.upload();
    amax.host[0] = 0.0f;
    amax.upload();
  }
};

/// Every plan of every width: `runs` runs each, bit-identical; masks bit-identical across plans.
template <class Case> void check_case(unsigned seed) {
  std::mt19937 rng(seed);
  for (long cols : widths) {
    long const rows = rows_for(cols);
    CAPTURE(Case::name);
    CAPTURE(cols);
    Case c(rows, cols, rng);
    snapshot automatic;
    bool have_automatic = false;
    auto const run_plan = [&](rf::launch_options options) {
      if (options.dry_run)
        return c.run(options);
      snapshot first;
      rf::plan p;
      for (int k = 0; k < runs; ++k) {
        c.poison();
        p = c.run(options);
        test::sync_and_check();
        snapshot const s = c.take();
        if (k == 0) {
          first = s;
          continue;
        }
        INFO(rf::explain(p));
        CHECK(s.outputs == first.outputs);
        CHECK(s.masks == first.masks);
      }
      if (!have_automatic) {
        automatic = first;
        have_automatic = true;
      } else {
        CHECK(first.masks == automatic.masks); // the same mask on every engine
        long const differ = differing<typename Case::out_t>(first.outputs, automatic.outputs,
                                                            std::size_t(rows * cols));
        MESSAGE(Case::name << ", " << cols << " columns, " << rf::explain(p) << ": " << differ
                           << " of " << rows * cols << " outputs differ from the automatic plan's");
      }
      return p;
    };
    test::for_each_plan(run_plan);
  }
}

} // namespace

TEST_CASE("softmax gives the same bits run after run, on every engine") {
  check_case<softmax_case>(1);
}
TEST_CASE("log_softmax gives the same bits run after run, on every engine") {
  check_case<log_softmax_case>(2);
}
TEST_CASE("layernorm gives the same bits run after run, on every engine") {
  check_case<layernorm_case>(3);
}
TEST_CASE("rmsnorm gives the same bits run after run, on every engine") {
  check_case<rmsnorm_case>(4);
}
