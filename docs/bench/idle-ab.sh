#!/usr/bin/env bash
# A/B of idle CPU, per process, for two builds in one run: each binary is
# started alone under its own Xvfb + xcompmgr, left to settle, then every
# process of its tree (core, pet window, WebKit children) is measured over
# the same number of seconds. Blinks are random (every 5-10 s), so compare
# totals over a minute or more.
# Usage: docs/bench/idle-ab.sh BASELINE_BINARY NEW_BINARY [seconds]
set -euo pipefail
. "$(dirname "$0")/proc.sh"
secs=${3:-60}
measure() {
  local bin work core all total=0
  bin=$(realpath "$1"); work=$(mktemp -d)
  start_display "$work"; local xv=$XVFB_PID
  xcompmgr 2>/dev/null & local xc=$!
  sleep 0.5
  "$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 >/dev/null 2>&1 &
  core=$!
  sleep "${YUI_SETTLE:-50}"
  all=$(tree $core)
  declare -A t0
  for p in $all; do t0[$p]=$(ticks $p); done
  sleep "$secs"
  for p in $all; do
    local d=$(( $(ticks $p) - ${t0[$p]} ))
    total=$((total + d))
    echo "  $(cat /proc/$p/comm) $(tr '\0' ' ' < /proc/$p/cmdline | awk '{print ($2 == "window") ? "window" : ($1 ~ /yui$/ ? "core" : "")}'): $d ticks"
  done
  awk -v t=$total -v hz="$(getconf CLK_TCK)" -v s="$secs" 'BEGIN { printf "  total: %d ticks = %.2f %% of one core\n", t, 100*t/hz/s }'
  kill $core; sleep 2; kill $xc $xv 2>/dev/null || true; rm -rf "$work"
}
ra=$(measure "$1"); echo "baseline $1:"; echo "$ra"; a=$(echo "$ra" | awk '/total:/{print $2}')
rb=$(measure "$2"); echo "new $2:"; echo "$rb"; b=$(echo "$rb" | awk '/total:/{print $2}')
awk -v a="$a" -v b="$b" -v s="$secs" 'BEGIN { printf "idle over %d s: new/baseline = %.2fx (%d vs %d ticks)\n", s, b/a, b, a }'
