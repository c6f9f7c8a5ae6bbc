#!/usr/bin/env bash
# Listening's figures (issue 17), in one run:
#  1. speech start → barge-in silence and end of speech → turn sent: the
#     console end to end (app/console TestListenEndToEnd) on a private
#     PulseAudio with a microphone, espeak-ng speaking into it and the
#     pocketsphinx test transcription server (app/listen/listentest);
#  2. CPU at rest with listening on vs off (the baseline, same process,
#     same run), 100 ms chunks: app/listen TestFigures.
# Needs pulseaudio, espeak-ng, python3-pocketsphinx, pocketsphinx-en-us.
# Usage: docs/bench/listen.sh [seconds per state]
set -euo pipefail
secs=${1:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
CI=true go test -count=1 -run TestListenEndToEnd -v ./app/console/ | grep -E '→' | sed -E 's/^ *listen_e2e_test.go:[0-9]+: //'
YUI_LISTEN_FIGURES=1 YUI_LISTEN_SECS="$secs" go test -count=1 -run TestFigures -v ./app/listen/ | grep -E '^(listen figures|CPU|  the sound)'
