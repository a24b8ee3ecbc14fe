# Napkin: `make run` and `make test` do their own set-up on a fresh Debian machine (as root).
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
export NODE_PATH := /usr/share/nodejs

APT_PACKAGES := cmake g++ make emscripten doctest-dev libfmt-dev chromium clang-format nodejs npm \
                clang libclang-rt-14-dev zopfli
PORT ?= 8080
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps apt npm native wasm dist run test test-native test-wasm test-js test-e2e \
        test-asan asan fuzz fuzz-smoke format format-check bench clean

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
test: deps format-check test-native test-asan fuzz-smoke test-wasm dist test-js test-e2e
	@echo "All Napkin test tiers passed."

test-native: native
	@ctest --preset native

# ASan + UBSan (no recovery) over the whole doctest suite, with the property test at 4,000
# random inputs per estimator (CMakePresets.json).
asan: apt
	@cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test-asan: asan
	@ctest --preset asan

# libFuzzer on the unit parser, the JSON reader, the answer reader and Registry::run, from the
# seed corpora in tests/fuzz/corpus/ (findings are written to build/fuzz/). `make fuzz` runs
# each harness FUZZ_SECONDS (default 600); `make test` runs a smoke of 4 s each.
FUZZERS := fuzz_units fuzz_json fuzz_answer fuzz_run
FUZZ_SECONDS ?= 600

define run_fuzzers
	mkdir -p build/fuzz
	for f in $(FUZZERS); do
	  c=$${f#fuzz_}; mkdir -p build/fuzz/$$c
	  build/asan/$$f -max_total_time=$(1) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=build/fuzz/$$c- -print_final_stats=1 build/fuzz/$$c tests/fuzz/corpus/$$c \
	    2>build/fuzz/$$f.log || { tail -40 build/fuzz/$$f.log; exit 1; }
	  echo "$$f: $$(grep -o 'stat::number_of_executed_units: *[0-9]*' build/fuzz/$$f.log | grep -o '[0-9]*$$') runs in $(1) s, no finding"
	done
endef

fuzz-smoke: asan
	@$(call run_fuzzers,4)

fuzz: asan
	@$(call run_fuzzers,$(FUZZ_SECONDS))

test-wasm: wasm
	@ctest --preset wasm

test-js: native dist
	@node --test tests/js/

test-e2e: dist
	@npx playwright test --config tests/e2e/playwright.config.mjs

SOURCES = $(wildcard core/*.cpp core/*.hpp core/*/*.cpp core/*/*.hpp cli/*.cpp cli/*.hpp wasm/*.cpp tests/*.cpp tests/*.hpp tests/fuzz/*.cpp)

format:
	@clang-format -i $(SOURCES)

format-check:
	@clang-format --dry-run --Werror $(SOURCES)
	echo "clang-format: $(words $(SOURCES)) files clean"

bench: native dist
	@node tests/bench/bench.mjs

clean:
	@rm -rf build dist test-results
