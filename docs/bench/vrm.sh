#!/usr/bin/env bash
# The VRM look's CPU against the SVG look's (issue 28), in one run: the pet
# window tree (the window process and its WebKit processes) idle and while
# speaking with lip-sync, for the SVG look, the VRM look (the generated test
# model, breathing off) and the VRM look breathing at a low frame rate —
# the real binary under Xvfb + xcompmgr, a private PulseAudio server, a push
# backend that tells a long story (docs/bench/voice). Ratios to the SVG look
# measured in the same run; the machine is shared, so the load is printed
# (uptime, /proc/loadavg per state).
# Needs pulseaudio, espeak-ng, Xvfb, xcompmgr and a built binary.
# With a fourth argument, a binary from before a change, its VRM looks are
# measured too in the same run (vrm@before, vrm-breathing@before).
# Usage: docs/bench/vrm.sh [seconds per state] [rounds] [binary] [before binary]
set -euo pipefail
secs=${1:-20}
reps=${2:-2}
bin=$(realpath "${3:-build/bin/yui}")
looks=svg,vrm,vrm-breathing
before=()
if [ -n "${4:-}" ]; then
	before=(-before "$(realpath "$4")")
	looks=svg,vrm@before,vrm,vrm-breathing@before,vrm-breathing
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/proc.sh"
cd "$root"
uptime
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
go run ./docs/bench/voice -bin "$bin" -secs "$secs" -settle "${YUI_SETTLE:-15}" -reps "$reps" -looks "$looks" "${before[@]}"
uptime
