// rowfuse-bench's command line.
#pragma once

#include <string>
#include <vector>

namespace bench {

enum class output_format { table, csv, json };

struct options {
  std::vector<std::string> ops;    // empty: every registered op and pipeline
  std::vector<std::string> dtypes; // empty: fp32, fp16, bf16
  std::vector<long> cols;
  long rows = 0;         // 0: elems / cols
  long elems = 1L << 27; // ../shared/GPU.md: far past the L2
  bool fused = true, unfused = true, copy = true;
  bool check = true; // compare fused against unfused (needs both)
  /// Every tensor and per-column vector one element past a 16-byte boundary and row stride
  /// ld = cols + 1, so that no 16-byte access is possible: the library's narrow-pack fallbacks.
  bool misalign = false;
  output_format format = output_format::table;
  std::string out; // empty: stdout
  int reps = 20;
  double budget_ms = 300; // per implementation and case; fewer reps past it (at least 5)
  bool list = false;
};

/// Parses argv; prints usage and exits 0 on --help, prints the problem and exits 2 on a bad
/// argument.
options parse_options(int argc, char** argv);

/// "32:1024,3000" -> 32 64 128 256 512 1024 3000: a:b is every power of two from a to b;
/// counts take k (x1024), M (x2^20) and 2^n. Sorted, without repeats. Throws
/// std::invalid_argument.
std::vector<long> parse_cols(std::string const& spec);
long parse_count(std::string const& text);

} // namespace bench
