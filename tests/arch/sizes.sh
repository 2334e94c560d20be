#!/bin/bash
# Keeps functions small and files to one responsibility (docs/architecture.md, "Small functions"):
# fails when a function of the C++ sources (*/src, */include, cli/) or of the BPF programs (C,
# tracer/bpf) is over 80 lines or a file over 600, as universal-ctags delimits them (a function's
# lines run from its signature to its closing brace, lambdas inside it included). A known
# exception is listed in allowed.txt with why; an entry that no longer applies is named, so that
# it can be dropped.
#   sizes.sh [SOURCE_DIR]
set -euo pipefail
root=$(realpath "${1:-$(dirname "$0")/../..}")
allowed="$(dirname "$(realpath "$0")")/allowed.txt"
max_function=80
max_file=600
command -v ctags >/dev/null || { echo "sizes.sh: universal-ctags is not installed" >&2; exit 1; }
cd "$root"
mapfile -t cxx < <(find cli */src */include -type f \( -name '*.cpp' -o -name '*.hpp' \) \
                     -not -path 'tests/*' -not -path 'bench/*' -not -path 'build*' | sort)
mapfile -t bpf < <(find tracer/bpf -type f \( -name '*.c' -o -name '*.h' \) | sort)
# libbpf's program macros, BPF_PROG(name, args...) and its kin, read as the functions they define
# (else every program is a function named BPF_PROG).
bpf_macros=()
for m in BPF_PROG BPF_KPROBE BPF_KRETPROBE BPF_UPROBE BPF_URETPROBE BPF_KSYSCALL; do
  bpf_macros+=(-D "$m(name,...)=name(__VA_ARGS__)")
done
over=$(
  {
    {
      ctags --languages=C++ --kinds-C++=f --fields=+ne -o - "${cxx[@]}"
      ctags --languages=C --langmap=C:.c.h --kinds-C=f --fields=+ne "${bpf_macros[@]}" -o - "${bpf[@]}"
    } |
      awk -F'\t' -v max="$max_function" '{
        line = ""; end = "";
        for (i = 3; i <= NF; i++) {
          if ($i ~ /^line:/) line = substr($i, 6);
          if ($i ~ /^end:/) end = substr($i, 5);
        }
        name = $1;
        gsub(/ /, "", name);  # "operator ()" -> "operator()"
        if (line != "" && end != "" && end - line + 1 > max && name !~ /^__anon/)
          printf "function %s %s %d\n", $2, name, end - line + 1;
      }'
    wc -l "${cxx[@]}" "${bpf[@]}" | awk -v max="$max_file" '$2 != "total" && $1 > max { printf "file %s - %d\n", $2, $1 }'
  } | sort -u
)
# Whether the lines on stdin hold KIND FILE NAME as their first three fields.
listed() { awk -v k="$1" -v f="$2" -v n="$3" '$1 == k && $2 == f && $3 == n { found = 1 } END { exit !found }'; }
status=0
while read -r kind file name lines; do
  [ -n "$kind" ] || continue
  if ! listed "$kind" "$file" "$name" <"$allowed"; then
    if [ "$kind" = file ]; then
      echo "$file: $lines lines, over $max_file: split it by responsibility"
    else
      echo "$file: $name is $lines lines, over $max_function: split it into named steps"
    fi
    echo "  (or list it in tests/arch/allowed.txt, saying why it stays so)"
    status=1
  fi
done <<<"$over"
while read -r kind file name _; do
  case "$kind" in function | file) ;; *) continue ;; esac
  if ! listed "$kind" "$file" "$name" <<<"$over"; then
    echo "note: tests/arch/allowed.txt: $kind $file $name is within its limit now: drop the entry"
  fi
done <"$allowed"
exit $status
