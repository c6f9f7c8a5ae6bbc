#!/usr/bin/env bash
# The voice's figures (issue 15), in one run:
#  1. text → first audible sample (system voice, speech endpoint), the gap
#     the pipeline adds between two sentences: app/voice's TestFigures on a
#     private PulseAudio server, recording its speaker's monitor;
#  2. the core's CPU while speaking vs idle, and the pet window's CPU while
#     speaking with level-driven lip-sync vs the fixed flap: the real binary
#     under Xvfb + xcompmgr (docs/bench/voice, a push backend that answers
#     with a minute-long story).
# Needs pulseaudio, espeak-ng, Xvfb, xcompmgr and a built binary.
# Usage: docs/bench/voice.sh [seconds per state] [binary]
set -euo pipefail
secs=${1:-20}
bin=$(realpath "${2:-build/bin/yui}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/proc.sh"
cd "$root"
YUI_VOICE_FIGURES=1 go test -count=1 -run TestFigures -v ./app/voice/ | grep -E '^(voice figures|text →|gap)'
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
go run ./docs/bench/voice -bin "$bin" -secs "$secs" -settle "${YUI_SETTLE:-15}"
