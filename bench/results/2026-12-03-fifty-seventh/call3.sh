#!/bin/bash
# call3.sh: gpu.norm_shapes_layernorm built from main's tree at 0a9cb9d (.device-carry/s57f).
cd "$(dirname "$0")"
GROUP=s57f bash ../2026-12-01-forty-fifth/suites.sh final-suites 2>&1 | tail -8
