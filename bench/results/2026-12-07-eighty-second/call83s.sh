#!/bin/bash
# call83s.sh [doctest filter args]: gpu.phased_rows built from main at 614338d (release, SASS sm_90:
# carry .device-carry/t83), or the one SUITE names (a folder under .device-carry: t83v, V83a's with
# 240001 columns in the residual case), the cases the arguments select, each case's seconds
# (--duration); its log in $OUT/$LOG.log. call83a.sh's suite half, split so that each half fits a
# call's 600 s.
cd "$(dirname "$0")"; R=$PWD/../../..; L=${LOG:-phased83}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
s=$(date +%s)
$R/.device-carry/${SUITE:-t83}/gpu_phased_rows --duration=true "$@" > $OUT/$L.log 2>&1; rc=$?
echo "rc $rc, $(($(date +%s) - s)) s"; date +%T
grep -E 'test cases:|assertions:|ERROR|FAILED|Status|s:' $OUT/$L.log | tail -30; exit $rc
