#!/usr/bin/env bash
# make wine-test: the Windows parts of Yui that need no GUI, run under
# Debian's wine64 8.0 (docs/windows.md says what runs and what is only
# built). Needs wine64, gcc-mingw-w64-x86-64 (make wine-deps), Go, and
# YUI_WIN_BIN (build/bin/yui.exe) and YUI_VERSION from make.
#
#   1. A private Wine prefix in a temp dir (WINEDEBUG=-all), with the
#      ProcessPrng DLL a Go 1.26 program needs under Wine 8.0, built here
#      from build/windows/processprng.c.
#   2. The tests of the packages with _windows.go code that need no GUI,
#      cross-compiled (GOOS=windows) and run: the instance lock and named
#      pipe, autostart's Run key, the settings and log paths (with the
#      settings' atomic writes), the audio engines' selection, the
#      console's parent attach (on a pseudo-terminal, so Wine makes a
#      console).
#   3. yui.exe --version, and yui.exe console against the demo backend
#      (app/e2e TestWine*).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${YUI_WIN_BIN:?set by make wine-test}" "${YUI_VERSION:?set by make wine-test}"
WINE=${YUI_WINE:-/usr/lib/wine/wine64}
started=$(date +%s)

work=$(mktemp -d "${TMPDIR:-/tmp}/yui-wine.XXXXXX")
export WINEPREFIX=$work/prefix WINEDEBUG=-all
# No Mono or Gecko: nothing here is .NET or HTML, and Wine would offer to
# download them.
export WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
	/usr/lib/wine/wineserver -k >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

step() { printf 'wine-test: %s (%ds)\n' "$1" $(($(date +%s) - started)); }

# 1. The prefix and the DLL.
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$work/bcryptprimitives.dll" build/windows/processprng.c -ladvapi32
"$WINE" wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; exit 1; }
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
step "prefix ready"

# Go's os.RemoveAll (every test's t.TempDir cleanup) deletes with
# FileDispositionInformationEx; Wine 8.0 answers STATUS_NOT_IMPLEMENTED,
# which Go does not take as "fall back to the old call" the way it takes
# STATUS_INVALID_INFO_CLASS from an old Windows. The test binaries are
# built with that one status added to the fallback (an -overlay of Go's
# own file, applied to these test builds only: yui.exe is built as is).
goroot=$(go env GOROOT)
at="$goroot/src/internal/syscall/windows/at_windows.go"
mkdir -p "$work/overlay"
sed 's|case STATUS_INVALID_INFO_CLASS, // the operating system|case STATUS_INVALID_INFO_CLASS, NTStatus(0xC0000002) /* Wine 8: STATUS_NOT_IMPLEMENTED */, // the operating system|' \
	"$at" >"$work/overlay/at_windows.go"
if cmp -s "$at" "$work/overlay/at_windows.go"; then
	echo "wine-test: $at no longer has the line to patch (a new Go?): see build/windows/winetest.sh" >&2
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/overlay/at_windows.go" >"$work/overlay.json"

# 2. The packages' tests. name, package, then go test flags. The skipped
# tests assert Unix file modes (0600) and symbolic links, which Windows
# files do not have (docs/windows.md).
unix_modes_settings='^(TestOpenTightensAFileOthersCanRead|TestSymlinkedSettingsAreWrittenThrough|TestADanglingSettingsLinkIsRefusedClearly|TestFirstRunCreatesDemoPreset|TestUpdateWritesAtomicallyWithMode)$'
unix_modes_applog='^(TestDailyFileRotatesBySize|TestDailyFileSwitchesByDate)$'
tests=(
	"instance ./app/instance/"
	"autostart ./app/autostart/"
	"settings ./app/settings/ -test.skip=$unix_modes_settings"
	"applog ./app/applog/ -test.skip=$unix_modes_applog"
	"voice ./app/voice/"
	"listen ./app/listen/"
	"parentconsole ./app/parentconsole/"
	"gaze ./app/core/gaze/"
)
for t in "${tests[@]}"; do
	read -r name pkg flags <<<"$t"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -overlay "$work/overlay.json" -c -o "$work/$name.test.exe" "$pkg"
done
# The console attach needs a GUI-subsystem build of the same tests.
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -overlay "$work/overlay.json" -c -ldflags=-H=windowsgui \
	-o "$work/parentconsole-gui.test.exe" ./app/parentconsole/
step "test binaries built"

failed=0
for t in "${tests[@]}"; do
	read -r name pkg flags <<<"$t"
	# shellcheck disable=SC2086 # flags is one flag or none
	if (cd "$work" && "$WINE" "./$name.test.exe" -test.count=1 -test.timeout=5m -test.v $flags) >"$work/$name.out" 2>&1; then
		echo "ok    $pkg (Windows build, under Wine): $(grep -c '^--- PASS' "$work/$name.out") passed, $(grep -c '^--- SKIP' "$work/$name.out") skipped"
	else
		echo "FAIL  $pkg (Windows build, under Wine)"
		cat "$work/$name.out"
		failed=1
	fi
done
# On a pseudo-terminal Wine gives the test a console for the GUI child to
# attach to; the child's line must show in the terminal's transcript.
winpath=$("$WINE" winepath -w "$work/parentconsole-gui.test.exe" 2>/dev/null | tr -d '\r')
if YUI_PARENTCONSOLE_GUI_EXE=$winpath script -qec "cd '$work' && '$WINE' ./parentconsole.test.exe -test.count=1 -test.v -test.run='^TestAttachToTheParentsConsole\$'" "$work/attach.log" >/dev/null 2>&1 &&
	grep -q -- '--- PASS: TestAttachToTheParentsConsole' "$work/attach.log" &&
	grep -q 'yui-attached-to-the-parent-console' "$work/attach.log"; then
	echo "ok    ./app/parentconsole/ TestAttachToTheParentsConsole (GUI child on a console, under Wine)"
else
	echo "FAIL  ./app/parentconsole/ TestAttachToTheParentsConsole (GUI child on a console, under Wine)"
	cat -v "$work/attach.log" || true
	failed=1
fi
step "package tests run"

# 3. yui.exe itself.
if YUI_WINE=$WINE go test -tags e2e -count=1 -v -run 'TestWine' ./app/e2e/ >"$work/e2e.out" 2>&1; then
	grep -E '^(--- |    wine_test)' "$work/e2e.out"
else
	cat "$work/e2e.out"
	failed=1
fi
step "yui.exe run"
if [ "$failed" != 0 ]; then
	echo "wine-test: FAILED"
	exit 1
fi
echo "wine-test: all passed in $(($(date +%s) - started)) s"
