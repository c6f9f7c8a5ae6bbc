# Yui — the two commands a newcomer needs:
#   make run    install what is missing, build, start Yui
#   make test   install what is missing, build, run every test
# Everything else here serves those two.

SHELL := /bin/bash
.DEFAULT_GOAL := run

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# What building and running Yui needs (make run): GTK and WebKitGTK 4.1
# headers for the cgo build, pkg-config and a C toolchain.
APT_RUN := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential
# What only the tests add (make test, make e2e, make browser-test): a
# private X server, a compositor, xdotool for input, xdpyinfo (x11-utils)
# to see the display answer, openbox and xterm (the desktop-life e2e: a
# window manager and a window to sit on), and Chromium for the browser tests.
APT_TEST := xvfb xcompmgr xdotool x11-utils chromium openbox xterm fonts-noto-cjk
# The voice's tests (issue 15): a private PulseAudio server with null
# sinks whose monitors are recorded, espeak-ng (the System voice, which the
# package only recommends at run time) and flite. Installed by `make test`.
VOICE_TEST_APT_PACKAGES := pulseaudio espeak-ng flite python3-pocketsphinx pocketsphinx-en-us
GO_TAGS := desktop,production,webkit2_41
BIN := build/bin/yui
# The version every artefact carries (build/version.sh: git describe).
VERSION := $(shell build/version.sh)
WIN_VERSION := $(shell build/version.sh win)
LDFLAGS := -w -s -X yui/app/version.value=$(VERSION)
# The Linux binary: position-independent, full RELRO (lintian's hardening checks).
LINUX_LDFLAGS := $(LDFLAGS) -extldflags '-Wl,-z,relro,-z,now'
FRONTEND_SRC := $(shell find frontend/src frontend/index.html frontend/public -type f 2>/dev/null) \
	frontend/package.json frontend/vite.config.ts frontend/tsconfig.json
GO_SRC := $(shell find . -name '*.go' -not -path './frontend/*' -not -path './build/*' 2>/dev/null) go.mod go.sum

.PHONY: run test deps test-deps apt-deps apt-test-deps voice-test-deps npm-deps go-deps build frontend vet unit frontend-test e2e browser-test clean

## deps: what running needs — apt packages, npm packages, Go modules, each
## only when missing. test-deps adds what only the tests need.
deps: apt-deps npm-deps go-deps
test-deps: deps apt-test-deps wine-deps

# apt_install installs the Debian packages of $(1) that are not installed.
define apt_install
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

apt-deps:
	$(call apt_install,$(APT_RUN))

apt-test-deps:
	$(call apt_install,$(APT_TEST))

voice-test-deps:
	$(call apt_install,$(VOICE_TEST_APT_PACKAGES))

npm-deps: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

go-deps:
	@go mod download

## build: the web UI, then the app binary with the UI embedded.
build: $(BIN)

frontend: frontend/dist/index.html

frontend/dist/index.html: $(FRONTEND_SRC) frontend/node_modules/.package-lock.json
	cd frontend && npm run build

$(BIN): $(GO_SRC) frontend/dist/index.html build/.version
	go build -tags $(GO_TAGS) -trimpath -buildmode=pie -ldflags "$(LINUX_LDFLAGS)" -o $(BIN) .

# build/.version changes only when the version does, so a new commit
# rebuilds what embeds the version and nothing rebuilds otherwise.
build/.version: FORCE
	@[ "$$(cat $@ 2>/dev/null)" = "$(VERSION)" ] || echo "$(VERSION)" > $@
FORCE:

run: deps build
	./$(BIN)

## test: vet (Linux and Windows), go.mod tidiness, the committed icons,
## unit tests with the race detector, frontend tests, the production
## build, the end-to-end and browser tests of that build, then the
## packages (make dist) and their checks.
# The tests expect her English lines and UI: the core follows the system
# locale (docs/languages.md), so every test target runs in the C locale.
unit e2e browser-test frontend-test wine-test dist-check: export LC_ALL := C.UTF-8
unit e2e browser-test frontend-test wine-test dist-check: export LANG := C.UTF-8
unit e2e browser-test frontend-test wine-test dist-check: export LC_MESSAGES :=
unit e2e browser-test frontend-test wine-test dist-check: export LANGUAGE :=

