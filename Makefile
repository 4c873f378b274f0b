# Entry points for a fresh Debian 12 machine. Each target installs what it needs
# (scripts/setup.sh is idempotent), configures, builds and runs.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
MPICH_BUILD ?= build-mpich
GENERATOR  := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")
JOBS       ?= $(shell nproc)
# CI treats warnings as errors.
WERROR     ?= $(if $(filter true,$(CI)),ON,OFF)

.PHONY: all setup configure build demo test test-sanitize test-mpich bench package screenshots clean

all: build

setup:
	bash scripts/setup.sh

configure: setup
	cmake -S . -B $(BUILD) -G "$(GENERATOR)" -DWAITSCOPE_WERROR=$(WERROR)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: record a bundled RMA example, analyze it, print the findings, open it in the app.
# Builds only what the demo runs (the waitscope-demo target), not the tests.
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target waitscope-demo
	bash scripts/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600

# The backend (no Qt) with AddressSanitizer and UBSan, and its tests.
test-sanitize: setup
	cmake -S . -B $(SAN_BUILD) -G "$(GENERATOR)" -DWAITSCOPE_GUI=OFF -DWAITSCOPE_SANITIZE=ON \
	  -DWAITSCOPE_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug -DWAITSCOPE_WERROR=$(WERROR)
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L backend --timeout 900

# The backend (no Qt) built against MPICH, installed beside Open MPI (which stays the default
# mpicc/mpiexec), and its MPI tests: recording, pattern analysis, the tools end to end.
# Left out (docs/testing.md): the recorder's abort checks, which need the other ranks to live long
# enough to flush their events; MPICH's Hydra kills them with SIGKILL at once.
MPICH_TESTS ?= -L mpi -E '^(mpi_measure_abort|mpi_measure_output)$$'
test-mpich:
	bash scripts/setup.sh --mpich
	cmake -S . -B $(MPICH_BUILD) -G "$(GENERATOR)" -DWAITSCOPE_GUI=OFF -DWAITSCOPE_BENCH=OFF -DWAITSCOPE_MPI_TESTS_ONLY=ON \
	  -DWAITSCOPE_WERROR=$(WERROR) -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich
	cmake --build $(MPICH_BUILD) -j $(JOBS)
	cd $(MPICH_BUILD) && ctest --output-on-failure -j $(JOBS) $(MPICH_TESTS) --timeout 600

bench: build
	bash scripts/bench.sh $(BUILD)

# Debian packages build/waitscope-backend_VERSION_amd64.deb (no Qt, for cluster nodes), build/waitscope_VERSION_amd64.deb
# (the app) and build/python3-waitscope_VERSION_all.deb (the Python API)
package: build
	cd $(BUILD) && cpack -G DEB

# The user guide's figures (docs/images/) made by the app's own --export-png; commit them afterwards
screenshots: build
	bash scripts/make-screenshots.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(MPICH_BUILD)
