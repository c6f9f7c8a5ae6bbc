#!/usr/bin/env bash
# Measures Yui at rest under Xvfb + xcompmgr: RSS of the core and of one pet
# window's process tree (the window process plus its WebKit children), and
# the CPU the whole tree uses over a window of seconds (default 30).
# With a third argument "speech", it then asks the demo backend for its slow
# reply (about 8 s of speech) and measures the tree while she speaks.
# Usage: docs/bench/idle.sh [seconds] [binary] [speech]
set -euo pipefail
secs=${1:-30}
bin=$(realpath "${2:-build/bin/yui}")
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

. "$(dirname "$0")/proc.sh"
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
"$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 >/dev/null 2>&1 &
core=$!
sleep "${YUI_SETTLE:-60}" # start, first paint, and WebKit's start-up frame pacing settle (its VBlankMonitor thread keeps ticking for a while after the first paints)


window=$(cat /proc/$core/task/*/children | awk '{print $1}')
all=$(tree $core)
wtree=$(tree $window)
echo "binary: $(stat -c %s "$bin") bytes ($(du -h "$bin" | cut -f1))"
echo "core: RSS $(( $(rss_kb $core) / 1024 )) MiB, PSS $(( $(pss_kb $core) / 1024 )) MiB"
echo "pet window tree: RSS $(( $(rss_kb $wtree) / 1024 )) MiB, PSS $(( $(pss_kb $wtree) / 1024 )) MiB ($(echo $wtree | wc -w) processes: $(for p in $wtree; do cat /proc/$p/comm; done | tr '\n' ' '))"
hz=$(getconf CLK_TCK)
threads() { for p in $all; do for t in /proc/"$p"/task/*; do echo "${t##*/} $(cat /proc/$p/comm | tr ' ' _)/$(cat $t/comm | tr ' ' _) $(awk '{print $14+$15}' $t/stat 2>/dev/null)"; done; done | sort; }
# Several consecutive windows in one run: blinks are random, so one window
# can hold 2 or 5 of them; the median says more than any one window.
results=()
for w in $(seq "${YUI_WINDOWS:-3}"); do
  threads > "$work/threads0"
  t0=$(ticks $all); s0=$(date +%s.%N)
  sleep "$secs"
  t1=$(ticks $all); s1=$(date +%s.%N)
  threads > "$work/threads1"
  pct=$(awk -v d=$((t1 - t0)) -v hz=$hz -v s0=$s0 -v s1=$s1 'BEGIN { printf "%.2f", 100*d/hz/(s1-s0) }')
  results+=("$pct")
  echo "idle window $w: ${pct}% of one core over ${secs} s ($((t1 - t0)) ticks); busiest threads: $(join "$work/threads0" "$work/threads1" | awk '{d=$5-$3; if (d>0) print d, $2}' | sort -rn | head -3 | awk '{printf "%s %d; ", $2, $1}')"
done
median=$(printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo "idle CPU of the whole tree, median of ${#results[@]} windows of ${secs} s: ${median}% of one core"

if [ "${3:-}" = speech ]; then
  wid=$(xdotool search --name "^Yui — " | head -n1)
  eval "$(xdotool getwindowgeometry --shell "$wid")" # X Y WIDTH HEIGHT
  xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT - 150)) click 1
  sleep 0.5
  xdotool type --delay 20 "slow"
  xdotool key Return
  sleep 1.5 # thinking and the first sentence
  t0=$(ticks $all); s0=$(date +%s.%N)
  sleep 6
  t1=$(ticks $all); s1=$(date +%s.%N)
  awk -v d=$((t1 - t0)) -v hz=$hz -v s0=$s0 -v s1=$s1 'BEGIN { printf "CPU of the whole tree while speaking, over %.1f s: %.2f%% of one core (%d ticks)\n", s1-s0, 100*d/hz/(s1-s0), d }'
fi
