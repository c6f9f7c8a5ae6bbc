#!/usr/bin/env bash
# Soak: the chaos test (app/console/chaos_e2e_test.go) for many more turns
# than `make test` runs — the real `yui console --json` against the
# scripted hostile backend (drops, close codes, oversize, malformed,
# duplicates, late frames, floods, tool-id reuse, stop/reset/barge).
# Every turn must end; the report gives the console's goroutines, live heap
# and RSS after two warm-up cycles (the baseline) and at the end, and the
# end/baseline ratio of each, measured in the same run.
#
#   docs/bench/chaos-soak.sh [TURNS]    (default 3000; needs `make build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
turns=${1:-3000}
bin=$PWD/build/bin/yui
[ -x "$bin" ] || { echo "build the binary first: make build" >&2; exit 1; }

out=$(YUI_CONSOLE_BIN=$bin YUI_CHAOS_TURNS=$turns \
	go test -count=1 -timeout 6h -v -run '^TestConsoleChaos$' ./app/console/ 2>&1) || { echo "$out" | tail -30; exit 1; }
line=$(echo "$out" | grep -o 'chaos: .*')
echo "$out" | grep -o 'turn [0-9]* (.*) was not sent: .*' || true
echo "$out" | sed -n '/chaos log tail:/,/was not sent/p' | head -70 || true
echo "$out" | grep -o 'chaos logs: .*' || true
echo "$line"
field() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
ratio() { awk -v a="${1%%->*}" -v b="${1##*->}" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }'; }
printf 'turns %s, ended %s, refused %s, %s s\n' "$(field turns)" "$(field ended)" "$(field refused)" "$(field seconds)"
printf '%-12s %10s %10s %8s\n' measure baseline end ratio
for m in goroutines heap_mb vmrss_mb; do
	v=$(field "$m")
	printf '%-12s %10s %10s %8s\n' "$m" "${v%%->*}" "${v##*->}" "$(ratio "$v")"
done
