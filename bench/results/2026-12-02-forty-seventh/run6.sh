#!/bin/bash
# run6.sh: on the device, the GPU suites of .device-carry/$GROUP (built on the development machine
# from main with the rows of this session), ../2026-12-01-forty-fifth/suites.sh as DIR/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth" && bash suites.sh "$1"
