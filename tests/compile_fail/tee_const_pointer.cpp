// expect: rf::tee writes its target
// rf::tee of a pointer to const must not compile: the tee writes through it.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float const* x = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  __half const* h = nullptr;
#else
  __half* h = nullptr;
#endif
  auto load = rf::load(x, 4, 8) | rf::tee(h);
  (void)load;
}