test: test-deps desktop-deps voice-test-deps vet windows-vet tidy-check icons-check unit frontend-test build e2e browser-test dist-check wine-test
	@echo "make test: all passed"

vet:
	go vet ./...
	go vet -tags e2e ./app/e2e/ ./app/capture/ ./app/x11/ ./app/x11/xvfbtest/ ./app/frontmost/ ./app/hotkey/ ./app/presence/ ./app/core/gaze/

unit:
	go test -race -count=1 ./...
	# The fitter's full sweep (to 7680x4320) is too slow under -race; run it plain.
	go test -count=1 -run 'TestFit' ./app/jpegfit/
	# The history's 100,000-row figures (docs/history.md) are measured without -race.
	go test -count=1 -run 'TestSearchBeatsALikeScan|TestTheWindowOpensAsFast' -v ./app/history/ | grep -E '^(---|ok|FAIL)|rows' ; exit $${PIPESTATUS[0]}

frontend-test: npm-deps
	cd frontend && npm test

e2e: apt-test-deps build
	go test -tags e2e -count=1 -timeout 10m -v -run E2E ./app/e2e/ 2>&1 | grep -v '^XGB: conn.go' ; exit $${PIPESTATUS[0]}
	go test -tags e2e -count=1 -run E2E ./app/capture/ ./app/x11/ ./app/frontmost/ ./app/hotkey/ ./app/presence/ ./app/core/gaze/ 2>&1 | grep -v '^XGB: conn.go' ; exit $${PIPESTATUS[0]}
	YUI_CONSOLE_BIN=$(abspath $(BIN)) go test -count=1 -v -run 'TestConsoleEndToEnd|TestConsoleAttach|TestConsoleKeyFrom|TestConsoleChaos' ./app/console/

browser-test: apt-test-deps build
	cd frontend && YUI_BIN=../$(BIN) node --test tests/browser/

clean:
	rm -rf build/bin build/dist build/.version frontend/dist/assets frontend/dist/index.html

## ---- Desktop: icons, Windows build, packages (issue 14) ----
# Packaging tools (make dist) and what the tray, autostart and packaging
# tests need (make test), beside APT_RUN and APT_TEST.
DIST_APT_PACKAGES := librsvg2-bin nsis 7zip lintian dpkg-dev
DESKTOP_TEST_APT_PACKAGES := dbus-daemon desktop-file-utils
# Tests that need one of these fail (instead of skipping) when it is
# missing: make installs them.
export YUI_REQUIRE_TOOLS := 1

.PHONY: desktop-deps icons icons-check windows windows-vet tidy-check dist deb installer dist-check wine-deps wine-test

desktop-deps:
	$(call apt_install,$(DIST_APT_PACKAGES) $(DESKTOP_TEST_APT_PACKAGES))

## icons: build/appicon.png is the character's head (iconSVG in
## frontend/src/character.ts) rendered at 1024 px; every other icon is
## derived from it. The outputs are committed (the binary embeds two of
## them), so a build never needs the renderer; `make icons` remakes them
## after a change to the character, and icons-check (in make test) proves
## the committed ones are what it makes.
ICON_SIZES := 16 22 24 32 48 64 128 256 512
ICONS := build/windows/icon.ico $(foreach n,$(ICON_SIZES),build/linux/icons/hicolor/$(n)x$(n)/apps/yui.png)

icons: desktop-deps frontend/node_modules/.package-lock.json
	build/appicon.sh build/appicon.png
	go run -C build/tools ./icons -src $(CURDIR)/build/appicon.png -out $(CURDIR)/build

icons-check: frontend/node_modules/.package-lock.json
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	build/appicon.sh $$tmp/build/appicon.png && \
	go run -C build/tools ./icons -src $$tmp/build/appicon.png -out $$tmp/build && \
	for f in build/appicon.png $(ICONS); do \
		cmp -s $$f $$tmp/$$f || { echo "icons-check: $$f is not what make produces (make icons, then commit)"; exit 1; }; \
	done
	@echo "icons-check: every icon is what make produces"

