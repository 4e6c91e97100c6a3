# Entry points for a fresh machine:
#   make demo    install, build, compile examples/markov.cmm and run it
#   make check   install, build, run every test suite (lit, unit; MPI suites
#                join with the MPI back end)
BUILD ?= build
JOBS ?= 2
LLVM_PREFIX ?= /usr/lib/llvm-22
DEMO ?= examples/markov.cmm
DEMO_FLAGS ?=

.PHONY: all deps configure build demo check clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit

configure: deps $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j$(JOBS)

# Until the MPI back end lands, the demo runs the reference interpreter.
demo: build
	$(BUILD)/bin/cmmc $(DEMO) --interpret $(DEMO_FLAGS)

check: build
	cd $(BUILD) && ctest --output-on-failure

clean:
	rm -rf $(BUILD)
