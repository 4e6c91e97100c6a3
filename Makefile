# Entry points for a fresh machine:
#   make demo    install, build, compile examples/markov.cmm and run it on
#                2 local MPI ranks
#   make check   install, build, run every test suite (lit, unit, MPI)
BUILD ?= build
JOBS ?= 2
LLVM_PREFIX ?= /usr/lib/llvm-22
DEMO ?= examples/markov.cmm
DEMO_FLAGS ?=
RANKS ?= 2
# mpirun as root (containers) needs Open MPI's consent.
export OMPI_ALLOW_RUN_AS_ROOT ?= 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ?= 1

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

# Compiled with the built-in machine model for RANKS local nodes and run on
# RANKS MPI ranks (--stats: predicted vs measured makespan, bytes moved).
demo: build
	$(BUILD)/bin/cmmc $(DEMO) --run -np $(RANKS) --run-arg=--stats $(DEMO_FLAGS)

check: build
	cd $(BUILD) && ctest --output-on-failure

clean:
	rm -rf $(BUILD)
