#!/bin/bash
# call74h.sh: call74a.sh and call74b.sh in one call (carry .device-carry/t74 and t74b), for a card
# other than the H100 that ran call74a (an H200: V92's and V95's plans move there).
cd "$(dirname "$0")"
bash call74a.sh; bash call74b.sh
