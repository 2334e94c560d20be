#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in their own build directory, replays each target's seed
# corpus and every kept crash (tests/fuzz/regressions/<target>/), then fuzzes each target briefly
# (FUZZ_SECONDS each, up to nproc targets at once, each on its own core).
# Called by `build.sh test`; a crash fails the run and leaves its input in $dir/fuzz-artifacts/
# (keep it as tests/fuzz/regressions/<target>/<name>, as text where the target reads text).
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_SECONDS per target (default 20).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${FUZZ_BUILD_DIR:-build-fuzz}
secs=${FUZZ_SECONDS:-20}
targets=(job_toml trace_text trace_h5)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLGEN_FUZZ=ON \
  -DDLGEN_BUILD_TESTS=OFF -DDLGEN_BUILD_BENCH=OFF -DDLGEN_WITH_BPF=OFF "${launcher[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" fuzz_h5_seeds

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts="$dir/fuzz-artifacts"
mkdir -p "$artifacts"
"$dir/tests/fuzz/fuzz_h5_seeds" tests/fuzz/corpus/trace_text "$work/seeds-trace_h5"
# The HDF5 target's regressions: the text target's, written as HDF5 traces (no binary files kept).
"$dir/tests/fuzz/fuzz_h5_seeds" tests/fuzz/regressions/trace_text "$work/regressions-trace_h5"

# Each target fuzzes on its own core: up to nproc targets at once, each for the full $secs.
fuzz_one() {
  local t=$1 bin="$dir/tests/fuzz/fuzz_$1" seeds="tests/fuzz/corpus/$1"
  [ "$t" = trace_h5 ] && seeds="$work/seeds-$t"
  # New inputs go to a scratch copy of the seeds, never into the tree.
  mkdir -p "$work/corpus-$t"
  cp "$seeds"/* "$work/corpus-$t"/
  echo "run_fuzz.sh: $t: fuzzing for ${secs}s" >&2
  "$bin" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "$work/corpus-$t" 2>"$work/$t-fuzz.log" ||
    { tail -n 80 "$work/$t-fuzz.log" >&2; echo "run_fuzz.sh: $t: crash kept in $artifacts/" >&2; return 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$t-fuzz.log" | sed "s/^/  $t: /" >&2 || true
}

for t in "${targets[@]}"; do
  bin="$dir/tests/fuzz/fuzz_$t"
  seeds="tests/fuzz/corpus/$t"
  [ "$t" = trace_h5 ] && seeds="$work/seeds-$t"
  inputs=("$seeds")
  [ -d "tests/fuzz/regressions/$t" ] && inputs+=("tests/fuzz/regressions/$t")
  [ "$t" = trace_h5 ] && inputs+=("$work/regressions-$t")
  echo "run_fuzz.sh: $t: replaying ${inputs[*]}" >&2
  "$bin" -runs=0 "${inputs[@]}" 2>"$work/$t-replay.log" || { cat "$work/$t-replay.log" >&2; exit 1; }
done

failed=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$(nproc)" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ "$failed" = 0 ] || exit 1
echo "run_fuzz.sh: every target ran ${secs}s without a crash; corpus and regressions replayed" >&2
