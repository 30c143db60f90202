// expect: this is a load transform
// rf::tee writes the transformed input; piping it into a store expression must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float* out = nullptr;
  float* h = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(out) | rf::tee(h);
#else
  auto store = rf::store(out) | rf::scale(1.0f);
  (void)h;
#endif
  (void)store;
}
