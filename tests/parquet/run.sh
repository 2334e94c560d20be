#!/bin/bash
# Parquet files dlgen writes, read back by two independent readers from npm: hyparquet
# (check.mjs) and Arrow's Rust reader as WebAssembly (check-arrow.mjs): every case of
# tests/parquet/jobs, uncompressed, zstd and snappy. Needs node and npm (build.sh installs them): a
# missing reader fails the test, never skips it. Usage: run.sh DLGEN PARQUET_EXPECT WORKDIR
set -euo pipefail
dlgen=$1 expect=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "node is not installed (build.sh installs nodejs)" >&2; exit 1; }
if [ ! -d "$here/node_modules/hyparquet" ] || [ ! -d "$here/node_modules/parquet-wasm" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
rm -rf "$work"
mkdir -p "$work"
cd "$work"
for job in "$here"/jobs/*.toml; do
  name=$(basename "$job" .toml)
  for codec in none zstd snappy; do
    set_args=(--set "dataset.dir=\"$work/$name-$codec\"" --set "dataset.parquet.compression=\"$codec\"")
    "$dlgen" generate "$job" "${set_args[@]}" -q
    "$expect" "$job" "$work/expect-$name-$codec" "dataset.dir=\"$work/$name-$codec\"" \
      "dataset.parquet.compression=\"$codec\""
    node "$here/check.mjs" "$work/expect-$name-$codec"
    node "$here/check-arrow.mjs" "$work/expect-$name-$codec"
  done
done
