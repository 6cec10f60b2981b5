# kvbudget: `make serve` serves the app, `make test` runs every test. Both install what is missing.
.PHONY: serve test setup build cli bench

PORT ?= 8080
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/node_modules/.bin:$(PATH)

serve: setup
	trunk serve --release --address 127.0.0.1 --port $(PORT)

test:
	bash scripts/test.sh

setup:
	bash scripts/setup.sh

build: setup
	trunk build --release

bench: build
	node bench/throttled.mjs
	node bench/perf.mjs
	node bench/first-screen.mjs
	cargo run --release --example core_bench
	cargo run --release --example calibration

cli:
	cargo build --release --bin kvbudget
