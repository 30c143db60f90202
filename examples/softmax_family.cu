// A family of softmax variants generated at compile time: hana::cartesian_product of load and
// store transform sets makes one fused kernel per combination, each checked and timed in a loop.
#include "common.hpp"
#include <boost/hana.hpp>
#include <rowfuse/reference.hpp>
#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
namespace hana = boost::hana;
auto const chain = [](auto expr, auto nodes) { // expr | node | node ...
  return hana::unpack(nodes, [&](auto... node) { return (expr | ... | node); });
};
int main() {
  if (example::no_gpu())
    return 77;
  long const q_len = 1024, rows = 32 * q_len, cols = 1024, checked = 256; // 2^25 elements
  auto const scores = example::random<__half>(rows * cols, -4.0f, 4.0f);
  example::device<__half> S(scores), P(rows * cols);
  std::vector<__half> rounded(checked * cols);
  auto const loads = hana::make_tuple(hana::make_tuple(rf::scale(0.125f)),
                                      hana::make_tuple(rf::scale(0.125f), rf::causal_mask(q_len)));
  auto const stores = hana::make_tuple(hana::make_tuple(), hana::make_tuple(rf::dropout(0.1f, 7)));
  int failed = 0;
  auto const run = [&](auto load, auto store) { // one kernel per (load, store) type pair
    double const ms = example::time_ms([&] {
      rf::softmax(chain(rf::load(S.data(), rows, cols), load), chain(rf::store(P.data()), store));
    });
    std::printf("load");
    hana::for_each(load, [](auto node) { std::printf(" | %s", node.name); });
    std::printf(", store");
    hana::for_each(store, [](auto node) { std::printf(" | %s", node.name); });
    std::printf(": %.0f GB/s; ", 4.0 * rows * cols / ms / 1e6);
    auto const exact = rf::reference::softmax(chain(rf::load(scores.data(), checked, cols), load),
                                              chain(rf::store(rounded.data()), store));
    failed += example::check("P", P.host(checked * cols), exact, 0x1p-10);
  };
  hana::for_each(hana::cartesian_product(hana::make_tuple(loads, stores)), hana::fuse(run));
  return failed;
}
