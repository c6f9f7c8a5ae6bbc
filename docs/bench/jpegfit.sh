#!/bin/sh
# Benchmark of app/jpegfit beside libvips' vipsthumbnail, in one run (issues 6, 24).
#
# Generates a 3840×2160 screenshot-like PNG and fits it into a 256 KiB JPEG
# with our fitter, then asks vipsthumbnail for the same size and quality.
# Timed as whole processes, ROUNDS rounds, the commands of a round in a
# rotating order; every ratio is taken inside one round, then the median:
#   ours PNG   docs/bench/jpegfit fit      PNG file → Fit (decode, probe, resize, search)
#   ours RGBA  docs/bench/jpegfit fitrgba  raw pixels read into an *image.RGBA → FitRGBA,
#              the real path (a capture hands the fitter its in-memory RGBA)
#   vips PNG   vipsthumbnail in.png -s WxH! -o out.jpg[Q=q]   (the baseline)
#   vips .v    vipsthumbnail from libvips' own uncompressed format (no PNG decode,
#              the fair baseline for the RGBA path)
# Each run's wall and CPU time come from perf stat (duration_time, task-clock):
# on a shared machine the CPU ratio is the steadier figure, the wall ratio the goal.
# In process (go test -bench, the same interleaving): the fitter's real path and
# its resize with our resampler and with imaging.Resize(CatmullRom).
# Quality: each output against an exact Lanczos-3 downscale of the original to
# the output's size (jpegfit ref; neither contender's resampler): luma SSIM
# (8×8 windows, stride 4) and RGB PSNR.
#
# libvips-tools is for this bench only, never a dependency of Yui.
# Usage: sh docs/bench/jpegfit.sh [ROUNDS]   (from anywhere in the checkout)
# Output goes to stdout; docs/bench/jpegfit.txt holds a recorded run.
set -eu
set -f # vips output options look like globs
ROUNDS=${1:-9}
SHARE=262144 # 256 KiB of JPEG payload
for tool in vipsthumbnail perf; do
	command -v $tool >/dev/null || {
		echo "$tool not found (apt-get install libvips-tools linux-perf)" >&2
		exit 1
	}
done
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
CGO_ENABLED=0 go build -o "$tmp/jpegfit" ./docs/bench/jpegfit
go test -c -o "$tmp/jpegfit.test" ./app/jpegfit
"$tmp/jpegfit" gen 3840 2160 "$tmp/in.png"
"$tmp/jpegfit" raw "$tmp/in.png" "$tmp/in.rgba"
vips copy "$tmp/in.png" "$tmp/in.v"

# What our fitter picks; vips gets the same size and quality.
"$tmp/jpegfit" fit $SHARE "$tmp/in.png" "$tmp/png.jpg" 2>"$tmp/pick"
read -r size q _ <"$tmp/pick"
q=${q#q}
w=${size%x*}
h=${size#*x}

us() { # run command $1, print its wall and CPU (task-clock) time in µs
	case $1 in
	ours_png) set -- "$tmp/jpegfit" fit $SHARE "$tmp/in.png" "$tmp/png.jpg" ;;
	ours_rgba) set -- "$tmp/jpegfit" fitrgba $SHARE "$tmp/in.rgba" "$tmp/rgba.jpg" ;;
	vips_png) set -- vipsthumbnail "$tmp/in.png" -s "${size}!" -o "$tmp/vips.jpg[Q=$q]" ;;
	vips_v) set -- vipsthumbnail "$tmp/in.v" -s "${size}!" -o "$tmp/vipsv.jpg[Q=$q]" ;;
	esac
	perf stat -x, -o "$tmp/perf" -e task-clock,duration_time "$@" 2>/dev/null
	awk -F, '$3 == "task-clock" {cpu = $1 * 1000} $3 == "duration_time" {wall = $1 / 1000}
		END {printf "%d %d\n", wall, cpu}' "$tmp/perf"
}
stats() { # ratios on stdin → "median (min–max)"
	sort -g | awk '{v[NR]=$1} END {printf "%.2f (%.2f–%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

for c in ours_png ours_rgba vips_png vips_v; do us $c >/dev/null; done # warm-up
: >"$tmp/rounds"
i=0
while [ $i -lt "$ROUNDS" ]; do
	case $((i % 4)) in
	0) order="vips_png ours_png ours_rgba vips_v" ;;
	1) order="ours_png ours_rgba vips_v vips_png" ;;
	2) order="ours_rgba vips_v vips_png ours_png" ;;
	*) order="vips_v vips_png ours_png ours_rgba" ;;
	esac
	for c in $order; do eval "t_$c=\$(us $c)"; done
	# wall: columns 1-4, CPU: columns 5-8 (ours PNG, ours RGBA, vips PNG, vips .v)
	echo "$t_ours_png $t_ours_rgba $t_vips_png $t_vips_v" |
		awk '{print $1, $3, $5, $7, $2, $4, $6, $8}' >>"$tmp/rounds"
	i=$((i + 1))
