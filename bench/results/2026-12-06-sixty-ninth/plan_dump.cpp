// plan_dump: the automatic plans of the 16-bit softmax, log-softmax, rmsnorm and layernorm tables
// at every width up to 262144 columns, aligned and phased, on a device of `bytes` DRAM bytes a
// cycle (an H100 12.8, an H200 15.7), as runs of widths with one plan: "first last key". Host code
// only (src/plan.cpp's planner over tuning.hpp's tables), built by plan_dump.sh against a tree.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rowfuse/dispatch/plan.hpp"
#include "rowfuse/dispatch/tuning.hpp"
#include "support/described_device.hpp"

namespace rf = rowfuse;

int main(int argc, char** argv) {
  rf::device_info device = test::described_device();
  device.dram_bytes_per_sm_cycle = argc > 1 ? std::atof(argv[1]) : 12.8;
  struct family {
    char const* name;
    rf::tuning::shape_family id;
  } const families[] = {{"softmax", rf::tuning::shape_family::softmax},
                        {"log_softmax", rf::tuning::shape_family::log_softmax},
                        {"rmsnorm", rf::tuning::shape_family::rmsnorm},
                        {"layernorm", rf::tuning::shape_family::layernorm}};
  for (auto const& f : families) {
    auto const shapes = rf::detail::register_shapes(2, 8, f.id);
    for (bool phased : {false, true}) {
      std::string run_key;
      long first = 0;
      auto flush = [&](long last) {
        if (!run_key.empty())
          std::printf("%s %s %ld %ld %s\n", f.name, phased ? "mis" : "al", first, last,
                      run_key.c_str());
      };
      for (long cols = 1; cols <= 262144; ++cols) {
        if (!phased && cols % 8)
          continue;
        long const rows = std::max(1L, (1L << 27) / cols);
        rf::plan const p =
            phased ? rf::detail::try_phased_plan("op", rows, cols, 8, rf::engine_kind::automatic,
                                                 device, shapes)
                   : rf::detail::try_plan("op", rows, cols, 8, rf::engine_kind::automatic, device,
                                          shapes, 2, 4);
        std::string key = std::string(rf::to_string(p.engine)) + (p.phased ? "/ph" : "");
        if (p.shape >= 0) {
          auto const& s = shapes[std::size_t(p.shape)];
          char buf[160];
          std::snprintf(buf, sizeof buf, " row=%ld%s %dx%d c%d%s%s cap%d", long(s.max_cols),
                        s.wide_memory_only ? "W" : "", s.packs, s.block_threads, s.cluster_blocks,
                        s.staged ? " st" : "", s.persistent ? " pe" : "", s.min_blocks_per_sm);
          key += buf;
        }
        key += " " + std::to_string(p.packs) + "p/" + std::to_string(p.group) + "t/b" +
               std::to_string(p.block_threads);
        if (key != run_key) {
          flush(cols - (phased ? 1 : 8));
          run_key = key;
          first = cols;
        }
      }
      flush(262144);
    }
  }
}
