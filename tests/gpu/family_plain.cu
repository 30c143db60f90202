// The softmax family (family.cuh) with the plain store chain.
#include "family.cuh"

TEST_CASE("fused softmax family, plain store, every engine") {
  check_family(hana::make_tuple(plain_store), 524);
}
