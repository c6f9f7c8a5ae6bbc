#!/usr/bin/env bash
# Issue 24's start-up figures in one run under a private Xvfb + xcompmgr:
# a bare Wails window's time to map against a cold start of Yui (exec → the
# pet window mapped and connected), and Settings opened from the running
# core (docs/bench/startup/main.go says what each figure is).
# Usage: docs/bench/startup.sh [rounds] [binary] [compare-binary]
# (compare-binary: an earlier build, cold-started in the same rounds; in the
# rounds where binary goes first its core idles meanwhile)
set -euo pipefail
rounds=${1:-5}
bin=$(realpath "${2:-build/bin/yui}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/proc.sh"
cd "$root"
start_display "$work"
xcompmgr 2>/dev/null &
sleep 0.5
compare=()
[ -n "${3:-}" ] && compare=(-compare "$(realpath "$3")")
go run ./docs/bench/startup -bin "$bin" -rounds "$rounds" "${compare[@]}"
