#include <cstdio>
#include <string>
#include <rowfuse/dispatch/plan.hpp>
#include "/work/main/tests/support/described_device.hpp"
namespace rf = rowfuse;
int main() {
  using F = rf::tuning::shape_family;
  for (int dev = 0; dev < 2; ++dev) {
    auto const d = dev ? test::described_h200() : test::described_device();
    for (int f = 0; f <= int(F::layernorm_store_chain); ++f)
      for (auto [eb, pk] : {std::pair{2, 8}, {2, 1}, {4, 4}, {4, 1}}) {
        auto const shapes = rf::detail::register_shapes(eb, pk, F(f));
        for (long cols = pk; cols <= 262144 * 2; cols += (cols < 4096 ? pk : cols < 65536 ? 8 * pk : 64 * pk)) {
          rf::plan const p = rf::detail::choose_plan("op", 4096, cols, pk, rf::engine_kind::automatic, d, shapes);
          rf::plan const q = rf::detail::try_phased_plan("op", 4096, cols + 1, pk, rf::engine_kind::automatic, d, shapes);
          auto key = [&](rf::plan const& x) { if (x.shape < 0) return std::string("-"); auto const& s = shapes[x.shape]; char b[96]; std::snprintf(b, sizeof b, "%ld/%d/%d/%d/%d/%d/%d/%d", long(s.max_cols), s.packs, s.block_threads, s.cluster_blocks, s.staged, s.persistent, s.min_blocks_per_sm, 0); return std::string(b); }; std::printf("%d %d %d %d %ld %s %d %s %d\n", dev, f, eb, pk, cols, key(p).c_str(), int(p.engine), key(q).c_str(), int(q.engine));
        }
      }
  }
}
