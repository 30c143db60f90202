// Randomized differential test of rf::log_softmax (random_differential.cuh), the stores without
// rf::cast (plain, dropout): 250 cases a run from a printed seed over 4 combos of input and output
// type, load chain and store chain. With random_differential_log_softmax_cast.cu, 500 cases a run
// for rf::log_softmax. (Two files, so that each compiles in a few minutes: every combo instantiates
// every engine.)
#include "random_differential.cuh"

namespace rd = random_differential;

TEST_CASE("random differential: log_softmax") {
  rd::run_family(rd::log_softmax_combos<rd::softmax_family<true>>(), "log_softmax", 250);
}
