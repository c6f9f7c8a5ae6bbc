#!/usr/bin/env bash
# Issue 24's motion figures: the pet window tree's CPU while she speaks the
# voice bench's story with one cue per sentence (a motion, an emotion, both)
# against the same story without cues, in one run, rotating the order each
# round, under a private Xvfb + xcompmgr (software rendering), sound on.
# Needs pulseaudio, espeak-ng, Xvfb, xcompmgr and a built binary.
# Usage: docs/bench/voice-cues.sh [seconds per state] [rounds] [binary] [modes]
set -euo pipefail
secs=${1:-20}
reps=${2:-2}
bin=$(realpath "${3:-build/bin/yui}")
modes=${4:-none,motion,emotion,emotion+motion}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/proc.sh"
cd "$root"
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
go run ./docs/bench/voice -bin "$bin" -secs "$secs" -reps "$reps" -settle "${YUI_SETTLE:-15}" -cues "$modes"
