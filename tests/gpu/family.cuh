// A family of fused softmax pipelines generated at compile time: the cartesian product of a
// mask, an additive operand and a store chain, each run on every engine that fits, against the
// host reference, with the dropout mask bit-identical across engines and to the host. The
// family_*.cu files each take one store chain, so the family compiles in parallel.
#pragma once

#include <boost/hana/cartesian_product.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include "support.cuh"

namespace hana = boost::hana;

namespace {

constexpr long batch = 2, heads = 3, q_len = 5;

/// Every buffer a pipeline may touch, on both sides; `host` selects which pointers a factory
/// hands out, so the same factory builds the GPU expression and its reference twin.
struct buffers {
  long rows, cols;
  test::mirrored<__half> x, y, residual;
  test::mirrored<float> bias;
  test::mirrored<bool> padding; // [batch, 1, 1, cols]
  test::mirrored<std::uint8_t> keep;
  test::mirrored<float> amax;
  bool host = false;

  buffers(long r, long c, std::mt19937& rng)
      : rows(r), cols(c), x(r * c), y(r * c), residual(r * c), bias(c), padding(batch * c),
        keep(r * c), amax(1) {
    test::fill_uniform(x.host, rng);
    test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
    test::fill_uniform(bias.host, rng, -1.0f, 1.0f);
    std::bernoulli_distribution masked(0.3);
    for (std::size_t i = 0; i < padding.host.size(); ++i)
      padding.host[i] = masked(rng);
    padding.host[std::size_t(cols - 1)] = true; // make sure something is masked
    x.upload();
    residual.upload();
    bias.upload();
    padding.upload();
  }
  template <class T> T* pick(test::mirrored<T>& m) { return host ? m.h() : m.d(); }
};

auto const masks = hana::make_tuple(
    [](buffers& b) { return rf::causal_mask(q_len, b.cols - q_len); },
    [](buffers& b) {
      return rf::mask(rf::broadcast(static_cast<bool const*>(b.pick(b.padding)),
                                    {batch, 1, 1, b.cols}, {batch, heads, q_len, b.cols}));
    });
auto const additives = hana::make_tuple(
    [](buffers& b) { return rf::bias(static_cast<float const*>(b.pick(b.bias))); },
    [](buffers& b) { return rf::add(static_cast<__half const*>(b.pick(b.residual))); });
auto const plain_store = [](buffers& b) { return rf::store(b.pick(b.y)); };
auto const dropout_store = [](buffers& b) {
  return rf::store(b.pick(b.y)) | rf::dropout(0.2f, 1234, 77, b.pick(b.keep));
};
auto const dropout_cast_store = [](buffers& b) {
  return rf::store(b.pick(b.y)) | rf::dropout(0.1f, 99, 5, b.pick(b.keep)) |
         rf::cast<__half>(4.0f, b.pick(b.amax));
};

struct soft_cap { // a user transform: tanh soft-capping of logits
  float cap;
  __host__ __device__ float operator()(float x) const { return cap * tanhf(x / cap); }
};

template <class Combo> void check_combo(Combo combo, long cols, std::mt19937& rng) {
  long const rows = batch * heads * q_len;
  buffers b(rows, cols, rng);
  auto const& make_mask = hana::at_c<0>(combo);
  auto const& make_additive = hana::at_c<1>(combo);
  auto const& make_store = hana::at_c<2>(combo);
  auto make_load = [&](buffers& bb) {
    return rf::load(static_cast<__half const*>(bb.pick(bb.x)), rows, cols) | rf::scale(0.7f) |
           make_additive(bb) | soft_cap{6.0f} | make_mask(bb);
  };

  b.host = true;
  b.amax.host[0] = 0.0f;
  test::poison(b.keep.host);
  auto const exact = rf::reference::softmax(make_load(b), make_store(b));
  std::vector<std::uint8_t> const keep_ref = b.keep.host;
  float const amax_ref = b.amax.host[0];
  b.host = false;

  auto const call = [&](rf::launch_options options) {
    return rf::softmax(make_load(b), make_store(b), nullptr, options);
  };
  for (test::planned const& each : test::plans_for(call)) {
    test::poison(b.y.host);
    b.y.upload();
    test::poison(b.keep.host);
    b.keep.upload();
    b.amax.host[0] = 0.0f;
    b.amax.upload();
    rf::plan const p = call(each.options);
    test::sync_and_check();
    test::check_as_planned(p, each);
    INFO(rf::explain(p));
    CHECK_MATCHES(test::compare(b.y.download(), exact, rows, cols, cols, 0));
    using store_t = decltype(make_store(b));
    if constexpr (!std::is_same_v<store_t, rf::store_expr<__half>>) {
      CHECK(b.keep.download() == keep_ref); // bit-identical mask on every engine
    }
    if constexpr (store_t::has_cast) {
      // amax is max |y| before the cast's scale: fp32 on the GPU, double on the host.
      CHECK(b.amax.download()[0] == doctest::Approx(amax_ref).epsilon(1e-5));
      CHECK(amax_ref > 0.0f);
    }
  }
}

/// Runs masks x additives with one store chain over several widths, every engine.
template <class StoreChains> void check_family(StoreChains store_chains, unsigned seed) {
  std::mt19937 rng(seed);
  auto const family = hana::cartesian_product(hana::make_tuple(masks, additives, store_chains));
  static_assert(decltype(hana::length(family))::value ==
                4 * decltype(hana::length(store_chains))::value);
  for (long cols : {33L, 64L, 1000L, 3000L, 12000L, 20000L, 40000L, 140000L}) {
    CAPTURE(cols);
    hana::for_each(family, [&](auto combo) { check_combo(combo, cols, rng); });
  }
}

} // namespace
