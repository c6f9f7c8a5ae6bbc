# Yui — the two commands a newcomer needs:
#   make run    install what is missing, build, start Yui
#   make test   install what is missing, build, run every test
# Everything else here serves those two.

SHELL := /bin/bash
.DEFAULT_GOAL := run

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential \
	xvfb xcompmgr xdotool x11-utils chromium
GO_TAGS := desktop,production,webkit2_41
BIN := build/bin/yui
FRONTEND_SRC := $(shell find frontend/src frontend/index.html frontend/public -type f 2>/dev/null) \
	frontend/package.json frontend/vite.config.ts frontend/tsconfig.json
GO_SRC := $(shell find . -name '*.go' -not -path './frontend/*' 2>/dev/null) go.mod go.sum

.PHONY: run test deps apt-deps npm-deps go-deps build frontend vet unit frontend-test e2e browser-test clean

## deps: apt packages, npm packages, Go modules — each only when missing.
deps: apt-deps npm-deps go-deps

apt-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

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

$(BIN): $(GO_SRC) frontend/dist/index.html
	go build -tags $(GO_TAGS) -trimpath -ldflags "-w -s" -o $(BIN) .

run: deps build
	./$(BIN)

## test: vet, unit tests with the race detector, frontend tests, the
## production build, then the end-to-end and browser tests of that build.
test: deps vet unit frontend-test build e2e browser-test
	@echo "make test: all passed"

vet:
	go vet ./...
	go vet -tags e2e ./app/e2e/ ./app/capture/ ./app/x11/ ./app/frontmost/

unit:
	go test -race -count=1 ./...
	# The fitter's full sweep (to 7680x4320) is too slow under -race; run it plain.
	go test -count=1 -run 'TestFit' ./app/jpegfit/

frontend-test: npm-deps
	cd frontend && npm test

e2e: build
	go test -tags e2e -count=1 -timeout 10m -v -run E2E ./app/e2e/ 2>&1 | grep -v '^XGB: conn.go' ; exit $${PIPESTATUS[0]}
	go test -tags e2e -count=1 -run E2E ./app/capture/ ./app/x11/ ./app/frontmost/ 2>&1 | grep -v '^XGB: conn.go' ; exit $${PIPESTATUS[0]}
	YUI_CONSOLE_BIN=$(abspath $(BIN)) go test -count=1 -v -run 'TestConsoleEndToEnd|TestConsoleAttach|TestConsoleKeyFrom|TestConsoleChaos' ./app/console/

browser-test: build
	cd frontend && YUI_BIN=../$(BIN) node --test tests/browser/

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html
