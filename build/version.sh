#!/bin/sh
# Prints Yui's version from `git describe`, in the one form every package
# accepts (Debian version, file names, `yui --version`):
#   at a tag v1.2.3, clean tree        1.2.3
#   3 commits after it                 1.2.3+3.g1a2b3c4
#   with uncommitted changes           ...+dirty (1.2.3+dirty, 1.2.3+3.g1a2b3c4.dirty)
#   no v* tag yet                      0.0.0+N.gHASH (N = commits so far)
#   not a git checkout                 0.0.0
# `version.sh win` prints the four-number form a Windows version resource
# needs (1.2.3.3: the fourth number counts commits after the tag).
set -eu
cd "$(dirname "$0")/.."
d=$(git describe --tags --match 'v[0-9]*' --long --dirty 2>/dev/null) || {
	if h=$(git rev-parse --short=7 HEAD 2>/dev/null); then
		n=$(git rev-list --count HEAD)
		dirty=$(git diff --quiet HEAD 2>/dev/null || echo -dirty)
		d="v0.0.0-$n-g$h$dirty"
	else
		d="v0.0.0-0-g0000000"
	fi
}
dirty=
case $d in *-dirty) dirty=1; d=${d%-dirty} ;; esac
hash=${d##*-}          # g1a2b3c4
rest=${d%-*}           # v1.2.3-3
n=${rest##*-}          # 3
tag=${rest%-*}         # v1.2.3
base=${tag#v}
if [ "${1:-}" = win ]; then
	echo "$base" | awk -F. -v n="$n" '{printf "%d.%d.%d.%d\n", $1, $2, $3, n}'
	exit 0
fi
if [ "$n" = 0 ]; then
	v=$base
	[ -n "$dirty" ] && v="$v+dirty"
else
	v="$base+$n.$hash"
	[ -n "$dirty" ] && v="$v.dirty"
fi
echo "$v"
