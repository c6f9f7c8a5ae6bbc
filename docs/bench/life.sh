#!/usr/bin/env bash
# Her life on the desktop (issue 25): the CPU of Yui's whole process tree
# standing still, sitting still on an xterm, walking back and forth, and
# speaking a long reply without cues, in one run under Xvfb + xcompmgr +
# openbox, with the ratios (sitting/standing, walking/speaking; the goal
# for walking is ≤ 1.3× speaking). Needs build/bin/yui (make build).
# Usage: docs/bench/life.sh [seconds per window] [settle seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
YUI_LIFE_BENCH=1 YUI_LIFE_SECS="${1:-10}" YUI_SETTLE="${2:-30}" \
  go test -tags e2e -count=1 -v -run TestE2ELifeCPU ./app/e2e/ 2>&1 | grep -E 'life|ratios|of one core|PASS|FAIL|ok ' | grep -v '^XGB'
