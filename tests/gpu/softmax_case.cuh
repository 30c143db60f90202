// One softmax or log-softmax call over a [rows, cols] view of row stride ld whose first element is
// `offset` elements into its buffers: a random input, the double-precision host reference, the
// call under any launch options, and the check of one run's output against that reference.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include "support.cuh"

namespace test {

template <class T, bool Log> struct softmax_case {
  long rows, cols, ld, offset;
  mirrored<T> x, y, y_ref;
  std::vector<double> exact;

  softmax_case(long rows_, long cols_, long ld_, long offset_, std::mt19937& rng)
      : rows(rows_), cols(cols_), ld(ld_), offset(offset_), x(size()), y(size()), y_ref(size()) {
    fill_uniform(x.host, rng);
    x.upload();
    auto const load = rf::load(x.h(offset), rows, cols, ld);
    auto const store = rf::store(y_ref.h(offset), ld);
    exact = Log ? rf::reference::log_softmax(load, store) : rf::reference::softmax(load, store);
  }

  /// The call under `options` (a dry run where options.dry_run says so).
  rf::plan operator()(rf::launch_options options) {
    auto const load = rf::load(static_cast<T const*>(x.d(offset)), rows, cols, ld);
    auto const store = rf::store(y.d(offset), ld);
    return Log ? rf::log_softmax(load, store, nullptr, options)
               : rf::softmax(load, store, nullptr, options);
  }

  /// Poisons the output, runs the call under `options`, and checks every element against the
  /// reference (log-softmax within 8e-6 absolute beside the dtype's bound) and that nothing
  /// outside the view was written.
  rf::plan run_and_check(rf::launch_options options) {
    poison(y.host);
    y.upload();
    rf::plan const p = (*this)(options);
    sync_and_check();
    INFO(rf::explain(p));
    std::vector<typename mirrored<T>::stored> const got = y.download();
    CHECK_MATCHES(compare(got, exact, rows, cols, ld, offset, Log ? 8e-6 : 0.0));
    CHECK(-1 == written_outside(got, rows, cols, ld, offset));
    return p;
  }

private:
  std::size_t size() const { return std::size_t(offset + rows * ld + 8); }
};

} // namespace test
