#!/bin/bash
# call71j.sh: call71i.sh (the GPU suites, .device-carry/s81) then call71h.sh (N against M3, M3
# against V66, .device-carry/s80) on one machine, for a lease that may give one call only.
cd "$(dirname "$0")"
bash call71i.sh
bash call71h.sh