done

# In process: real path and resize, ours vs imaging, interleaved.
: >"$tmp/inproc"
i=0
while [ $i -lt "$ROUNDS" ]; do
	for b in 'FitRGBA4K/own$' 'FitRGBA4K/imaging$' 'Resize4K/own$' 'Resize4K/imaging$'; do
		(cd app/jpegfit && "$tmp/jpegfit.test" -test.run '^$' -test.bench "$b" -test.benchtime 3x) |
			awk '/^Benchmark/ {printf "%s %s ", $3, $5}' >>"$tmp/inproc"
	done
	echo >>"$tmp/inproc"
	i=$((i + 1))
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

"$tmp/jpegfit" ref "$w" "$h" "$tmp/in.png" "$tmp/ref.png"
row() { # name file column
	set -- "$1" "$2" "$(ms "$3")" "$(ms $(($3 + 4)))" $("$tmp/jpegfit" score "$tmp/ref.png" "$2")
	printf '%-10s %7s %7s %10s %8s %4s %7s %7s\n' "$1" "$3" "$4" "$(vipsheader -f width "$2")x$(vipsheader -f height "$2")" "$(stat -c %s "$2")" "$q" "$6" "$5"
}
ms() { awk -v c="$1" '{printf "%d\n", $c / 1000}' "$tmp/rounds" | median; }

echo "jpegfit vs vipsthumbnail: 3840x2160 screenshot-like PNG ($(stat -c %s "$tmp/in.png") bytes) into $SHARE bytes of JPEG"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc)"
echo "$(go version)  vips $(vips --version | sed 's/vips-//')"
echo "load average (1/5/15 min): $load0 at start, $load1 at end"
echo "rounds: $ROUNDS, whole-process wall time, medians; ratios per round"
echo
printf '%-10s %7s %7s %10s %8s %4s %7s %7s\n' tool wall_ms cpu_ms size bytes q PSNR_dB SSIM
row "ours PNG" "$tmp/png.jpg" 1
row "ours RGBA" "$tmp/rgba.jpg" 2
row "vips PNG" "$tmp/vips.jpg" 3
row "vips .v" "$tmp/vipsv.jpg" 4
echo
echo "ratios per round, median (min–max) (goal: wall ≤ 1.10 against vips PNG):"
echo "                          wall                 CPU"
echo "  ours PNG  / vips PNG : $(awk '{print $1/$3}' "$tmp/rounds" | stats)   $(awk '{print $5/$7}' "$tmp/rounds" | stats)"
echo "  ours RGBA / vips PNG : $(awk '{print $2/$3}' "$tmp/rounds" | stats)   $(awk '{print $6/$7}' "$tmp/rounds" | stats)"
echo "  ours RGBA / vips .v  : $(awk '{print $2/$4}' "$tmp/rounds" | stats)   $(awk '{print $6/$8}' "$tmp/rounds" | stats)"
echo "in process, imaging.Resize(CatmullRom) / our resampler, median (min–max):"
echo "                          wall                 CPU"
echo "  FitRGBA (real path)  : $(awk '{print $3/$1}' "$tmp/inproc" | stats)   $(awk '{print $4/$2}' "$tmp/inproc" | stats)"
echo "  resize alone         : $(awk '{print $7/$5}' "$tmp/inproc" | stats)   $(awk '{print $8/$6}' "$tmp/inproc" | stats)"
echo
echo "per-round µs, wall then CPU (ours PNG, ours RGBA, vips PNG, vips .v):"
sed 's/^/  /' "$tmp/rounds"
echo "per-round ns/op in process, wall and CPU (FitRGBA own, imaging; resize own, imaging):"
sed 's/^/  /' "$tmp/inproc"
