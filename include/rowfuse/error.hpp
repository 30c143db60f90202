// rowfuse::error: the one exception the library throws, and the argument checks that raise it.
#pragma once

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rowfuse {

/// Thrown for bad arguments (naming the call, the argument and its value) and for CUDA
/// failures (naming the op and the shape). Nothing in rowfuse aborts or returns a silent
/// wrong answer instead.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {

/// "rowfuse: " and the parts, streamed: the text of a rowfuse::error.
template <class... Parts> std::string message(Parts const&... parts) {
  std::ostringstream text;
  text << "rowfuse: ";
  (text << ... << parts);
  return text.str();
}

template <class... Parts> [[noreturn]] void fail(Parts const&... parts) {
  throw error(message(parts...));
}

/// `require(ok, "rf::softmax", "cols", cols, "must be >= 0")` throws
/// "rowfuse: rf::softmax: cols = -3 must be >= 0".
template <class Value>
void require(bool ok, char const* where, char const* argument, Value const& value,
             char const* requirement) {
  if (!ok)
    fail(where, ": ", argument, " = ", value, " ", requirement);
}

/// The norms' eps, on the GPU ops and in the host reference alike.
inline void check_eps(char const* where, float eps) {
  require(eps > 0.0f && std::isfinite(eps), where, "eps", eps, "must be finite and > 0");
}

} // namespace detail
} // namespace rowfuse
