#!/usr/bin/env bash
# Renders a dlgen fidelity report in headless Chromium (Debian's `chromium` package) and saves a
# PNG, to check by eye that the inline SVG plots draw. Usage:
#   bench/report/screenshot.sh REPORT.html [OUT.png]
#   bench/report/screenshot.sh ORIGINAL.h5 REPLAY.h5 [OUT.png]   (runs `dlgen compare --report` first)
# DLGEN (default: build/dlgen) names the binary for the second form.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dlgen=${DLGEN:-$here/build/dlgen}
if [ $# -lt 1 ]; then
  echo "usage: $0 REPORT.html [OUT.png] | ORIGINAL.h5 REPLAY.h5 [OUT.png]" >&2
  exit 2
fi
if [[ "$1" == *.html ]]; then
  report=$(realpath "$1")
  out=${2:-fidelity.png}
else
  [ $# -ge 2 ] || { echo "$0: need ORIGINAL.h5 and REPLAY.h5" >&2; exit 2; }
  report=$(mktemp --suffix=.html)
  # compare exits 1 when the replay is not faithful; the report is written either way.
  "$dlgen" compare "$1" "$2" --report "$report" -q || [ $? -eq 1 ]
  out=${3:-fidelity.png}
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "$0: chromium not installed (apt-get install chromium)" >&2
  exit 77
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
out=$(realpath -m "$out")
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --user-data-dir="$profile" --screenshot="$out" --window-size=1200,2400 \
  "file://$report" >/dev/null 2>&1
[ -s "$out" ] || { echo "$0: chromium wrote no screenshot" >&2; exit 1; }
echo "$out"
