#!/usr/bin/env bash
# Golden outputs: what dlgen prints for fixed inputs, recorded before the architecture step
# (issue 19) moved code, and kept identical since. A change of behaviour shows here as a diff; a
# deliberate one is recorded again with `golden.sh record DLGEN` and reviewed in the commit.
#
#   golden.sh check  DLGEN   compare with tests/golden/expected (exit 1 and the diff when not equal)
#   golden.sh record DLGEN   write tests/golden/expected anew
#
# What is recorded (every command runs in an empty temporary directory, so relative dataset paths
# and "dataset missing" lines are the same everywhere):
# - `run --dry-run -o plan.json` and its text of every shipped job (and each job's scales) and of
#   every DLIO config in tests/data/dlio, its v3.0/ (MLPerf Storage v3.0) and upstream/ (DLIO's
#   own); `validate` of every shipped job;
# - `convert` of each of those DLIO configs to a job, and of every shipped job to DLIO YAML;
# - `distil --json` and the distilled job of every committed trace (tests/data/**/*.h5);
# - `compare --json` of a fixed pair of committed traces (the same program captured with and
#   without its CUDA probes);
# - the key paths (not the values: they are timings) of `run -o`, `--dlio-summary` and the
#   checkpoint-only run's result JSON, from runs on the null engine;
# - `--help` of every verb and the exit code and message of bad flags.
set -uo pipefail
mode=${1:?usage: golden.sh check|record DLGEN}
dlgen=$(realpath "${2:?usage: golden.sh check|record DLGEN}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${DLGEN_PYTHON:-/usr/bin/python3}
expected="$here/expected"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/out"
mkdir -p "$out"
export DLGEN_NO_PROGRESS=1
# The inputs are copied to <in>: outputs name them by that path wherever the checkout is, while
# paths recorded inside the committed traces (their capture host's) stay as they are.
in="$work/in"
mkdir -p "$in/tests"
cp -r "$repo/jobs" "$in/jobs"
cp -r "$repo/tests/data" "$in/tests/data"

# run NAME CMD...: stdout+stderr and exit code of CMD, run in an empty directory, into out/NAME,
# with the inputs' and this run's paths written as <in> and <tmp>, the binary's as dlgen.
run() {
  local name=$1
  shift
  local cwd="$work/cwd"
  rm -rf "$cwd" && mkdir -p "$cwd"
  local rc
  (cd "$cwd" && "$@") >"$out/$name" 2>&1
  rc=$?
  echo "exit $rc" >>"$out/$name"
  # Files the command wrote in its directory come along (plans, jobs, results).
  for f in "$cwd"/*; do
    [ -f "$f" ] || continue
    cp "$f" "$out/$name.$(basename "$f")"
  done
  sed -i -e "s#$dlgen#dlgen#g" -e "s#$in#<in>#g" -e "s#$work#<tmp>#g" "$out/$name" "$out/$name".* \
    2>/dev/null
  return 0
}

# keys FILE: the sorted key paths of a JSON document (arrays as [], so counts do not matter).
keys() {
  "$python" - "$1" <<'EOF'
import json, sys
paths = set()
def walk(v, p):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, p + "." + k)
    elif isinstance(v, list):
        for x in v:
            walk(x, p + "[]")
        if not v:
            paths.add(p + "[]")
    else:
        paths.add(p + ":" + type(v).__name__.replace("int", "number").replace("float", "number"))
walk(json.load(open(sys.argv[1])), "")
print("\n".join(sorted(paths)))
EOF
}

for job in "$in"/jobs/*.toml; do
  n=$(basename "$job" .toml)
  run "plan-$n" "$dlgen" run "$job" --dry-run -o plan.json
  run "validate-$n" "$dlgen" validate "$job"
  run "to-dlio-$n" "$dlgen" convert "$job" --to dlio
  for s in $(grep -o '^\[scales\.[A-Za-z0-9_-]*\]' "$job" | sed 's/\[scales\.\(.*\)\]/\1/'); do
    run "plan-$n-$s" "$dlgen" run "$job" --scale "$s" --dry-run -o plan.json
  done
done
for cfg in "$in"/tests/data/dlio/*.yaml; do
  n=$(basename "$cfg" .yaml)
  run "plan-dlio-$n" "$dlgen" run "$cfg" --dry-run -o plan.json
  run "convert-$n" "$dlgen" convert "$cfg"
done
# The configs of a round or a source in their own folder (MLPerf Storage v3.0's, DLIO's own),
# named <folder>-<config> so that a config of the same name in another folder is not overwritten.
for cfg in "$in"/tests/data/dlio/v3.0/*.yaml "$in"/tests/data/dlio/upstream/*.yaml; do
  n=$(basename "$(dirname "$cfg")")-$(basename "$cfg" .yaml)
  run "plan-dlio-$n" "$dlgen" run "$cfg" --dry-run -o plan.json
  run "convert-$n" "$dlgen" convert "$cfg"
done
while IFS= read -r trace; do
  n=$(echo "${trace#"$in"/tests/data/}" | tr '/' '-')
  n=${n%.h5}
  run "distil-$n" "$dlgen" distil "$trace" --json
  run "job-$n" "$dlgen" distil "$trace" -o job.toml
  run "inspect-$n" "$dlgen" inspect --json "$trace"
done < <(find "$in/tests/data" -name '*.h5' | sort)
run compare-imagenet "$dlgen" compare "$in/tests/data/gpu/imagenet.h5" \
  "$in/tests/data/gpu/cuda/imagenet.h5" --json

# Result JSON key paths from real (null-engine) runs of a small job.
cat >"$work/tiny.toml" <<EOF
[job]
name = "tiny"
[dataset]
dir = "$work/tiny-data"
num_files = 16
file_size = "64KiB"
format = "npz"
[reader]
batch_size = 4
workers = 2
[compute]
time = "1ms"
[run]
epochs = 2
accelerators = 2
[checkpoint]
dir = "$work/tiny-ckpt"
every_epochs = 1
size = "1MiB"
EOF
run result-tiny "$dlgen" run "$work/tiny.toml" --engine null -q -o result.json \
  --dlio-summary summary.json
for f in result.json summary.json; do
  if [ -f "$out/result-tiny.$f" ]; then
    keys "$out/result-tiny.$f" >"$out/keys-$f"
  else
    echo "missing" >"$out/keys-$f"
  fi
  rm -f "$out/result-tiny.$f"
done
# The run's own lines are timings: only its exit code is kept.
tail -n 1 "$out/result-tiny" >"$out/result-tiny.exit" && rm -f "$out/result-tiny"

# The CLI's own behaviour.
run help "$dlgen" --help
for verb in run generate mlperf convert validate capture inspect export distil compare fidelity; do
  run "help-$verb" "$dlgen" "$verb" --help
done
run bad-flag "$dlgen" run --no-such-flag
run bad-verb "$dlgen" frobnicate
run no-verb "$dlgen"

case "$mode" in
  record)
    rm -rf "$expected"
    cp -r "$out" "$expected"
    echo "golden.sh: recorded $(ls "$expected" | wc -l) outputs in $expected"
    ;;
  check)
    if diff -ru "$expected" "$out" >"$work/diff"; then
      echo "golden.sh: $(ls "$expected" | wc -l) outputs identical"
    else
      grep -E "^(diff -ru|Only in)" "$work/diff" | sed "s|$out|<out>|; s|$expected|<expected>|" >&2
      head -c 20000 "$work/diff"
      echo
      echo "golden.sh: outputs differ from tests/golden/expected (a deliberate change:" \
        "tests/golden/golden.sh record DLGEN, and say why in the commit)"
      exit 1
    fi
    ;;
  *)
    echo "usage: golden.sh check|record DLGEN" >&2
    exit 2
    ;;
esac
