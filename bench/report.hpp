// What rowfuse-bench prints: the report (table, CSV or JSON) and the progress on stderr.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "device.hpp"
#include "options.hpp"

namespace bench {

/// One implementation of one case. NaN where a value does not apply (no copy measured, no
/// check made).
struct record {
  std::string op, impl, dtype;
  long rows = 0, cols = 0;
  double bytes = 0; // counted bytes
  double ms = 0, gbps = 0, copy_gbps = 0, ratio_to_copy = 0;
  int reps = 0;
  std::string check; // ok, FAIL, error or empty
  double check_err = 0;
  std::string layout; // aligned, or misaligned (--misalign): the last column of every format
};

/// The records of one case: fused, unfused and copy, those that ran.
struct case_result {
  std::vector<record> records;
  std::string check;  // ok, FAIL, error or empty (not checked)
  std::string detail; // what disagreed or failed
};

struct method {
  long elems = 0, rows = 0;
  int reps = 0;
  double budget_ms = 0;
  bool misalign = false;
};

class report {
public:
  virtual ~report() = default;
  virtual void add(case_result const& c) = 0;
  /// `notes`: what a reader must know about some rows (stand-ins, failures).
  virtual void finish(std::vector<std::string> const& notes, int agree, int disagree) = 0;
};

/// The report of `format` on `out` (not owned), with the device and the method in it.
std::unique_ptr<report> make_report(output_format format, std::FILE* out, device_info const& d,
                                    method const& m);

/// A bar with an ETA when stderr is a terminal, one line per case otherwise (logs).
class progress {
public:
  explicit progress(int total);
  void done(int index, case_result const& c);
  /// Erases the bar, so that a report on the same terminal starts on a clean line.
  void clear();
  void finish();

private:
  int total_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace bench
