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

exec 3> "$work/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null &
for _ in $(seq 50); do [ -s "$work/displayfd" ] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$work/displayfd")"
"$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 --settings >/dev/null 2>&1 &
core=$!
sleep "${YUI_SETTLE:-20}"

tree() { local p=$1; echo "$p"; for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do tree "$c"; done; }
rss_kb() { local s=0; for p in "$@"; do s=$((s + $(awk '/VmRSS/{print $2}' /proc/"$p"/status 2>/dev/null || echo 0))); done; echo $s; }
pss_kb() { local s=0; for p in "$@"; do s=$((s + $(awk '/^Pss:/{print $2}' /proc/"$p"/smaps_rollup 2>/dev/null || echo 0))); done; echo $s; }
ticks() { local s=0; for p in "$@"; do s=$((s + $(awk '{print $14+$15}' /proc/"$p"/stat 2>/dev/null || echo 0))); done; echo $s; }

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
