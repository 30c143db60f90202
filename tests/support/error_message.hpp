// What a call throws, for the tests of bad input: host and GPU suites share it.
#pragma once

#include <exception>
#include <string>

#include <rowfuse/error.hpp>

namespace test {

/// what() of the rowfuse::error `f` throws, or a marker that it threw something else or nothing
/// (so that a check for a message fails with what happened instead).
template <class F> std::string error_message(F&& f) {
  try {
    f();
  } catch (rowfuse::error const& e) {
    return e.what();
  } catch (std::exception const& e) {
    return std::string("<not a rowfuse::error: ") + e.what() + ">";
  }
  return "<no exception>";
}

} // namespace test
