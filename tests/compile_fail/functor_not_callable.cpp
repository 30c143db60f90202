// expect: a user transform must be callable as
// A user functor that cannot be called with a float (here: it wants a string) must not compile.
#include <string>

#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float const* x = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto f = [](std::string const& s) { return float(s.size()); };
#else
  auto f = [](float v) { return v * 2.0f; };
#endif
  auto load = rf::load(x, 4, 8) | f;
  (void)load;
}
