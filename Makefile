# tcscope build. Every folder of doc/design.md is a library; sources are found by
# wildcard so a new file needs no edit here.
#
#   make            build/tcscope (with the CUDA backend when nvcc exists) and
#                   build/libtcscope.so (CPU only: the C API of api/tcscope.h)
#   make test       unit/property/golden tests, sanitized and optimized
#   make check      the quick tier: the fast tests, optimized only
#   make bench      JSON lines, one per figure (on a GPU tcscope bench's record: one per instruction)
#   make audit      the main job (GPU if present, else the recorded model)
#   make exhaustive the full 2^32 sweeps (benchmark-class, all cores)

CC       ?= cc
NVCC     ?= $(shell command -v nvcc 2>/dev/null)
# Where MPFR/GMP/jansson/cmocka live when not in /usr (the GPU machine: /tmp/deps/usr).
DEPS_PREFIX ?=
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

DEPS_CFLAGS  = $(if $(DEPS_PREFIX),-I$(DEPS_PREFIX)/include -I$(DEPS_PREFIX)/include/x86_64-linux-gnu)
comma := ,
DEPS_LDFLAGS = $(if $(DEPS_PREFIX),-L$(DEPS_PREFIX)/lib/x86_64-linux-gnu -Wl$(comma)-rpath$(comma)$(DEPS_PREFIX)/lib/x86_64-linux-gnu)

# -Wno-missing-field-initializers: the option tables and other positional
# initializers leave their trailing fields to C's zero rule on purpose; gcc
# does not warn there, clang does (make clang-check builds with clang too).
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
           -Wno-missing-field-initializers
CSTD     = -std=c11 -D_GNU_SOURCE
CPPFLAGS = -I. $(DEPS_CFLAGS)
OPTFLAGS = -O2 -g
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS   = $(DEPS_LDFLAGS) -ljansson -lnettle -lmpfr -lgmp -llzma -larchive -lpthread -lm