## windows: the whole app for Windows, cross-built here (no cgo): icon,
## manifest and version resource linked in from a .syso made next to
## main.go for the build and removed after it.
WIN_BIN := build/bin/yui.exe

windows: $(WIN_BIN)

$(WIN_BIN): $(GO_SRC) frontend/dist/index.html build/windows/yui.exe.manifest build/tools/rsrc/main.go build/.version
	trap "rm -f rsrc_windows_amd64.syso" EXIT; \
	go run -C build/tools ./rsrc -ico $(CURDIR)/build/windows/icon.ico -manifest $(CURDIR)/build/windows/yui.exe.manifest \
		-version $(VERSION) -winversion $(WIN_VERSION) -out $(CURDIR)/rsrc_windows_amd64.syso && \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags desktop,production -trimpath \
		-ldflags "$(LDFLAGS) -H windowsgui" -o $@ .

windows-vet:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go vet ./...
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go vet -tags desktop,production ./...

## tidy-check: go.mod is what go mod tidy makes, for the app and for the
## tools module (the Wails CLI and the resource tools, kept out of the
## app's go.mod).
tidy-check:
	go mod tidy -diff
	go -C build/tools mod tidy -diff

## dist: the Debian package and the Windows installer, named by version.
DEB := build/dist/yui_$(VERSION)_amd64.deb
SETUP := build/dist/Yui-$(VERSION)-setup.exe
# The WebView2 bootstrapper Wails ships in its module (Go proxy).
WEBVIEW2_SETUP = $(shell go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)/internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe

dist: deps desktop-deps deb installer

deb: $(DEB)

installer: $(SETUP)

$(DEB): $(BIN) build/linux/mkdeb.sh build/linux/yui.desktop build/linux/yui.1 build/linux/lintian-overrides LICENSE
	@mkdir -p build/dist && rm -f build/dist/yui_*_amd64.deb
	build/linux/mkdeb.sh $(VERSION) $(BIN) $@

$(SETUP): $(WIN_BIN) build/windows/installer/project.nsi build/windows/icon.ico
	@mkdir -p build/dist && rm -f build/dist/Yui-*-setup.exe
	makensis -V2 -DVERSION=$(VERSION) -DWIN_VERSION=$(WIN_VERSION) -DBINARY=$(CURDIR)/$(WIN_BIN) \
		-DICON=$(CURDIR)/build/windows/icon.ico -DWEBVIEW2=$(WEBVIEW2_SETUP) -DOUTFILE=$(CURDIR)/$@ \
		build/windows/installer/project.nsi

## dist-check: the packages' contents (dpkg-deb -x into a throwaway root,
## lintian; 7zz l of the installer), see app/e2e/dist_test.go.
dist-check: dist
	YUI_REQUIRE_TOOLS=1 YUI_VERSION=$(VERSION) YUI_DEB=$(abspath $(DEB)) YUI_SETUP=$(abspath $(SETUP)) \
		YUI_BIN=$(abspath $(BIN)) YUI_WIN_BIN=$(abspath $(WIN_BIN)) WEBVIEW2_SETUP=$(WEBVIEW2_SETUP) \
		go test -tags e2e -count=1 -run 'TestDist' -v ./app/e2e/

## ---- Windows under Wine (issue 23) ----
# Debian's wine64 runs console Go programs; gcc-mingw-w64 builds the
# ProcessPrng DLL they need under Wine 8.0 (build/windows/processprng.c).
WINE_TEST_APT_PACKAGES := wine64 gcc-mingw-w64-x86-64

wine-deps:
	$(call apt_install,$(WINE_TEST_APT_PACKAGES))

## wine-test: the Windows tests of the packages with _windows.go code that
## need no GUI, cross-compiled and run under wine64 in a private prefix,
## then yui.exe --version and yui.exe console against the demo backend
## (build/windows/winetest.sh; docs/windows.md).
wine-test: wine-deps $(WIN_BIN)
	YUI_VERSION=$(VERSION) YUI_WIN_BIN=$(abspath $(WIN_BIN)) build/windows/winetest.sh
