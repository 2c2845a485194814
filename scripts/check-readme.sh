#!/usr/bin/env bash
# check-readme.sh FILE...: runs every command of the ```sh blocks of each
# FILE as written, from the repository's root, and fails on the first that
# exits otherwise than it says. A line ending in "# exit N" must exit N; any
# other must exit 0. The set-up commands (go run, go test) are CI's own steps
# and are left out here. The commands' /tmp/ is a fresh folder of the run's
# own, removed at the end, so that nothing an earlier run left there (a
# database of an older format, say) decides the outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0
for file in "$@"; do
  # The lines of the sh blocks, one command a line.
  while IFS= read -r line; do
    case "$line" in
      "" | "#"* | "go run "* | "go test "*) continue ;;
    esac
    want=0
    if [[ "$line" =~ \#\ exit\ ([0-9]+) ]]; then
      want=${BASH_REMATCH[1]}
    fi
    set +e
    timeout 600 bash -c "${line//\/tmp\//$scratch/}" >"$scratch/check-readme.out" 2>&1
    got=$?
    set -e
    if [ "$got" -ne "$want" ]; then
      echo "FAIL $file: exit $got, want $want: $line"
      tail -5 "$scratch/check-readme.out"
      fail=1
    else
      echo "ok   $file: $line"
    fi
  done < <(awk '/^```sh$/ {on=1; next} /^```/ {on=0} on' "$file")
done
exit $fail
