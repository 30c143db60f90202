// expect: a user transform must be a copyable functor
// A user functor is passed to the kernel by value: a move-only one must not compile.
#include <memory>

#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float const* x = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto f = [owned = std::make_unique<float>(2.0f)](float v) { return v * *owned; };
#else
  auto f = [factor = 2.0f](float v) { return v * factor; };
#endif
  auto load = rf::load(x, 4, 8) | f;
  (void)load;
}
