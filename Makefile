# Entry points for a fresh machine:
#   make demo    install, build, compile examples/markov.cmm and run it on
#                2 local MPI ranks
#   make check   install, build, run every test suite (lit, unit, MPI),
#                then the same under ASan + UBSan (make check-sanitize)
BUILD ?= build
JOBS ?= 2
LLVM_PREFIX ?= /usr/lib/llvm-22
DEMO ?= examples/markov.cmm
DEMO_FLAGS ?=
RANKS ?= 2
# mpirun as root (containers) needs Open MPI's consent.
export OMPI_ALLOW_RUN_AS_ROOT ?= 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ?= 1

# The sanitizer build (make check-sanitize; docs/reliability.md): the whole
# tree and the programs its cmmc compiles with ASan + UBSan, in its own
# directory, at -O0: it builds in 0.6 of -O1's time (CmmOps.cpp: 21 s vs
# 36 s), and the tests spend their time in libMLIR and OpenBLAS, which are
# optimized either way.
SANITIZE_BUILD ?= build-sanitize
SANITIZERS ?= address,undefined

.PHONY: all deps configure build demo check check-release check-sanitize \
	check-fuzz clean

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

# Every suite: the release build's tests, then the sanitizer build's.
check: check-release check-sanitize

# Two tests at a time (two thirds of the wall time: the MPI tests wait on
# mpirun and the compiler); those that measure time are RUN_SERIAL.
check-release: build
	cd $(BUILD) && ctest -j$(JOBS) --output-on-failure

$(SANITIZE_BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(SANITIZE_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
	  -DCMM_SANITIZE=$(SANITIZERS) \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit

# lit, the unit tests and an MPI subset (the tests labelled `sanitize`).
check-sanitize: deps $(SANITIZE_BUILD)/build.ninja
	ninja -C $(SANITIZE_BUILD) -j$(JOBS)
	cd $(SANITIZE_BUILD) && ctest -j$(JOBS) -L sanitize --output-on-failure

# The fuzz build (make check-fuzz; docs/reliability.md, "Fuzzing"): clang's
# libFuzzer targets of test/Fuzz, with ASan + UBSan and the fuzzer's
# coverage on the libraries they link (only those are built), each run
# FUZZ_SECONDS on its seed corpus; test/Fuzz/run.sh fails on any finding.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
CLANG ?= clang-22

$(FUZZ_BUILD)/build.ninja:
	cmake -G Ninja -S . -B $(FUZZ_BUILD) \
	  -DCMAKE_C_COMPILER=$(CLANG) \
	  -DCMAKE_CXX_COMPILER=$(subst clang,clang++,$(CLANG)) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	  -DCMM_SANITIZE=$(SANITIZERS) -DCMM_FUZZ=ON \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit

check-fuzz:
	@bash scripts/install-deps.sh --fuzz
	$(MAKE) $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD) -j$(JOBS) cmm-fuzzers
	bash test/Fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD)