# A module's subfolder (cases/families: one case family per file) is named too.
# api/: the C API of the shared library (tcscope.h), on top of the others.
MODULES  = formats oracle probes cases cases/families reports api
LIB_SRC  = $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
CLI_SRC  = $(wildcard cli/*.c)
TEST_SRC = $(wildcard tests/test_*.c)
BENCH_SRC = $(wildcard tests/bench_*.c)
TOOL_SRC = $(wildcard tools/*.c)

# The CUDA backend: probes/cuda/*.cu (and the GPU hunt's round kernels, cases/cuda/*.cu), only with nvcc.
ifneq ($(NVCC),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# arch_sm70.cu is never compiled by this nvcc: CUDA 13 does not build sm_70 (PTXAS12 below).
CU_SRC    = $(filter-out probes/cuda/arch_sm70.cu,$(wildcard probes/cuda/*.cu)) $(wildcard cases/cuda/*.cu)
# The architectures of the portable build, one ISA table each (probes/isa/arch/smXX.def);
# sm_70 only with PTXAS12.
ARCHS     = 75 80 86 89 90a 100a 120a
gencode   = $(foreach a,$(1),-gencode=arch=compute_$(a),code=sm_$(a))
# Most kernels are sm_90a SASS and PTX (gpu:jit); the warp-level executors
# (mma, mma.sp, wmma) are SASS for every architecture (WARP_GENCODE: the
# device task tools/device/jit-arch.sh builds them as compute_80 or
# compute_89 PTX only); each form-kernel file probes/cuda/arch_smXX.cu for
# its own architecture only.
NVCC_GENCODE = -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90a,code=compute_90a
WARP_GENCODE ?= $(call gencode,$(ARCHS)) -gencode=arch=compute_90a,code=compute_90a
NVCCFLAGS = -O3 -std=c++17 $(NVCC_GENCODE) -Xcompiler -Wall,-Werror -Werror all-warnings -I. $(DEPS_CFLAGS)
CUDA_DEF  = -DTC_HAVE_CUDA=1
# PTXAS=/path/to/ptxas: the kernels' SASS from another toolkit's assembler (for
# example CUDA 12.x's, from the nvidia-cuda-nvcc-cu12 wheel), this toolkit's
# front end. nvcc then runs without its profile, tools/ptxas-other.sh first on
# PATH. `make clean` first: objects are not rebuilt when only PTXAS changes.
PTXAS ?=
ifneq ($(PTXAS),)
PTXAS_BIN  = $(abspath $(PTXAS))
PTXAS_DIR  = build/ptxas-other/ptxas
NVCC_RUN   = PATH=$(abspath build/ptxas-other):$(CUDA_HOME)/nvvm/bin:$(CUDA_HOME)/bin:$$PATH TC_PTXAS=$(PTXAS_BIN) \
             TC_PTXAS_LOG=$(abspath build/ptxas-other/lowered.log) $(NVCC) --dont-use-profile \
             -I$(CUDA_HOME)/targets/x86_64-linux/include -isystem $(CUDA_HOME)/targets/x86_64-linux/include/cccl
else
PTXAS_BIN  = $(CUDA_HOME)/bin/ptxas
NVCC_RUN   = $(NVCC)
PTXAS_DIR  =
endif
CUDA_LIBS = -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
# The build's SASS file (probes/sass.h tc_sass_write_build): build/tcscope's
# timing kernels disassembled once, right after linking, into
# build/tcscope.sass, so that its timed commands need not run cuobjdump at
# every start (2.5-3.0 s on the H200 nodes); the binary reads the file only
# while the build-id in its header is its own. Only where a cuobjdump is
# found (CI has nvcc and none): else no file, and an earlier one removed.
CUOBJDUMP ?= $(firstword $(wildcard $(CUDA_HOME)/bin/cuobjdump) $(shell command -v cuobjdump 2>/dev/null))
SASS_WRITE := $(if $(CUOBJDUMP),build/opt/tools/sass_write)
# PTXAS12=/path/to/ptxas of CUDA 12.x (the nvidia-cuda-nvcc-cu12 wheel; `python3
# tools/toolkit-matrix.py ptxas 12.9` downloads one and prints its path): sm_70 (Volta),
# which CUDA 13 does not build. The warp-level executors' sm_70 SASS joins their fat
# binaries (tools/cubin12.sh: this nvcc's front end, that ptxas), and the sm_70 form
# kernels are built for tools/arch-sass-check.py. Without it the binary has no sm_70
# code, and says so (every record's compiler; on a V100 each instruction is refused).
# `make clean` first when PTXAS12 changes.
PTXAS12 ?=
ifneq ($(PTXAS12),)
SM70_DIR   = build/opt/probes/cuda
SM70_FORMS = $(SM70_DIR)/arch_sm70.sm_70.cubin
$(SM70_DIR)/%.sm_70.cubin: probes/cuda/%.cu
	@mkdir -p $(dir $@)
	NVCC=$(NVCC) tools/cubin12.sh $(abspath $(PTXAS12)) $< $@ -O3 -std=c++17 -Xcompiler -Wall,-Werror \
	  -Werror all-warnings -I. $(DEPS_CFLAGS) -MMD -MP -MF $@.d -MT $@
	@echo "--image3=kind=elf,sm=70,file=$(abspath $@)" > $@.fatbin-options
$(SM70_DIR)/mma_gen.cu.o: $(SM70_DIR)/mma_gen.sm_70.cubin
$(SM70_DIR)/mma_sp_gen.cu.o: $(SM70_DIR)/mma_sp_gen.sm_70.cubin
# nvcc splits an -Xfatbin value at its commas: the image goes through an options file.
$(SM70_DIR)/mma_gen.cu.o $(SM70_DIR)/mma_sp_gen.cu.o: NVCC_SM70 = -Xfatbin=--options-file=$(abspath $(@:.cu.o=.sm_70.cubin.fatbin-options))
SM70_NOTE  = ; sm_70: ptxas $(shell $(PTXAS12) --version | grep -o 'V[0-9][0-9.]*' | tail -1)
else
SM70_FORMS =
SM70_NOTE  = ; sm_70: none (no PTXAS12)
endif
else
CU_SRC    =
CUDA_DEF  = -DTC_HAVE_CUDA=0
CUDA_LIBS =
SASS_WRITE =
endif

# The CUDA objects come first, largest source first: nvcc is most of a fresh
# build's time, so under -j the longest compiles start at once and the C
# files fill the other cores (each .cu is compiled once, for build/opt only).
CU_OBJ   = $(patsubst %.cu,build/opt/%.cu.o,$(if $(CU_SRC),$(shell ls -S $(CU_SRC))))
OPT_OBJ  = $(CU_OBJ) $(LIB_SRC:%.c=build/opt/%.o)
SAN_OBJ  = $(LIB_SRC:%.c=build/san/%.o)

.PHONY: all test test-run bench audit audit-run exhaustive clean deps
all: build/tcscope build/libtcscope.so

# The two README commands first make sure the Debian packages are there.
deps:
	@tools/deps.sh

build/opt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPTFLAGS) $(CUDA_DEF) $(CPPFLAGS) -MMD -MP -c $< -o $@

# The sanitized build never links CUDA: its host code is what the tests exercise.
build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SANFLAGS) -DTC_HAVE_CUDA=0 $(CPPFLAGS) -MMD -MP -c $< -o $@

build/ptxas-other/ptxas:
	@mkdir -p $(dir $@); ln -sf $(abspath tools/ptxas-other.sh) $@
build/opt/%.cu.o: %.cu | $(PTXAS_DIR)
	@mkdir -p $(dir $@)
	$(NVCC_RUN) $(NVCCFLAGS) $(NVCC_SM70) -MMD -MP -c $< -o $@
ifneq ($(NVCC),)
build/opt/probes/cuda/mma_gen.cu.o build/opt/probes/cuda/mma_sp_gen.cu.o: NVCC_GENCODE = $(WARP_GENCODE)
build/opt/probes/cuda/arch_%.cu.o: NVCC_GENCODE = $(call gencode,$(patsubst arch_sm%,%,$(notdir $*)))
endif

build/opt/libtcscope.a: $(OPT_OBJ)
	@rm -f $@; ar rcs $@ $^
build/san/libtcscope.a: $(SAN_OBJ)
	@rm -f $@; ar rcs $@ $^

# The library first: under -j its nvcc compiles start before the CLI's C files.
# Then the build's SASS file (SASS_WRITE above), or none: a write that fails
# fails nothing (sass_write says why; the timing runs cuobjdump as without it).
build/tcscope: build/opt/libtcscope.a $(CLI_SRC:%.c=build/opt/%.o) | $(SM70_FORMS) $(SASS_WRITE)
	$(CC) $(OPTFLAGS) -o $@ $(filter %.o,$^) build/opt/libtcscope.a $(CUDA_LIBS) $(LDLIBS)
	$(if $(SASS_WRITE),TCSCOPE_CUOBJDUMP='$(CUOBJDUMP)' $(SASS_WRITE) $@ $@.sass sm_90a tct_ || true,rm -f $@.sass)

build/san/tcscope: $(CLI_SRC:%.c=build/san/%.o) build/san/libtcscope.a
	$(CC) $(SANFLAGS) -o $@ $(filter %.o,$^) build/san/libtcscope.a $(LDLIBS)

# Each tests/test_NAME.c is one cmocka program, built twice.
build/san/tests/%: tests/%.c build/san/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SANFLAGS) -DTC_HAVE_CUDA=0 $(CPPFLAGS) -o $@ $< build/san/libtcscope.a -lcmocka $(LDLIBS)
build/opt/tests/%: tests/%.c build/opt/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPTFLAGS) $(CUDA_DEF) $(CPPFLAGS) -o $@ $< build/opt/libtcscope.a -lcmocka $(CUDA_LIBS) $(LDLIBS)
build/opt/bench/%: tests/%.c build/opt/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O3 -g $(CUDA_DEF) $(CPPFLAGS) -o $@ $< build/opt/libtcscope.a $(CUDA_LIBS) $(LDLIBS)
build/opt/tools/%: tools/%.c build/opt/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O3 -g $(CUDA_DEF) $(CPPFLAGS) -o $@ $< build/opt/libtcscope.a $(CUDA_LIBS) $(LDLIBS)

# test_pool runs cli/pool.c's pool and its gate (not in the library) with itself as the children.
build/san/tests/test_pool: tests/test_pool.c build/san/cli/pool.o build/san/cli/pool_gate.o build/san/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(SANFLAGS) -DTC_HAVE_CUDA=0 $(CPPFLAGS) -o $@ $< build/san/cli/pool.o build/san/cli/pool_gate.o build/san/libtcscope.a -lcmocka $(LDLIBS)
build/opt/tests/test_pool: tests/test_pool.c build/opt/cli/pool.o build/opt/cli/pool_gate.o build/opt/libtcscope.a
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPTFLAGS) $(CUDA_DEF) $(CPPFLAGS) -o $@ $< build/opt/cli/pool.o build/opt/cli/pool_gate.o build/opt/libtcscope.a -lcmocka $(CUDA_LIBS) $(LDLIBS)

# The call-graph test reads every object of its build, the CLI's too.
build/opt/tests/test_file_cycles: build/tcscope
build/san/tests/test_file_cycles: build/san/tcscope

TESTS_SAN = $(TEST_SRC:tests/%.c=build/san/tests/%)
TESTS_OPT = $(TEST_SRC:tests/%.c=build/opt/tests/%)
BENCHES   = $(BENCH_SRC:tests/%.c=build/opt/bench/%)

# The CLI tests call build/tcscope and build/san/tcscope. The build runs on
# all cores (JOBS) unless make was given its own -j; the tests still run one
# program at a time (tests/run-tests).
TEST_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
test: deps
	@$(MAKE) --no-print-directory $(TEST_JOBS) test-run
test-run: build/tcscope build/san/tcscope $(TESTS_SAN) $(TESTS_OPT)
	@tests/run-tests $(TESTS_SAN) $(TESTS_OPT)

# The quick tier (doc/contributing.md): the fast tests, optimized only, about
# a minute on 2 cores from a warm build; make test stays the whole suite.
CHECK_TESTS = test_formats_fast test_value test_oracle test_profile test_chain test_catalogue test_sass \
              test_sparse test_gen test_casefile test_convert test_backend test_outdir test_json_records \
              test_record_packed test_compare test_cli test_cli_help test_suggestions test_vocabulary \
              test_docs test_layers test_model_layers test_file_cycles
.PHONY: check
check: build/tcscope $(CHECK_TESTS:%=build/opt/tests/%)
	@tests/run-tests $(CHECK_TESTS:%=build/opt/tests/%)

# Every tracked C file through clang's front end with the same warnings
# (-Werror), so that `make CC=clang` stays a working build (CI runs it).
.PHONY: clang-check
clang-check:
	@git ls-files '*.c' | grep -v '^python/' | xargs -P $(JOBS) -n 8 \
	  clang $(CSTD) $(WARN) -DTC_HAVE_CUDA=0 $(CPPFLAGS) -fsyntax-only && echo "clang-check: every C file clean"

# reports/baselines/MANIFEST rewritten from the files (tools/manifest.py: hashes, each record's
# header facts, the tracked files that read each; the human columns kept), and the CI check of
# the tracked tree's size budget and of the manifest (tools/data-check.sh).
.PHONY: manifest data-check
manifest:
	@python3 tools/manifest.py write
data-check:
	@tools/data-check.sh

bench: build/tcscope $(BENCHES)
	@for b in $(BENCHES); do $$b || exit $$?; done
	@build/tcscope bench --json --if-gpu
	@tools/bench-hunt.sh
	@tools/bench-random.sh
	@tools/bench-audit.sh

audit: deps
	@$(MAKE) --no-print-directory audit-run
audit-run: build/tcscope
	build/tcscope audit --instr all --out out/audit --force

exhaustive: build/tcscope $(TOOL_SRC:tools/%.c=build/opt/tools/%)
	@tools/exhaustive.sh

clean:
	rm -rf build out

-include $(shell find build -name '*.d' 2>/dev/null)

# >>> formats-tools (owned by the formats work: host/device conversion sweeps)
# tools/cuda/cvt_sweep.cu: CUDA's host conversions and, with a GPU, the device
# cvt instructions, against our encoder for all 2^32 float32 inputs.
CVT_SWEEP = build/opt/tools/cvt_sweep
ifneq ($(NVCC),)
# It needs formats/ alone, so it links those objects, not the whole library.
FORMATS_OPT_OBJ = $(filter build/opt/formats/%,$(OPT_OBJ))
$(CVT_SWEEP): build/opt/tools/cuda/cvt_sweep.cu.o $(FORMATS_OPT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -O2 -o $@ $^ $(CUDA_LIBS) $(LDLIBS)
exhaustive: $(CVT_SWEEP)
endif
.PHONY: cvt-sweep
cvt-sweep: $(CVT_SWEEP)
# <<< formats-tools

# >>> timing (owned by the timing-probe work: extra libraries, SASS checks)
# cuBLASLt and NVML are loaded with dlopen at run time: nothing extra is linked.
# <<< timing

# The executor and timing kernels (probes/cuda/*_gen*.cu, timing_mma.cu,
# timing_wgmma_*.cu) are generated from the instruction table
# probes/isa/sm90a.def by probes/isa/gen.py; the .cu files are committed, so a
# build needs no Python. gen-check (CI) fails if regenerating would change one.
.PHONY: gen gen-check
gen:
	python3 probes/isa/gen.py
gen-check:
	python3 probes/isa/gen.py --check

# What compiled the kernels, in every record (tc_backend_info.compiler).
ifneq ($(NVCC),)
# A WARP_GENCODE given to make (tools/device/jit-arch.sh: compute_80 PTX only) is named in it.
WARP_NOTE := $(if $(filter command line,$(origin WARP_GENCODE)),; warp-level executors: $(WARP_GENCODE))
TC_KERNEL_COMPILER := nvcc $(shell $(NVCC) --version | grep -o 'V[0-9][0-9.]*' | tail -1), ptxas $(shell $(PTXAS_BIN) --version | grep -o 'V[0-9][0-9.]*' | tail -1)$(if $(PTXAS), (another toolkit: PTX .version lowered to the one it accepts where it refused the front end)): sm_90a SASS$(WARP_NOTE)$(SM70_NOTE)
build/opt/probes/backend.o build/san/probes/backend.o: CPPFLAGS += -DTC_KERNEL_COMPILER='"$(TC_KERNEL_COMPILER)"'
endif

# >>> reports (owned by the reports work: report-check, regress)
# The version in every record: git describe at build time (a constant without git).
TC_GIT_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1-unknown)
build/opt/reports/record.o build/san/reports/record.o: CPPFLAGS += -DTCSCOPE_VERSION='"$(TC_GIT_VERSION)"'
# record.o is rebuilt when the version changes (a commit), so records and
# tcscope --version never say an older one.
build/version.txt: FORCE
	@mkdir -p build; echo '$(TC_GIT_VERSION)' | cmp -s - $@ || echo '$(TC_GIT_VERSION)' > $@
build/opt/reports/record.o build/san/reports/record.o: build/version.txt
.PHONY: FORCE
FORCE:
build/opt/reports/record.o build/san/reports/record.o: $(wildcard .git/index)

.PHONY: report report-check regress regress-sweep
# The committed reports of reports/baselines/ (audit, sweeps: .md, .html,
# .svg) rendered again from their records, nothing run (tools/report.sh;
# tests/test_report_baselines.c checks the committed ones are what it writes).
report: build/tcscope
	@tools/report.sh reports/baselines
# Renders a fresh sweep report and the committed ones in headless Chromium at 1280 and 390 px
# (screenshots in build/report-shots/); checks titles, plots, anchors and collapsed evidence.
report-check: build/tcscope
	@tools/report-check.sh

# This GPU against the committed H100 audit (tcscope regress): exit 0 same,
# 1 a difference (listed), 2 no GPU (REGRESS_ARGS=--model replays the model).
regress: build/tcscope
	@build/tcscope regress $(REGRESS_ARGS)
# A fresh chain sweep compared with the committed H100 sweep record.
REGRESS_BASE ?= reports/baselines/h100-sweep.json
regress-sweep: build/tcscope
	@tools/regress.sh $(REGRESS_BASE)
# <<< reports

# >>> fuzz (libFuzzer harnesses of the parsers: tests/fuzz/fuzz_*.c)
# The library again, built by clang with the fuzzer's coverage hooks and
# ASan/UBSan; each harness links it. Seeds: tests/fuzz/corpus/<harness>/.
#   make fuzz FUZZ_S=600   each harness for FUZZ_S seconds (new inputs go to build/fuzz/corpus/)
#   make fuzz-ci           FUZZ_CI_TOTAL_S shared by the harnesses, on their committed corpora (CI)
#   make fuzz-cov          line coverage of the parsers by the corpora (llvm-cov)
#   make fuzz-seeds        seeds cut from the project's files + what fuzzing found,
#                          minimised (-merge=1) into tests/fuzz/corpus/
FUZZ_CC    ?= clang
FUZZ_S     ?= 60
# CI's fuzzing: 6 minutes in all (12 harnesses at 30 s when it was set), shared evenly
FUZZ_CI_TOTAL_S = 360
FUZZ_CI_S   = $(shell echo $$(( $(FUZZ_CI_TOTAL_S) / $(words $(FUZZ_SRC)) )))
FUZZ_SRC    = $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS     = $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_COVS   = $(FUZZ_SRC:tests/fuzz/%.c=build/fuzzcov/%)
FUZZ_FLAGS  = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -O0 -g -fprofile-instr-generate -fcoverage-mapping

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -DTC_HAVE_CUDA=0 $(CPPFLAGS) -MMD -MP -c $< -o $@
build/fuzz/libtcscope.a: $(LIB_SRC:%.c=build/fuzz/%.o)
	@rm -f $@; ar rcs $@ $^
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build/fuzz/libtcscope.a
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DTC_HAVE_CUDA=0 $(CPPFLAGS) -o $@ $< $(filter %.o,$^) build/fuzz/libtcscope.a $(LDLIBS)

build/fuzzcov/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -DTC_HAVE_CUDA=0 $(CPPFLAGS) -MMD -MP -c $< -o $@
build/fuzzcov/libtcscope.a: $(LIB_SRC:%.c=build/fuzzcov/%.o)
	@rm -f $@; ar rcs $@ $^
build/fuzzcov/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build/fuzzcov/libtcscope.a
	$(FUZZ_CC) $(CSTD) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DTC_HAVE_CUDA=0 $(CPPFLAGS) -o $@ $< $(filter %.o,$^) build/fuzzcov/libtcscope.a $(LDLIBS)
# Parsers of cli/ (not in the library): their objects, linked into the harness that fuzzes them.
build/fuzz/fuzz_args: build/fuzz/cli/args.o build/fuzz/cli/suggest.o
build/fuzzcov/fuzz_args: build/fuzzcov/cli/args.o build/fuzzcov/cli/suggest.o

.PHONY: fuzz fuzz-ci fuzz-cov fuzz-seeds
fuzz: $(FUZZERS)
	@tools/fuzz.sh $(FUZZ_S) $(FUZZERS)
fuzz-ci: $(FUZZERS)
	@tools/fuzz.sh $(FUZZ_CI_S) $(FUZZERS)
fuzz-cov: $(FUZZ_COVS)
	@tools/fuzz-cov.sh $(FUZZ_COVS)
# New seeds from the project's files, merged with what fuzzing found into the committed corpora.
fuzz-seeds: build/tcscope $(FUZZERS)
	@tools/fuzz-seeds.sh && tools/fuzz-merge.sh $(FUZZERS)
# <<< fuzz

# >>> install (make install PREFIX=...: binary, man page, completions, run-time data)
# The data is what the binary reads at run time (probes/datadir.c finds it
# from the binary's place: PREFIX/bin/../share/tcscope): the model profiles
# and the recorded H100 runs that choose, sweep, audit and regress default to.
PREFIX  ?= /usr/local
DESTDIR ?=
RUNTIME_DATA = $(wildcard oracle/profiles/*.profile) reports/baselines/h100-bench.json.gz \
               reports/baselines/h100-sweep.json reports/baselines/h100-sweep-wgmma.json \
               reports/baselines/h100-audit.jsonl.gz reports/baselines/h100-gemm.packed.xz
.PHONY: install install-data man
man: build/tcscope.1
# Generated from the option tables (tcscope help --man), so it cannot drift.
build/tcscope.1: build/tcscope
	build/tcscope help --man > $@
# The build's SASS file goes beside the binary (the same build-id: install
# does not strip it), or an old one there goes.
install: build/tcscope build/tcscope.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 755 build/tcscope $(DESTDIR)$(PREFIX)/bin/tcscope
	if [ -f build/tcscope.sass ]; then install -m 644 build/tcscope.sass $(DESTDIR)$(PREFIX)/bin/tcscope.sass; \
	  else rm -f $(DESTDIR)$(PREFIX)/bin/tcscope.sass; fi
	install -m 644 build/tcscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/tcscope.1
	install -m 644 doc/completion/tcscope.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tcscope
	install -m 644 doc/completion/_tcscope $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tcscope
	@$(MAKE) --no-print-directory install-data
# The data alone (tests/test_install.c lays out a prefix with it).
install-data:
	for f in $(RUNTIME_DATA); do install -D -m 644 $$f $(DESTDIR)$(PREFIX)/share/tcscope/$$f || exit 1; done
# <<< install

# >>> capi (owned by the Python package work: the shared library of api/tcscope.h)
# build/libtcscope.so: the library again, position-independent (build/pic/),
# CPU only (the model and exact backends: GPU runs stay with the binary);
# TC_SHARED_LIB lets it find its data from its own file (probes/datadir.c).
# It exports only the C API (api/libtcscope.map), so that the library's
# internal names cannot meet another library's in a process (python3).
# python/ binds it with ctypes (python/README.md).
PIC_OBJ = $(LIB_SRC:%.c=build/pic/%.o)
build/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(OPTFLAGS) -fPIC -DTC_SHARED_LIB=1 -DTC_HAVE_CUDA=0 $(CPPFLAGS) -MMD -MP -c $< -o $@
build/libtcscope.so: $(PIC_OBJ) api/libtcscope.map
	$(CC) -shared -o $@ $(PIC_OBJ) -Wl,--version-script=api/libtcscope.map -Wl,--no-undefined $(LDLIBS)
build/pic/reports/record.o: CPPFLAGS += -DTCSCOPE_VERSION='"$(TC_GIT_VERSION)"'
build/pic/reports/record.o: build/version.txt $(wildcard .git/index)
.PHONY: lib install-lib
lib: build/libtcscope.so
# PREFIX/lib/libtcscope.so reads the profiles install-data puts in PREFIX/share/tcscope.
install-lib: build/libtcscope.so install-data
	install -D -m 755 build/libtcscope.so $(DESTDIR)$(PREFIX)/lib/libtcscope.so
	install -D -m 644 api/tcscope.h $(DESTDIR)$(PREFIX)/include/tcscope.h
# <<< capi
