// Randomized differential test of rf::layernorm (random_differential.cuh), the stores without
// rf::cast (plain, dropout): 250 cases a run from a printed seed over 4 combos of input and output
// type, load chain and store chain (gamma and beta types or no affine, mean and rstd saved where a
// case asks). With random_differential_layernorm_cast.cu, 500 cases a run for rf::layernorm. (Two
// files, so that each compiles in a few minutes: every combo instantiates every engine.)
#include "random_differential.cuh"

namespace rd = random_differential;

TEST_CASE("random differential: layernorm") {
  rd::run_family(rd::layernorm_combos<rd::norm_family<true>>(), "layernorm", 250);
}
