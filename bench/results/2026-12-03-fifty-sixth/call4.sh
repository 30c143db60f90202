#!/bin/bash
# call4.sh: on the device, (1) single elements of main (M) against the final tree (F: the sized row
# from 1025 columns, experiment and runtime both built from that tree) [single.sh]; (2) the GPU
# suites this session changed (gpu.sized_blocks, gpu.phased_rows), built here from the final tree
# (SASS sm_90), under ctest (../2026-12-01-forty-fifth/suites.sh).
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
PACK=pack4.txz bash single.sh call4-single M F
mkdir -p $R/.device-carry/s56t && tar xf $R/.device-carry/s56/tests.txz -C $R/.device-carry/s56t
cd ../2026-12-01-forty-fifth && GROUP=s56t bash suites.sh s56-suites
