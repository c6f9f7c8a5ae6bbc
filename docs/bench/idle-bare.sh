#!/usr/bin/env bash
# Issue 24's idle figure: Yui's whole tree at rest (core, pet window and its
# WebKit processes) against a bare Wails window with the pet window's
# options (`yui window --role bare`: frameless, translucent, always on top,
# the same size and WebKit policy, an empty page), both running side by
# side on one private Xvfb + xcompmgr and measured over the same windows
# of seconds (default 3 × 60 s), so the load is the same for both. Prints
# each window's ticks, the ratio, the load average, and the busiest
# threads of Yui's tree.
# Usage: docs/bench/idle-bare.sh [seconds] [windows] [binary]
set -euo pipefail
secs=${1:-60}
windows=${2:-3}
bin=$(realpath "${3:-build/bin/yui}")
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/proc.sh"
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
"$bin" window --role bare --log-dir "$work/bare-logs" >/dev/null 2>&1 &
bare=$!
"$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 >/dev/null 2>&1 &
core=$!
sleep "${YUI_SETTLE:-50}" # start, first paint, and WebKit's start-up frame pacing settle
hz=$(getconf CLK_TCK)
threads() { for p in "$@"; do for t in /proc/"$p"/task/*; do echo "${t##*/} $(tr ' ' _ < /proc/$p/comm)/$(tr ' ' _ < $t/comm) $(awk '{print $14+$15}' $t/stat 2>/dev/null)"; done; done | sort; }
echo "idle side by side, $(date -u +%FT%TZ), ${windows} windows of ${secs} s, CLK_TCK $hz"
tb=0; ty=0
for w in $(seq "$windows"); do
  ball=$(tree $bare); yall=$(tree $core)
  threads $yall > "$work/t0"
  b0=$(ticks $ball); y0=$(ticks $yall)
  sleep "$secs"
  b1=$(ticks $ball); y1=$(ticks $yall)
  threads $yall > "$work/t1"
  db=$((b1 - b0)); dy=$((y1 - y0)); tb=$((tb + db)); ty=$((ty + dy))
  awk -v w=$w -v b=$db -v y=$dy -v hz=$hz -v s=$secs -v l="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
    printf "window %d: yui tree %d ticks (%.2f %% of one core), bare window tree %d ticks (%.2f %%): %.2fx (load %s)\n", w, y, 100*y/hz/s, b, 100*b/hz/s, (b ? y/b : 0), l }'
  echo "  yui's busiest threads: $(join "$work/t0" "$work/t1" | awk '{d=$5-$3; if (d>0) print d, $2}' | sort -rn | head -6 | awk '{printf "%s %d; ", $2, $1}')"
done
awk -v b=$tb -v y=$ty -v hz=$hz -v s=$((secs * windows)) 'BEGIN {
  printf "total over %d s: yui tree %d ticks (%.2f %% of one core), bare window %d ticks (%.2f %%): yui/bare = %.2fx (goal ≤ 2x)\n", s, y, 100*y/hz/s, b, 100*b/hz/s, (b ? y/b : 0) }'
