#!/bin/sh
# Benchmark of app/jpegfit beside ImageMagick, in one run (issue 6).
#
# Generates a 3840×2160 screenshot-like PNG, then fits it into a 256 KiB
# JPEG share with our fitter (docs/bench/jpegfit, a small command calling
# jpegfit.Fit) and with `convert in.png -define jpeg:extent=256KB out.jpg`.
# Each is timed as a whole process (read PNG, fit, write JPEG) ROUNDS times,
# alternating, and the medians are reported. Quality: each output against
# the original resized to the output's size by ImageMagick (-resize WxH!,
# its default downscaling filter): PSNR from `compare -metric PSNR`, SSIM
# (luma, 8×8 windows, stride 4) from the Go command.
#
# Usage: sh docs/bench/jpegfit.sh [ROUNDS]   (from anywhere in the checkout)
# Output goes to stdout; docs/bench/jpegfit.txt holds a recorded run.
set -eu
ROUNDS=${1:-7}
SHARE=262144 # 256 KiB, the same as ImageMagick's 256KB
CONVERT=/usr/bin/convert
COMPARE=/usr/bin/compare
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$root"
CGO_ENABLED=0 go build -o "$tmp/jpegfit" ./docs/bench/jpegfit
"$tmp/jpegfit" gen 3840 2160 "$tmp/in.png"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# One warm-up each (page cache, binaries), then alternate.
"$tmp/jpegfit" fit $SHARE "$tmp/in.png" "$tmp/ours.jpg" 2>"$tmp/ours.txt"
$CONVERT "$tmp/in.png" -define jpeg:extent=256KB "$tmp/im.jpg"
: >"$tmp/t_ours"
: >"$tmp/t_im"
i=0
while [ $i -lt "$ROUNDS" ]; do
	t0=$(now_ms)
	"$tmp/jpegfit" fit $SHARE "$tmp/in.png" "$tmp/ours.jpg" 2>/dev/null
	t1=$(now_ms)
	$CONVERT "$tmp/in.png" -define jpeg:extent=256KB "$tmp/im.jpg"
	t2=$(now_ms)
	echo $((t1 - t0)) >>"$tmp/t_ours"
	echo $((t2 - t1)) >>"$tmp/t_im"
	i=$((i + 1))
done
ours_ms=$(median <"$tmp/t_ours")
im_ms=$(median <"$tmp/t_im")

quality() { # out.jpg → "WxH bytes PSNR SSIM"
	size=$(identify -format '%wx%h' "$1")
	$CONVERT "$tmp/in.png" -resize "$size!" "$tmp/ref.png"
	psnr=$($COMPARE -metric PSNR "$tmp/ref.png" "$1" null: 2>&1 || true)
	ssim=$("$tmp/jpegfit" ssim "$tmp/ref.png" "$1")
	echo "$size $(stat -c %s "$1") $psnr $ssim"
}
set -- $(quality "$tmp/ours.jpg")
ours_size=$1 ours_bytes=$2 ours_psnr=$3 ours_ssim=$4
set -- $(quality "$tmp/im.jpg")
im_size=$1 im_bytes=$2 im_psnr=$3 im_ssim=$4
im_q=$(identify -format '%Q' "$tmp/im.jpg")

echo "jpegfit vs ImageMagick: 3840x2160 screenshot-like PNG ($(stat -c %s "$tmp/in.png") bytes) into a $SHARE-byte JPEG"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x$(nproc)"
echo "$(go version)  $($CONVERT -version | head -1)"
echo "rounds: $ROUNDS, whole-process wall time, median"
echo
printf '%-12s %8s %11s %8s %4s %9s %7s\n' tool ms size bytes q PSNR_dB SSIM
printf '%-12s %8s %11s %8s %4s %9s %7s\n' jpegfit "$ours_ms" "$ours_size" "$ours_bytes" "$(sed 's/.* q\([0-9]*\) .*/\1/' "$tmp/ours.txt")" "$ours_psnr" "$ours_ssim"
printf '%-12s %8s %11s %8s %4s %9s %7s\n' imagemagick "$im_ms" "$im_size" "$im_bytes" "$im_q" "$im_psnr" "$im_ssim"
echo
echo "speed-up (ImageMagick ms / jpegfit ms): $(awk "BEGIN {printf \"%.2f\", $im_ms / $ours_ms}")x"
echo "per-round ms, jpegfit: $(tr '\n' ' ' <"$tmp/t_ours")"
echo "per-round ms, ImageMagick: $(tr '\n' ' ' <"$tmp/t_im")"
