#!/bin/sh
# Builds yui_<version>_amd64.deb from the built binary:
#   mkdeb.sh VERSION BINARY OUT.deb
# The package holds /usr/bin/yui, the desktop entry, the hicolor icons made
# from build/appicon.png, the man page and the Debian docs; its Depends
# come from dpkg-shlibdeps. Timestamps are clamped to the last commit's
# (SOURCE_DATE_EPOCH), so the same tree gives the same package.
set -eu
version=$1 bin=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${SOURCE_DATE_EPOCH:=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH
maintainer=${DEB_MAINTAINER:-"The Yui authors <$(git -C "$top" log -1 --format=%ae 2>/dev/null || echo yui@example.org)>"}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
install -D -m 0755 "$bin" "$root/usr/bin/yui"
# The C toolchain's notes; nothing loads them (dh_strip drops them too).
objcopy --remove-section=.comment "$root/usr/bin/yui"
install -D -m 0644 "$here/yui.desktop" "$root/usr/share/applications/yui.desktop"
for d in "$here"/icons/hicolor/*/apps; do
	size=$(basename "$(dirname "$d")")
	install -D -m 0644 "$d/yui.png" "$root/usr/share/icons/hicolor/$size/apps/yui.png"
done
install -d "$root/usr/share/man/man1" "$root/usr/share/doc/yui" "$root/usr/share/lintian/overrides"
gzip -9n < "$here/yui.1" > "$root/usr/share/man/man1/yui.1.gz"
{
	echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
	echo "Upstream-Name: yui"
	echo
	echo "Files: *"
	echo "Copyright: 2026 The Yui authors"
	echo "License: Expat"
	echo
	echo "License: Expat"
	sed -n '/^Permission/,$p' "$top/LICENSE" | sed 's/^$/./; s/^/ /'
} > "$root/usr/share/doc/yui/copyright"
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
printf 'yui (%s) unstable; urgency=medium\n\n  * Built from the Yui source tree at version %s.\n\n -- %s  %s\n' \
	"$version" "$version" "$maintainer" "$date" | gzip -9n > "$root/usr/share/doc/yui/changelog.gz"
cp "$here/lintian-overrides" "$root/usr/share/lintian/overrides/yui"
chmod 0644 "$root/usr/share/doc/yui/"* "$root/usr/share/lintian/overrides/yui" "$root/usr/share/man/man1/yui.1.gz"

# Depends: the shared libraries the binary links, as dpkg-shlibdeps finds
# them (it wants a debian/control to read).
mkdir -p "$work/src/debian"
printf 'Source: yui\n\nPackage: yui\nArchitecture: amd64\n' > "$work/src/debian/control"
deps=$(cd "$work/src" && dpkg-shlibdeps -O -e"$root/usr/bin/yui" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || { echo "mkdeb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: yui
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $size
Depends: $deps
Recommends: xcompmgr | picom | compton, espeak-ng, pulseaudio | pipewire-pulse, fonts-noto-cjk
Suggests: flite
Section: x11
Priority: optional
Description: desktop pet who talks with your AI agent
 Yui is a small character who lives on your screen, talks with your AI
 agent, speaks its replies with emotions and motions, shows what the agent
 is doing, and looks at the screen when you allow it.
 .
 She has a notification-area icon (StatusNotifierItem) with a menu to show
 or hide each character, mute voices, open the settings, start at login
 and quit. A transparent window needs a compositing manager (most desktops
 run one). She speaks with the system voice (espeak-ng, or flite) or an
 OpenAI-compatible speech endpoint, through PulseAudio or PipeWire.
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "$out"
