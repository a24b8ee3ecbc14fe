# Napkin: `make run` and `make test` do their own set-up on a fresh Debian machine (as root).
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
export NODE_PATH := /usr/share/nodejs

APT_PACKAGES := cmake g++ make emscripten doctest-dev libfmt-dev chromium clang-format nodejs npm \
                clang libclang-rt-14-dev zopfli binaryen
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

# npm ci installs exactly the committed lockfile, or fails: no fallback that could resolve other
# versions. The lockfile lists every platform's optional rollup and esbuild binary (npm ci
# refuses a lock that lacks any: "Missing: @rollup/rollup-android-…"); npm installs only this
# machine's. package.json's allowScripts denies esbuild's postinstall, which only checks the
# binary npm already chose.
node_modules/.package-lock.json: package.json package-lock.json
	@npm ci --no-audit --no-fund --loglevel=error
	touch $@

# --- builds -------------------------------------------------------------------------------
native: apt
	@cmake --preset native >/dev/null
	cmake --build --preset native -j $(JOBS)

wasm: apt
	@cmake --preset wasm >/dev/null
	cmake --build --preset wasm -j $(JOBS)

# The wasm inside both pages is deflated by zopfli (vite.config.mjs). Without it vite.config.mjs
# falls back to zlib with a warning and a page about 9 KB bigger: here that is an error, checked
# before the build and in each build's output (a zopfli that fails to run falls back too).
define vite_build
	npx vite build $(1) --logLevel warn 2>&1 | tee build/vite.log
	if grep -q 'zopfli not found' build/vite.log; then
	  echo "error: zopfli failed, so vite.config.mjs deflated the wasm with zlib (a bigger page)" >&2; exit 1
	fi
endef

dist: wasm npm
	@command -v zopfli >/dev/null || { echo "error: zopfli is missing (Debian package zopfli; make apt installs it)" >&2; exit 1; }
	$(call vite_build,)
	$(call vite_build,--mode singlefile)
	cp build/single/index.html dist/napkin.html
	$(call vite_build,--mode embed)
	cat build/embed/napkin-glue.js build/embed/napkin-embed.js > dist/napkin-embed.js
	cp build/embed/napkin.wasm.deflate build/embed/napkin-deferred.wasm dist/
	cp dist/problems.json dist/napkin-problems.json
	cp wasm/napkin.d.ts dist/napkin.d.ts
	mkdir -p dist/demo && cp docs/embed-demo.html dist/demo/index.html && cp docs/embed-demo.js dist/demo/demo.js && cp docs/embed-demo.css dist/demo/demo.css && cp docs/examples/week3.json dist/demo/week3.json
	node web/add-csp.mjs dist/index.html dist/embed.html dist/napkin.html
	echo "Built dist/index.html, dist/napkin.html (self-contained, opens from disk), dist/napkin-embed.js."

run: dist
	@node web/serve.mjs dist $(PORT)

# --- tests: every tier --------------------------------------------------------------------
# Each tier stamps its own wall time (its tests only, not the build it needs) into
# build/test-times/<tier>; a passing `make test` gathers them into build/test-times.txt, with
# the whole run's time, for `make bench` to print. A failing tier stops before its stamp.
TEST_TIERS := format-check test-native test-asan fuzz-smoke test-wasm test-js test-e2e
TEST_START := $(shell date +%s)
tier_start = t0=$$(date +%s.%N)
tier_done = mkdir -p build/test-times && awk -v t0=$$t0 -v t1=$$(date +%s.%N) 'BEGIN { printf "%.1f", t1 - t0 }' >build/test-times/$@

test: deps format-check test-native test-asan fuzz-smoke test-wasm dist test-js test-e2e
	@{
	  echo "make test at $$(date -u +%FT%TZ) ($$(nproc) cores, load $$(cut -d' ' -f1 /proc/loadavg)): wall seconds"
	  for t in $(TEST_TIERS); do printf '  %-26s %7s s\n' "$$t" "$$(cat build/test-times/$$t)"; done
	  printf '  %-26s %7s s\n' "whole run (set-up, builds)" "$$(( $$(date +%s) - $(TEST_START) ))"
	} >build/test-times.txt
	echo "All Napkin test tiers passed."

test-native: native
	@$(tier_start)
	ctest --preset native
	$(tier_done)

# ASan + UBSan (no recovery) over the whole doctest suite, with the property test at 4,000
# random inputs per estimator (CMakePresets.json).
asan: apt
	@cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test-asan: asan
	@$(tier_start)
	ctest --preset asan
	$(tier_done)

# libFuzzer on the unit parser, the JSON reader, the answer reader, Registry::run and problem
# files (reader, expressions, variants), from the
# seed corpora in tests/fuzz/corpus/ (findings are written to build/fuzz/). `make fuzz` runs
# each harness FUZZ_SECONDS (default 600); `make test` runs a smoke of 4 s each.
FUZZERS := fuzz_units fuzz_json fuzz_answer fuzz_run fuzz_problems
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
	@$(tier_start)
	$(call run_fuzzers,4)
	$(tier_done)

fuzz: asan
	@$(call run_fuzzers,$(FUZZ_SECONDS))

test-wasm: wasm
	@$(tier_start)
	ctest --preset wasm
	$(tier_done)

test-js: native dist
	@$(tier_start)
	node --test tests/js/
	$(tier_done)

test-e2e: dist
	@$(tier_start)
	npx playwright test --config tests/e2e/playwright.config.mjs
	$(tier_done)

SOURCES = $(wildcard core/*.cpp core/*.hpp core/*/*.cpp core/*/*.hpp cli/*.cpp cli/*.hpp wasm/*.cpp tests/*.cpp tests/*.hpp tests/fuzz/*.cpp)

format:
	@clang-format -i $(SOURCES)

format-check:
	@$(tier_start)
	clang-format --dry-run --Werror $(SOURCES)
	echo "clang-format: $(words $(SOURCES)) files clean"
	$(tier_done)

bench: native dist
	@node tests/bench/bench.mjs

clean:
	@rm -rf build dist test-results
