# Napkin: `make run` and `make test` do their own set-up on a fresh Debian machine (as root).
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
export NODE_PATH := /usr/share/nodejs

APT_PACKAGES := cmake g++ make emscripten doctest-dev chromium clang-format nodejs npm
PORT ?= 8080
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps apt npm native wasm dist run test test-native test-wasm test-js test-e2e \
        format format-check bench clean

all: dist

# --- set-up: install only what is missing -------------------------------------------------
deps: apt npm

apt:
	@missing=""
	for p in $(APT_PACKAGES); do
	  case $$p in
	    nodejs) command -v node >/dev/null && continue ;;
	    npm) command -v npm >/dev/null && continue ;;
	  esac
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"
	done
	if [ -n "$$missing" ]; then
	  echo "Installing Debian packages:$$missing"
	  apt-get update -qq
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing
	fi

npm: node_modules/.package-lock.json

# npm ci installs exactly the committed lockfile. The registry mirror here lacks other
# platforms' optional rollup binaries, which makes npm ci refuse the lock ("Missing:
# @rollup/rollup-android-…"); then npm install --no-save installs the same locked versions.
node_modules/.package-lock.json: package.json package-lock.json
	@npm ci --no-audit --no-fund --loglevel=error 2>/dev/null || npm install --no-save --no-audit --no-fund --loglevel=error
	touch $@

# --- builds -------------------------------------------------------------------------------
native: apt
	@cmake --preset native >/dev/null
	cmake --build --preset native -j $(JOBS)

wasm: apt
	@cmake --preset wasm >/dev/null
	cmake --build --preset wasm -j $(JOBS)

dist: wasm npm
	@npx vite build --logLevel warn
	npx vite build --mode singlefile --logLevel warn
	cp build/single/index.html dist/napkin.html
	npx vite build --mode embed --logLevel warn
	cat build/wasm/napkin.js build/embed/napkin-embed.js > dist/napkin-embed.js
	mkdir -p dist/demo && cp docs/embed-demo.html dist/demo/index.html && cp docs/embed-demo.js dist/demo/demo.js && cp docs/embed-demo.css dist/demo/demo.css
	node web/add-csp.mjs dist/index.html dist/embed.html dist/napkin.html
	echo "Built dist/index.html, dist/napkin.html (self-contained, opens from disk), dist/napkin-embed.js."

run: dist
	@node web/serve.mjs dist $(PORT)

# --- tests: every tier --------------------------------------------------------------------
test: deps format-check test-native test-wasm dist test-js test-e2e
	@echo "All Napkin test tiers passed."

test-native: native
	@ctest --preset native

test-wasm: wasm
	@ctest --preset wasm

test-js: native dist
	@node --test tests/js/

test-e2e: dist
	@npx playwright test --config tests/e2e/playwright.config.mjs

SOURCES = $(wildcard core/*.cpp core/*.hpp core/*/*.cpp core/*/*.hpp cli/*.cpp wasm/*.cpp tests/*.cpp tests/*.hpp)

format:
	@clang-format -i $(SOURCES)

format-check:
	@clang-format --dry-run --Werror $(SOURCES)
	echo "clang-format: $(words $(SOURCES)) files clean"

bench: native dist
	@node tests/bench/bench.mjs

clean:
	@rm -rf build dist test-results
