#!/usr/bin/env bash
# Measures the settings window under Xvfb: its process tree's memory (the
# window process plus its WebKit children) and the CPU the tree uses while
# the form sits open and untouched, over a window of seconds (default 30).
# Usage: docs/bench/settings-window.sh [seconds] [binary]
set -euo pipefail
secs=${1:-30}
bin=$(realpath "${2:-build/bin/yui}")
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

. "$(dirname "$0")/proc.sh"
start_display "$work"
"$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 --settings >/dev/null 2>&1 &
core=$!
sleep "${YUI_SETTLE:-20}"


settings=""
for c in $(cat /proc/$core/task/*/children); do
  if tr '\0' ' ' < /proc/$c/cmdline | grep -q -- '--role settings'; then settings=$c; fi
done
[ -n "$settings" ] || { echo "no settings window process" >&2; exit 1; }
wtree=$(tree $settings)
echo "settings window tree: RSS $(( $(rss_kb $wtree) / 1024 )) MiB, PSS $(( $(pss_kb $wtree) / 1024 )) MiB ($(echo $wtree | wc -w) processes: $(for p in $wtree; do cat /proc/$p/comm; done | tr '\n' ' '))"
hz=$(getconf CLK_TCK)
t0=$(ticks $wtree); sleep "$secs"; t1=$(ticks $wtree)
awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$secs" 'BEGIN { printf "settings window tree CPU at rest: %.2f %% of one core over %d s\n", 100 * d / hz / s, s }'
