# shellcheck shell=bash
# What the bench/gpu/device_*.sh scripts share: their knobs' defaults, the steps under `timeout`
# against one deadline, captures, host facts, the summary of the programs' logs, packing $OUT.
# Sourced first, after the script has set NAME (its folders: /tmp/dlgen-NAME and
# /tmp/dlgen-NAME-out) and DEADLINE_DEFAULT (seconds).
#
# Knobs (environment): OUT (default /tmp/dlgen-NAME-out; the device tool sets it), DEVICE=cuda|cpu,
# DLGEN (default .gpu/dlgen), WORK (datasets and checkpoints, default /tmp/dlgen-NAME), DEADLINE_S
# (default DEADLINE_DEFAULT), PYTHON (default python3; PYTHON=/usr/bin/python3 where python3 is not
# the one with torch), DLGEN_CUDA_LIB (below).
START=$(date +%s)
OUT=${OUT:-/tmp/dlgen-$NAME-out}
DEVICE=${DEVICE:-cuda}
DLGEN=${DLGEN:-.gpu/dlgen}
WORK=${WORK:-/tmp/dlgen-$NAME}
DEADLINE_S=${DEADLINE_S:-$DEADLINE_DEFAULT}
LOGS=$OUT/logs
SUMMARY=$OUT/summary.txt
mkdir -p "$OUT" "$LOGS" "$WORK"
: >"$SUMMARY"
# The traced programs get the host's own libraries (the dlgen wrapper sets LD_LIBRARY_PATH for itself).
PYTHON=${PYTHON:-python3}
PY=(env -u LD_LIBRARY_PATH "$PYTHON")

# DLGEN_CUDA_LIB: the libcuda.so.1 capture attaches its uprobes to (default: the device tool's
# /usr/local/nvidia/lib64 copy, else ldconfig's).
if [ -z "${DLGEN_CUDA_LIB:-}" ]; then
  if [ -e /usr/local/nvidia/lib64/libcuda.so.1 ]; then
    DLGEN_CUDA_LIB=/usr/local/nvidia/lib64/libcuda.so.1
  else
    DLGEN_CUDA_LIB=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
  fi
fi
export DLGEN_CUDA_LIB

say() { echo "$*" | tee -a "$SUMMARY"; }
left() { echo $((DEADLINE_S - ($(date +%s) - START))); }

# step NAME LIMIT_S CMD...: run CMD under timeout (LIMIT_S, cut to what is left before the deadline,
# keeping 25 s for packing), stdout+stderr to logs/NAME.out, nvidia-smi samples every 200 ms to
# logs/NAME.smi.csv; one summary line.
step() {
  local name=$1 limit=$2
  shift 2
  local budget=$(($(left) - 25))
  if [ "$budget" -lt 15 ]; then
    say "$(printf '%-26s skipped (%ss left of DEADLINE_S)' "$name" "$(left)")"
    return 0
  fi
  [ "$limit" -gt "$budget" ] && limit=$budget
  local smi_pid=
  if [ "$DEVICE" != cpu ] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,utilization.gpu,utilization.memory,memory.used,power.draw \
      --format=csv,nounits -lms 200 >"$LOGS/$name.smi.csv" 2>/dev/null &
    smi_pid=$!
  fi
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 10 "$limit" "$@" >"$LOGS/$name.out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  [ -n "$smi_pid" ] && kill "$smi_pid" 2>/dev/null && wait "$smi_pid" 2>/dev/null
  say "$(printf '%-26s rc %-3s wall %7.2f s (limit %s s)' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$limit")"
  [ "$rc" -ne 0 ] && tail -n 5 "$LOGS/$name.out" | sed 's/^/    | /' | tee -a "$SUMMARY"
  return 0
}

# capture NAME LIMIT_S PROGRAM ARGS...: the program under dlgen capture into $OUT/NAME.h5.
capture() {
  local name=$1 limit=$2
  shift 2
  step "$name.captured" "$limit" "$DLGEN" capture -o "$OUT/$name.h5" --json-out "$LOGS/$name.capture.json" \
    -- "${PY[@]}" "$@"
}

# host_facts: kernel, CPUs, memory, Python packages, the GPU (logs/host.txt, logs/nvidia-smi*.txt).
host_facts() {
  {
    uname -a; nproc; free -g; df -h /tmp
    "${PY[@]}" -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, "cuda", torch.version.cuda,
"available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")'
    "${PY[@]}" -c 'import torchvision; print("torchvision", torchvision.__version__)' 2>&1 | tail -n 1
    "${PY[@]}" -c 'import numpy, PIL; print("numpy", numpy.__version__, "PIL", PIL.__version__)'
    ls -l "$DLGEN" "$DLGEN_CUDA_LIB" 2>&1
  } >"$LOGS/host.txt" 2>&1
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi >"$LOGS/nvidia-smi.txt" 2>&1
    nvidia-smi -q 2>&1 | head -n 80 >"$LOGS/nvidia-smi-q.txt"
    say "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
  fi
  grep -E '^(torch|torchvision)' "$LOGS/host.txt" | tee -a "$SUMMARY"
}

# summarize: one line per ground-truth log (logs/*.log) and per capture, and step_times.json's table
# when there is one (bench/gpu/summarize_logs.py).
summarize() {
  "${PY[@]}" "$(dirname "${BASH_SOURCE[0]}")/summarize_logs.py" "$LOGS" "$OUT" 2>&1 | tee -a "$SUMMARY"
}

# pack: traces over 15 MB gzipped (and left in $WORK if still too big), the logs in one tarball.
pack() {
  local h5 size
  for h5 in "$OUT"/*.h5; do
    [ -e "$h5" ] || continue
    size=$(stat -c %s "$h5")
    if [ "$size" -gt 15000000 ]; then
      gzip -1 "$h5"
      [ "$(stat -c %s "$h5.gz")" -gt 16000000 ] && mv "$h5.gz" "$WORK/" && say "$(basename "$h5"): $size B, too big to bring back (left in $WORK)"
    fi
  done
  ls -l "$OUT" | tee -a "$SUMMARY"
  cp "$SUMMARY" "$LOGS/summary.txt"
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$LOGS"
  say "total $(($(date +%s) - START)) s"
}
