# Shared by the docs/bench scripts (source it): a private X display and
# per-process figures from /proc. Needs bash.

# start_display DIR: starts Xvfb (1280x800x24, no TCP) with its display
# number written under DIR, and exports DISPLAY. Sets XVFB_PID.
start_display() {
  exec 3> "$1/displayfd"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null &
  XVFB_PID=$!
  for _ in $(seq 50); do [ -s "$1/displayfd" ] && break; sleep 0.1; done
  export DISPLAY=":$(head -n1 "$1/displayfd")"
}

tree() { # pid and all its descendants
  local p=$1; echo "$p"
  for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do tree "$c"; done
}
rss_kb() { local s=0; for p in "$@"; do s=$((s + $(awk '/VmRSS/{print $2}' /proc/"$p"/status 2>/dev/null || echo 0))); done; echo $s; }
pss_kb() { local s=0; for p in "$@"; do s=$((s + $(awk '/^Pss:/{print $2}' /proc/"$p"/smaps_rollup 2>/dev/null || echo 0))); done; echo $s; }
ticks() { local s=0; for p in "$@"; do s=$((s + $(awk '{print $14+$15}' /proc/"$p"/stat 2>/dev/null || echo 0))); done; echo $s; }
