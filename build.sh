#!/usr/bin/env bash
# dlgen's one-step set-up: installs the Debian packages it needs (apt-get, only what is missing),
# configures and builds, then either runs the main job on a small scale or runs every test.
#
#   ./build.sh demo    install + build + `dlgen run jobs/unet3d.toml --scale small`
#   ./build.sh test    install + build + all tests (ctest: unit tests nproc at a time, then the rest
#                      one at a time), then the fuzz step (tests/fuzz/run_fuzz.sh:
#                      clang build of the libFuzzer targets, corpus and regressions replayed, each
#                      target fuzzed FUZZ_SECONDS, default 20); CI calls this (.ci/run)
#   ./build.sh build   install + build only
#
# Environment: BUILD_DIR (default build), DLGEN_SKIP_INSTALL=1 to skip apt-get, DLGEN_SKIP_FUZZ=1 to
# skip the fuzz step.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-build}
build_dir=${BUILD_DIR:-build}

packages=(
  cmake ninja-build pkg-config g++ clang llvm libclang-rt-14-dev lld
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libyaml-cpp-dev
  liburing-dev libbpf-dev bpftool libelf-dev zlib1g-dev libcurl4-openssl-dev
  libhdf5-dev libturbojpeg0-dev libzstd-dev libsnappy-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  python3 python3-torch python3-numpy python3-h5py python3-pil python3-lmdb
  fio chromium nodejs
  python3-swift memcached python3-boto3
  universal-ctags
)
# Parquet files are checked by independent readers from npm (tests/parquet); Debian packages npm
# apart from nodejs, a NodeSource nodejs brings its own.
command -v npm >/dev/null 2>&1 || packages+=(npm)

install_packages() {
  [ "${DLGEN_SKIP_INSTALL:-0}" = 1 ] && return 0
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "build.sh: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build_dir" -j"$(nproc)"
}

case "$mode" in
  demo)
    install_packages
    build
    # The dataset lands in ./data/unet3d (dlgen writes a manifest there and reuses it next time).
    exec "$build_dir/dlgen" run jobs/unet3d.toml --scale small --output "$build_dir/unet3d-small.json"
    ;;
  test)
    install_packages
    build
    rc=0
    # The independent Parquet readers (tests/parquet), from npm's lockfile.
    if command -v npm >/dev/null 2>&1; then
      (cd tests/parquet && npm ci --no-audit --no-fund --loglevel=error) || rc=1
    fi
    # Unit tests (label unit: fake clocks, no timing, own temporary folders) run nproc at a time;
    # then every other test (e2e, privileged: real programs, real time) runs alone, as before.
    logs="$build_dir/Testing/Temporary"
    (cd "$build_dir" && ctest -L '^unit$' -j"$(nproc)" --output-on-failure --timeout 600) || rc=$?
    cp "$logs/LastTest.log" "$logs/LastTest-unit.log"
    (cd "$build_dir" && ctest -LE '^unit$' --output-on-failure --timeout 600) || rc=$?
    # Which tests skipped and why; where this host is root with io_uring and BPF, any skip fails.
    bash tests/report_skips.sh "$build_dir" "$logs/LastTest-unit.log" "$logs/LastTest.log" || rc=1
    # libFuzzer targets (clang): corpus and regressions replayed, then each fuzzed briefly.
    if [ "${DLGEN_SKIP_FUZZ:-0}" != 1 ]; then tests/fuzz/run_fuzz.sh || rc=1; fi
    exit "$rc"
    ;;
  build)
    install_packages
    build
    ;;
  *)
    echo "usage: $0 demo|test|build" >&2
    exit 2
    ;;
esac
