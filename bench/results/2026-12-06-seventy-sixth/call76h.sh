#!/bin/bash
# call76h.sh: on whichever card comes, in one call: on an H200 first the seventy-fifth session's
# call75d.sh (main before V105 against V105: log-softmax aligned where an H200 now plans from the
# H100's 65536-column row); then call76a.sh (this session's A/Bs) and call76s.sh (the GPU suites
# built with VL, gpu.phased_rows on its layernorm cases). Carry .device-carry/t75d, t76a and t76s.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && bash ../2026-12-06-seventy-fifth/call75d.sh
bash call76a.sh
bash call76s.sh
