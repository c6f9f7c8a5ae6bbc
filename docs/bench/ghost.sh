#!/usr/bin/env bash
# Does the pet window leave old pixels behind (ghosts) when she moves? Under
# a private Xvfb + xcompmgr: the pet at rest is captured, she is asked for
# the demo's `slow` reply (motions, emotions, the bubble), and once she is
# at rest again (the bubble gone) the screen is captured again and compared
# with the first. With each GPU policy given (YUI_WEBVIEW_GPU), in turn.
# Usage: docs/bench/ghost.sh [binary] [policies, e.g. "always never"]
set -euo pipefail
bin=$(realpath "${1:-build/bin/yui}")
policies=${2:-always never}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/proc.sh"
cd "$root"
go build -o /tmp/yui-ghost-tool ./docs/bench/ghost
for pol in $policies; do
  work=$(mktemp -d)
  start_display "$work"; xv=$XVFB_PID
  xcompmgr 2>/dev/null & xc=$!
  sleep 0.5
  YUI_WEBVIEW_GPU=$pol "$bin" --config-dir "$work/config" --log-dir "$work/logs" --demo-addr 127.0.0.1:0 >/dev/null 2>&1 &
  core=$!
  sleep "${YUI_SETTLE:-20}"
  wid=$(xdotool search --name "^Yui — " | head -n1)
  eval "$(xdotool getwindowgeometry --shell "$wid")" # X Y WIDTH HEIGHT
  xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT - 150)) click 1
  sleep 2
  /tmp/yui-ghost-tool shot "$work/rest.png"
  xdotool type --delay 30 "slow"
  xdotool key Return
  sleep "${YUI_REPLY:-30}" # the reply, its motions, and the bubble's hide
  /tmp/yui-ghost-tool shot "$work/after.png"
  echo "policy $pol: $(/tmp/yui-ghost-tool diff "$work/rest.png" "$work/after.png")"
  cp "$work/rest.png" "/tmp/yui-ghost-$pol-rest.png"; cp "$work/after.png" "/tmp/yui-ghost-$pol-after.png"
  kill $core; sleep 2; kill $xc $xv 2>/dev/null || true; rm -rf "$work"
done
