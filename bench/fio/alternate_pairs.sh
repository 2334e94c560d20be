#!/bin/bash
# Alternated before/after pairs of two dlgen binaries (bench/README.md §10): five pairs, the order
# flipped every pair so drift on a shared machine falls on both sides.
# Usage: bench/fio/alternate_pairs.sh OLD_DLGEN NEW_DLGEN [PAIRS]
set -euo pipefail
old=$1 new=$2 pairs=${3:-5}
cd "$(dirname "$0")/../.."
for ((i = 1; i <= pairs; i++)); do
  if ((i % 2)); then order="old new"; else order="new old"; fi
  for w in $order; do
    if [ "$w" = old ]; then bin=$old; else bin=$new; fi
    echo "=== pair $i $w $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    python3 bench/fio/bench.py --dlgen "$bin" --dir /var/tmp/dlgen-bench --runs 1 \
      small-files-warm randread4k-default engines-direct
  done
done
