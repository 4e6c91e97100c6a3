# Entry points for a fresh machine:
#   make demo    install, build, compile examples/markov.cmm and run it on
#                2 local MPI ranks
#   make check   install, build, run every test suite (lit, unit, MPI),
#                then the same under ASan + UBSan and a bounded fuzz run
#                (make check-sanitize)
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
# tree and the programs its cmmc compiles, with clang's ASan + UBSan, in its
# own directory, at -O0: it builds in 0.6 of -O1's time, and the tests spend
# their time in libMLIR and OpenBLAS, which are optimized either way. The
# tree also carries libFuzzer's coverage (-DCMM_FUZZ=ON), so the same build
# links the fuzz targets of test/Fuzz (make check-fuzz).
SANITIZE_BUILD ?= build-sanitize
SANITIZERS ?= address,undefined
CLANG ?= clang-22
# check-sanitize ends with a bounded run of every fuzz target (seconds each);
# make check-fuzz runs them for FUZZ_SECONDS.
SANITIZE_FUZZ_SECONDS ?= 10
FUZZ_SECONDS ?= 60

.PHONY: all deps configure build demo check check-release check-sanitize \
	check-fuzz sanitize-build clean

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
	  -DCMAKE_C_COMPILER=$(CLANG) \
	  -DCMAKE_CXX_COMPILER=$(subst clang,clang++,$(CLANG)) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
	  -DCMM_SANITIZE=$(SANITIZERS) -DCMM_FUZZ=ON \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit

sanitize-build: deps
	@bash scripts/install-deps.sh --fuzz
	$(MAKE) $(SANITIZE_BUILD)/build.ninja
	ninja -C $(SANITIZE_BUILD) -j$(JOBS)

# lit, the unit tests and an MPI subset (the tests labelled `sanitize`),
# then every fuzz target for SANITIZE_FUZZ_SECONDS on its seed corpus
# (test/Fuzz/run.sh fails on any finding).
check-sanitize: sanitize-build
	cd $(SANITIZE_BUILD) && ctest -j$(JOBS) -L sanitize --output-on-failure
	bash test/Fuzz/run.sh $(SANITIZE_BUILD) $(SANITIZE_FUZZ_SECONDS)

check-fuzz: sanitize-build
	bash test/Fuzz/run.sh $(SANITIZE_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
