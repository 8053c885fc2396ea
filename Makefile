# convlab — the one entry point. `make help` lists the targets.
#
# Objects live under build/obj/ mirroring the source tree, so a lab's student file and its
# solution (same name, different folder) never share an object. ./labN is a copy of
# build/bin/labN-student or build/bin/labN-solution; switching SOLUTION= always re-copies it.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:

# Parallel on every core unless a -j was given (a first build compiles the harness and every
# lab for several GPU architectures: on 2 cores one file at a time took twice as long).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

# ---- toolchain ------------------------------------------------------------------------------
NVCC ?= nvcc
PYTHON ?= python3
OPT ?= -O3

# ---- header locations: override on a machine without the Debian packages --------------------
# DEPS_INCLUDE names one folder holding stb/, nlohmann/ and cxxopts.hpp (a copy of the headers).
DEPS_INCLUDE ?=
STB_INCLUDE ?= $(if $(DEPS_INCLUDE),$(DEPS_INCLUDE)/stb,/usr/include/stb)
JSON_INCLUDE ?= $(if $(DEPS_INCLUDE),$(DEPS_INCLUDE),/usr/include)
CXXOPTS_INCLUDE ?= $(if $(DEPS_INCLUDE),$(DEPS_INCLUDE),/usr/include)
GTEST_INCLUDE ?= /usr/include
export STB_INCLUDE JSON_INCLUDE CXXOPTS_INCLUDE GTEST_INCLUDE
# -I/usr/include would reorder the system headers, so only other folders are named.
DEP_INCLUDES := $(addprefix -I,$(sort $(filter-out /usr/include,$(STB_INCLUDE) $(JSON_INCLUDE) $(CXXOPTS_INCLUDE))))

# ---- GPU architecture -----------------------------------------------------------------------
# The installed GPU's, unless CUDA_ARCH=sm_XY says otherwise. With no GPU, PTX alone, for
# compute_75 and compute_80 (the driver compiles it for the GPU it finds at the first run, so the
# binaries still run on any GPU later; compute_80's keeps what needs sm_80, lab 8's expert
# asynchronous copies): machine code for seven architectures tripled the CUDA files' compile time
# on a machine that cannot run any of it. CUDA_ARCH=all builds that machine code, plus PTX.
DEFAULT_ARCHS := 75 80 86 89 90 100 120
comma := ,
space := $(subst x,,x x)
GPU_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '.[:space:]')
CUDA_ARCH ?= $(if $(GPU_CC),sm_$(GPU_CC))
ifeq ($(CUDA_ARCH),all)
  GENCODE := $(foreach a,$(DEFAULT_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) -gencode arch=compute_75,code=compute_75
  ARCH_DESCRIPTION := sm_$(subst $(space),$(comma)sm_,$(DEFAULT_ARCHS)) + PTX (CUDA_ARCH=all)
else ifneq ($(CUDA_ARCH),)
  ARCH_NUM := $(patsubst sm_%,%,$(CUDA_ARCH))
  GENCODE := -gencode arch=compute_$(ARCH_NUM),code=[sm_$(ARCH_NUM),compute_$(ARCH_NUM)]
  ARCH_DESCRIPTION := $(CUDA_ARCH)$(if $(GPU_CC), (detected from the installed GPU), (from CUDA_ARCH))
else
  # No GPU to build for: PTX for compute_75, which the driver compiles at the first run for any GPU
  # from Turing on. A file whose kernels test for compute_80 (asynchronous copies: lab 8's expert
  # gradients) gets compute_80's PTX as well (SM80_PTX, below), so such a GPU runs its fast path;
  # the other files compile once, not twice (the first make demo on a machine without a GPU).
  GENCODE := -gencode arch=compute_75,code=compute_75
  SM80_PTX := -gencode arch=compute_80,code=compute_80
  ARCH_DESCRIPTION := PTX for compute_75$(comma) and compute_80 for the files that test for it (no GPU detected; CUDA_ARCH=all for machine code of sm_$(subst $(space),$(comma)sm_,$(DEFAULT_ARCHS)))
endif

# ---- CUPTI ----------------------------------------------------------------------------------
# CUPTI ships with the CUDA toolkit. The harness uses it to count the kernels a GPU variant or an
# end-to-end function launches (common/device/launch_counter.cu); without it the kit still builds and
# says it cannot count. CUDA_HOME and CUPTI_LIB_DIR / CUPTI_INCLUDE override what is found.
CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null))))
CUPTI_LIB_DIR ?= $(firstword $(foreach d,extras/CUPTI/lib64 lib64 lib targets/x86_64-linux/lib targets/sbsa-linux/lib,$(if $(wildcard $(CUDA_HOME)/$(d)/libcupti.so),$(CUDA_HOME)/$(d))))
CUPTI_INCLUDE ?= $(firstword $(foreach d,extras/CUPTI/include include targets/x86_64-linux/include targets/sbsa-linux/include,$(if $(wildcard $(CUDA_HOME)/$(d)/cupti.h),$(CUDA_HOME)/$(d))))
ifneq ($(and $(CUPTI_LIB_DIR),$(CUPTI_INCLUDE)),)
  CUPTI_CFLAGS := -I$(CUPTI_INCLUDE)
  CUPTI_LDLIBS := -L$(CUPTI_LIB_DIR) -lcupti -Xlinker -rpath=$(CUPTI_LIB_DIR)
else
  CUPTI_CFLAGS := -DCONVLAB_NO_CUPTI
  CUPTI_LDLIBS :=
endif

# ---- the OpenCL ICD loader -------------------------------------------------------------------
# The OpenCL labs link the system's ICD loader (ocl-icd, which deps.sh installs), whose folder is
# searched at run time before CUPTI's: the CUDA toolkit ships a loader of its own in the folder
# CUPTI's rpath names, which would otherwise be the one loaded. On the H100 host (CUDA 13.0, driver
# 580) that loader lists no platform inside the grader's jail and ignores an empty OCL_ICD_VENDORS,
# where ocl-icd lists both the GPU and PoCL and honours it. OPENCL_LIB_DIR overrides what is found.
OPENCL_LIB_DIR ?= $(patsubst %/,%,$(dir $(realpath $(shell $(CXX) -print-file-name=libOpenCL.so 2>/dev/null))))
OPENCL_FIRST := $(if $(OPENCL_LIB_DIR),-L$(OPENCL_LIB_DIR) -Xlinker -rpath=$(OPENCL_LIB_DIR))

# ---- flags ----------------------------------------------------------------------------------
HOST_WARNINGS := -Wall -Wextra -Wno-missing-field-initializers
CXXFLAGS := -std=c++17 $(OPT) -g $(HOST_WARNINGS) -fopenmp -ffp-contract=off -I. $(DEP_INCLUDES)
NVCC_DEBUG ?=
NVCCFLAGS := -std=c++17 $(OPT) $(if $(NVCC_DEBUG),$(NVCC_DEBUG),-lineinfo) $(GENCODE) -Xcompiler -fopenmp,-ffp-contract=off,-Wall,-Wextra,-Wno-missing-field-initializers -I. $(DEP_INCLUDES) $(CUPTI_CFLAGS)
LDLIBS := -Xcompiler -fopenmp $(CUPTI_LDLIBS)

# Everything compiled depends on this stamp, rewritten only when the flags change, so a new
# CUDA_ARCH or OPT rebuilds instead of linking stale objects. Header folders are left out: the
# generated dependency files already name every header an object was built from.
CONFIG := $(NVCC) $(filter-out $(DEP_INCLUDES),$(NVCCFLAGS)) | $(CXX) $(filter-out $(DEP_INCLUDES),$(CXXFLAGS))
CONFIG_STAMP := build/config.stamp
FLAVOUR := $(if $(filter 1 yes true,$(SOLUTION)),solution,student)
FLAVOUR_STAMP := build/flavour.stamp
ifeq ($(filter clean help,$(MAKECMDGOALS)),)
  $(shell mkdir -p build; echo '$(CONFIG)' | cmp -s - $(CONFIG_STAMP) || echo '$(CONFIG)' > $(CONFIG_STAMP))
  $(shell echo $(FLAVOUR) | cmp -s - $(FLAVOUR_STAMP) || echo $(FLAVOUR) > $(FLAVOUR_STAMP))
endif

objects = $(patsubst %,build/obj/%.o,$(basename $(1)))
ifneq ($(SM80_PTX),)
$(call objects,$(shell grep -rl --include='*.cu' '__CUDA_ARCH__ >= 800' labs solutions common 2>/dev/null)): NVCCFLAGS += $(SM80_PTX)
endif
# The graded build's objects of the same files: a .cl file's holds its text (build/obj/embedded/).
graded_objects = $(call objects,$(filter-out %.cl,$(1))) $(patsubst %.cl,build/obj/embedded/%.o,$(filter %.cl,$(1)))

# ---- the harness library --------------------------------------------------------------------
# The objects that compute a CPU reference (and the check that computes one band by band). The
# grader's build of a submission, build/bin/labN-graded, links none of them: each function they
# define is an alias of the stub there instead (common/grading/withheld_reference.cpp, included by the
# generated WITHHELD_ALIASES), and the link is checked for it, so the student's process never
# holds an answer (handouts/instructor-guide.md, "What the grader protects against").
WITHHELD_SRC := common/core/reference.cpp common/families/pipelines/canny.cpp common/families/filters/box_filter.cpp \
                common/families/strips/banded_check.cpp
WITHHELD_ALIASES := build/gen/withheld_reference_aliases.cpp
# common/'s folders (common/README.md); tools/ and bench/ build programs of their own.
# The OpenCL back end (common/families/filters/cl_device.hpp) is built only into the labs whose
# manifest's libraries name OpenCL, so a machine without OpenCL's headers builds every other lab.
OPENCL_SRC := common/families/filters/cl_device.cpp
COMMON_SRC := $(filter-out common/grading/withheld_reference.cpp common/tools/% common/bench/% $(OPENCL_SRC),\
                $(wildcard common/*/*.cpp common/*/*.cu common/families/*/*.cpp common/families/*/*.cu))
COMMON_LIB := build/libconvlab.a
GRADED_LIB := build/libconvlab-graded.a
# The array labs' runner (lab 5) is timed through Google Benchmark.
build/obj/common/families/arrays/array_bench.o: | deps-bench

$(COMMON_LIB): $(call objects,$(COMMON_SRC))
	@rm -f $@
	ar rcs $@ $^

$(GRADED_LIB): $(call objects,$(filter-out $(WITHHELD_SRC),$(COMMON_SRC)))
	@rm -f $@
	ar rcs $@ $^

$(WITHHELD_ALIASES): $(call objects,$(WITHHELD_SRC)) common/tools/withhold-reference.sh
	@mkdir -p $(@D)
	@common/tools/withhold-reference.sh source $(filter %.o,$^) > $@.partial && mv $@.partial $@

build/obj/gen/withheld_reference_aliases.o: $(WITHHELD_ALIASES) common/grading/withheld_reference.cpp $(CONFIG_STAMP) | deps-build
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@

build/obj/%.o: %.cpp $(CONFIG_STAMP) | deps-build
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

build/obj/%.o: %.cu $(CONFIG_STAMP) | deps-build
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

# An OpenCL lab's kernels (.cl) are read by the program at run time (an edit needs no rebuild):
# the object of a .cl file only records where the file is (cl_device.hpp, ClSourceRegistration).
build/obj/%.o: $(CONFIG_STAMP) common/tools/cl-source.sh | %.cl deps-opencl
	@mkdir -p $(@D)
	@common/tools/cl-source.sh path $*.cl > $(@:.o=.cl.cpp)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $(@:.o=.cl.cpp) -o $@
# The graded build holds the .cl's text instead (graded_objects): the grader builds a submission
# in a copy of a template it built first, and the program must run the submission's file, the
# one it was built from, not whatever a recorded path or CONVLAB_CL_DIR names when it runs.
build/obj/embedded/%.o: %.cl $(CONFIG_STAMP) common/tools/cl-source.sh | deps-opencl
	@mkdir -p $(@D)
	@common/tools/cl-source.sh embed $< > $(@:.o=.cl.cpp)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $(@:.o=.cl.cpp) -o $@
$(call objects,$(OPENCL_SRC)): | deps-opencl

# ---- labs: each lab is labs/labN/manifest (its title, student files, files of earlier labs it
# ---- links, extra libraries, its kind of input), its fixed driver (every other .cpp and .cu of
# ---- labs/labN/: main.cpp, and any given kernels), its student files, and solutions/labN/ with
# ---- the same names completed. common/tools/manifest.sh reads a manifest; nothing about a lab
# ---- is written here.
LABS := $(sort $(patsubst labs/lab%/manifest,%,$(wildcard labs/lab*/manifest)))
link = @mkdir -p $(@D); $(NVCC) $(GENCODE) -o $@ $^ $(LINK_FIRST) $(LDLIBS) $(EXTRA_LDLIBS)
# A link whose program must pass a check ($(1), where $$next names the new program) before it
# replaces $@: written under a name of this shell's own and moved into place only once checked,
# so that two makes building the same program at once never see, check or remove each other's.
link_checked = @mkdir -p $(@D); next=$@.$$$$; $(NVCC) $(GENCODE) -o $$next $^ $(LINK_FIRST) $(LDLIBS) $(EXTRA_LDLIBS) && $(1) && mv -f $$next $@ || { rm -f $$next; exit 1; }
manifest = $(shell common/tools/manifest.sh value $(1) $(2))

# uses: the student build links the student's own files of earlier labs, the solution build the
# solution's. libraries: linked, and checked by deps.sh first. The driver includes
# build/gen/labN/manifest.hpp, which the build writes from the manifest.
define LAB_RULES
lab$(1)_uses := $$(call manifest,$(1),uses)
lab$(1)_libraries := $$(call manifest,$(1),libraries)
lab$(1)_student := $$(addprefix labs/lab$(1)/,$$(call manifest,$(1),student)) $$(addprefix labs/,$$(lab$(1)_uses))
lab$(1)_driver := $$(filter-out $$(lab$(1)_student),$$(wildcard labs/lab$(1)/*.cu labs/lab$(1)/*.cpp))
lab$(1)_solution := $$(patsubst labs/%,solutions/%,$$(lab$(1)_student))
# The expert tier of the lab, and of the earlier labs it uses (lab 8's expert pipelines smooth with
# lab 6's tuned kernel); the runners list only the lab's own expert variants (expert_tier.hpp).
lab$(1)_expert := $$(foreach d,lab$(1)/ $$(sort $$(dir $$(lab$(1)_uses))),$$(wildcard solutions/$$(d)expert/*.cu solutions/$$(d)expert/*.cpp))
build/gen/lab$(1)/manifest.hpp: labs/lab$(1)/manifest common/tools/manifest.sh
	@mkdir -p $$(@D)
	@common/tools/manifest.sh header $(1) > $$@.partial && mv $$@.partial $$@
build/obj/labs/lab$(1)/main.o: build/gen/lab$(1)/manifest.hpp
# A lab whose libraries name OpenCL links the kit's OpenCL back end.
lab$(1)_opencl := $$(if $$(filter OpenCL,$$(lab$(1)_libraries)),$$(call objects,$(OPENCL_SRC)))
$$(call objects,$$(lab$(1)_driver) $$(lab$(1)_student) $$(lab$(1)_solution) $$(lab$(1)_expert)) $$(call graded_objects,$$(lab$(1)_student)): | $$(if $$(filter-out OpenCL,$$(lab$(1)_libraries)),deps-bench) $$(if $$(lab$(1)_opencl),deps-opencl)
build/bin/lab$(1)-%: EXTRA_LDLIBS := $$(addprefix -l,$$(lab$(1)_libraries))
build/bin/lab$(1)-%: LINK_FIRST := $$(if $$(lab$(1)_opencl),$(OPENCL_FIRST))
build/bin/lab$(1)-student: $$(call objects,$$(lab$(1)_driver) $$(lab$(1)_student)) $$(lab$(1)_opencl) $(COMMON_LIB)
	@common/tools/refuse-reference-calls.sh $$(call objects,$$(lab$(1)_student))
	$$(link)
# The reference solution's program also holds the lab's expert tier (solutions/labN/expert/:
# tuned variants reported beside the design's, common/runner/expert_tier.hpp); no other build does.
build/bin/lab$(1)-solution: $$(call objects,$$(lab$(1)_driver) $$(lab$(1)_solution) $$(lab$(1)_expert)) $$(lab$(1)_opencl) $(COMMON_LIB)
	$$(link)
# What the grader builds and runs: the student build without any CPU reference (WITHHELD_SRC).
build/bin/lab$(1)-graded: $$(call graded_objects,$$(lab$(1)_driver) $$(lab$(1)_student)) $$(lab$(1)_opencl) build/obj/gen/withheld_reference_aliases.o $(GRADED_LIB)
	@common/tools/refuse-reference-calls.sh $$(call graded_objects,$$(lab$(1)_student))
	$$(call link_checked,common/tools/withhold-reference.sh verify $$$$next $(call objects,$(WITHHELD_SRC)))
lab$(1): build/bin/lab$(1)-$(FLAVOUR) $(FLAVOUR_STAMP)
	cp -f $$< $$@
	@echo "built ./lab$(1) from the $(FLAVOUR) files"
endef
$(foreach n,$(LABS),$(eval $(call LAB_RULES,$(n))))

ifeq ($(FLAVOUR),solution)
  ifeq ($(wildcard solutions/),)
    $(error SOLUTION=1 needs the solutions/ folder, which this copy of convlab does not have (a student release))
  endif
endif

# A student release (make dist-student) has no solutions/: its `all` builds the student files only.
HAVE_SOLUTIONS := $(wildcard solutions/)
ALL_LAB_BINARIES := $(foreach n,$(LABS),build/bin/lab$(n)-student $(if $(HAVE_SOLUTIONS),build/bin/lab$(n)-solution))

# ---- tests, benchmarks, tools ---------------------------------------------------------------
# The unit tests also cover the CPU references lab 5 checks its kernels against.
UNIT_SRC := $(wildcard tests/unit/*.cpp) labs/lab5/references.cpp
build/bin/unit_tests: $(call objects,$(UNIT_SRC)) $(COMMON_LIB)
	$(link) -lgtest_main -lgtest -lpthread

build/obj/tests/unit/%.o: tests/unit/%.cpp $(CONFIG_STAMP) | deps-test
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter-out /usr/include,$(GTEST_INCLUDE)),-I$(GTEST_INCLUDE)) -MMD -MP -c $< -o $@

build/bin/bench_reference: build/obj/common/bench/bench_reference.o $(COMMON_LIB)
	$(link) -lbenchmark -lpthread

build/obj/common/bench/%.o: common/bench/%.cpp $(CONFIG_STAMP) | deps-bench
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

# The GPU suite's check of common/families/pipelines/exact_sqrt.cuh against sqrtf (tests/lab_suites/lab8.py runs it).
build/bin/gpu_exact_sqrt: build/obj/tests/gpu_exact_sqrt.o
	$(link)

build/bin/imagegen: build/obj/common/tools/imagegen.o $(COMMON_LIB)
	$(link)

# ---- entry points ---------------------------------------------------------------------------
.PHONY: help all deps deps-build deps-test deps-bench deps-opencl deps-report doctor report compare test test-gpu demo bench cuda-vs-opencl images clean dist-student no-solutions grade test-grader-gpu slurm-run \
        debug sass sanitize profile

help:
	@echo "convlab: CUDA labs built around 2-D image convolution"
	@echo
	@echo "  make labN              build ./labN from your files in labs/labN/   (labs: $(LABS))"
	@echo "  make labN SOLUTION=1   build ./labN from the reference solution"
	@echo "  make demo              build every lab's solution and run each on the built-in image"
	@echo "  make test              everything this machine can test; ends 'N passed, N failed, N skipped'"
	@echo "  make test-gpu          the GPU suite alone (fails without a GPU); LAB=n one lab's GPU tests, PART=i/n every n-th from the i-th"
	@echo "  make report LAB=n      run your labN (SOLUTION=1: the solution) and write report-labN/: report.html,"
	@echo "                         report.md, plots as PNG and SVG; FROM=report.json draws a saved --format json run"
	@echo "  make compare REPORTS=\"a.json b.json\"  saved reports of one lab side by side: compare-labN/ (one table, one plot)"
	@echo "  make slurm-run LAB=n   build and run labN as a job on a Slurm cluster's GPU node (ARGS=...); the report stays here"
	@echo "  make bench             Google Benchmark of the CPU references (ARGS=--benchmark_format=json)"
	@echo "  make cuda-vs-opencl    CUDA against OpenCL on one GPU in one process: build/bin/cuda-vs-opencl (handouts/lab11.md)"
	@echo "  make deps              install the Debian/Ubuntu packages convlab needs"
	@echo "  make doctor            toolkit, driver, GPU, architecture and every dependency"
	@echo "  make images            regenerate the sample images in images/"
	@echo "  make debug LAB=n       ./labN built with -O0 and device debug info (-G), for cuda-gdb"
	@echo "  make sanitize LAB=n    compute-sanitizer memcheck, racecheck and synccheck on a multi-block case"
	@echo "  make sass LAB=n        the machine code of ./labN's kernels (cuobjdump; an OpenCL lab's as NVIDIA's driver compiles them)"
	@echo "  make profile LAB=n     Nsight Compute on one run of each kernel"
	@echo "  make grade LAB=n SUBMISSIONS=dir   grade students' work (handouts/instructor-guide.md)"
	@echo "  make test-grader-gpu   the grader's self-test: the GPU labs' known-bad batches (LAB=n, PART=i/n, ONLY=..., GPUS=all)"
	@echo "  make dist-student      dist/convlab-student.tar.gz: the release for students (no solutions, grading or tests)"
	@echo "  make clean             remove build/, dist/ and the ./labN programs"
	@echo
	@echo "  CUDA_ARCH=sm_90  build for one architecture, CUDA_ARCH=all for seven (default: $(ARCH_DESCRIPTION))"
	@echo "  DEPS_INCLUDE=dir headers from a folder instead of the packages (also STB_INCLUDE, JSON_INCLUDE, CXXOPTS_INCLUDE)"

all: $(ALL_LAB_BINARIES)

deps:
	@common/tools/deps.sh install

deps-build:
	@common/tools/deps.sh check build

deps-test:
	@common/tools/deps.sh check test

deps-bench:
	@common/tools/deps.sh check bench

deps-opencl:
	@common/tools/deps.sh check opencl

deps-report:
	@REPORT_PYTHON="$(REPORT_PYTHON)" common/tools/deps.sh check report

doctor:
	@NVCC="$(NVCC)" REPORT_PYTHON="$(REPORT_PYTHON)" ARCH_DESCRIPTION="$(ARCH_DESCRIPTION)" CUPTI_LIB_DIR="$(and $(CUPTI_INCLUDE),$(CUPTI_LIB_DIR))" common/tools/doctor.sh

NO_TESTS = @echo "convlab: this copy has no tests/ (a student release): build and run a lab instead, e.g. make lab3 && ./lab3"; exit 1

test: | deps-test
	$(if $(wildcard tests/run_tests.py),@$(PYTHON) tests/run_tests.py,$(NO_TESTS))

test-gpu: | deps-build
	$(if $(wildcard tests/run_tests.py),@$(PYTHON) tests/run_tests.py --gpu-only $(if $(LAB),--lab $(LAB)) $(if $(PART),--part $(PART)),$(NO_TESTS))

no-solutions:
	@echo "convlab: make $(MAKECMDGOALS) runs the reference solutions, which a student release does not have"; exit 1

# Grading (handouts/instructor-guide.md): make grade LAB=3 SUBMISSIONS=folder ARGS='--gradebook lab3.csv'
SUBMISSIONS ?=
grade:
	$(CHECK_LAB)
	$(if $(wildcard grading/grade),,$(error this copy has no grading/ (a student release)))
	grading/grade --lab $(LAB) $(SUBMISSIONS) $(ARGS)

# The grader's GPU self-test: each GPU lab's solution, skeleton and known-bad batch, in one
# command (4 to over 10 minutes a lab on an H100); LAB=n grades one lab's batch, PART=i/n (n > 1)
# the i-th slice of its known-bad set and PART=0/n the solution and the skeleton alone,
# ONLY=name,name those known-bad submissions alone (with the solution and the skeleton);
# GPUS=all|N|0,2 every batch in pieces spread over those GPUs of this host, one worker a GPU
# (SLICE=n known-bad submissions a piece at most, 6 by default).
test-grader-gpu: | deps-build
	$(if $(wildcard tests/run_tests.py),@$(PYTHON) tests/run_tests.py --grader-gpu $(if $(LAB),--lab $(LAB)) $(if $(PART),--part $(PART)) $(if $(ONLY),--only $(ONLY)) $(if $(GPUS),--gpus $(GPUS)) $(if $(SLICE),--slice $(SLICE)),$(NO_TESTS))

# make slurm-run LAB=n [ARGS='...']: the lab built and run on a GPU node of a Slurm cluster, the
# report left here (common/tools/slurm-run.sh; SLURM_PARTITION, SLURM_GRES, SLURM_TIME, SLURM_ACCOUNT).
slurm-run:
	$(CHECK_LAB)
	@common/tools/slurm-run.sh $(LAB) $(ARGS)

# The student release: dist/convlab-student.tar.gz (common/tools/dist-student.sh says what it leaves out).
dist-student:
	@common/tools/dist-student.sh dist

# A lab exits 3 when there is no GPU: the demo still shows the CPU part and goes on. ARGS goes to
# the image labs; an array lab (lab 5: "input = arrays" in its manifest) runs with its defaults,
# or with --demo alone when ARGS has it (its arrays shorter, its report pages drawn, no pictures).
# With ARGS=--demo each lab saves its pictures in demo-output/labN/, and their contact sheet is drawn
# there (contact-sheet.png), and the run's report pages in demo-output/labN/report/ (make report's;
# without matplotlib one line says so for each and the demo goes on). Without a
# GPU an OpenCL lab (labs 11 and 12) runs on PoCL, on the CPU, where its default image would take
# minutes (lab 12's sweep about ten): the demo gives it a smaller one unless ARGS says otherwise.
CPU_OPENCL_DEMO := --size 256 --reps 3
demo: $(if $(HAVE_SOLUTIONS),$(foreach n,$(LABS),build/bin/lab$(n)-solution),no-solutions)
	@for n in $(LABS); do \
	  echo; echo "==== lab $$n ($$(date +%T)) ===="; \
	  args="$(ARGS)"; arrays=; [ "$$(common/tools/manifest.sh value $$n input)" = arrays ] && arrays=1 && args="$(filter --demo,$(ARGS))"; \
	  if [ -z "$(GPU_CC)" ] && [ -z "$(ARGS)" ] && common/tools/manifest.sh value $$n libraries | grep -qw OpenCL; then \
	    args="$(CPU_OPENCL_DEMO)"; echo "(no GPU here: its kernels run on the CPU through PoCL, so on a smaller image: $$args)"; fi; \
	  build/bin/lab$$n-solution $$args; status=$$?; \
	  if [ $$status -ne 0 ] && [ $$status -ne 3 ]; then echo "lab $$n exited with status $$status"; exit 1; fi; \
	  if [ -f demo-output/lab$$n/report.json ]; then [ -n "$$arrays" ] || $(REPORT_PYTHON) common/tools/report/contact_sheet.py demo-output/lab$$n || true; \
	    $(REPORT_PYTHON) common/tools/report/make_report.py --lab $$n --from demo-output/lab$$n/report.json --out demo-output/lab$$n/report || true; fi; \
	done

# make report LAB=n [FROM=report.json] [OUT=folder] [ARGS='--mask box:3,box:15']: the plots run
# under the python3 common/tools/report-python.sh picks (the system's when it has matplotlib, as
# Debian's python3-matplotlib gives it, else the one on PATH when that has it), unless
# REPORT_PYTHON names another. Without FROM the lab's program runs with ARGS and --format json:
# your build, or the solution's with SOLUTION=1, as make labN.
REPORT_PYTHON ?= $(shell common/tools/report-python.sh)
# make report and make compare read reports with the grader's reader, which a student release lacks.
NEEDS_REPORT_READER = $(if $(wildcard grading/convlab_grader/reports.py),,$(error make $@ reads reports with grading/convlab_grader/, which this copy (a student release) does not have yet))
FROM ?=
OUT ?=
report: | deps-report
	$(CHECK_LAB)
	$(NEEDS_REPORT_READER)
	$(if $(FROM),,@$(MAKE) --no-print-directory $(LAB_BINARY))
	@$(REPORT_PYTHON) common/tools/report/make_report.py --lab $(LAB) $(if $(OUT),--out $(OUT)) \
	  $(if $(FROM),--from $(FROM),--program $(LAB_BINARY) -- $(ARGS))

# make compare REPORTS="a.json b.json ..." [OUT=folder]: saved reports of one lab side by side
# (several students, several GPUs), one table and one plot (common/tools/report/compare.py).
REPORTS ?=
compare: | deps-report
	$(if $(REPORTS),,$(error name the reports: make compare REPORTS="a.json b.json"))
	$(NEEDS_REPORT_READER)
	@$(REPORT_PYTHON) common/tools/report/compare.py $(if $(OUT),--out $(OUT)) $(REPORTS)

bench: build/bin/bench_reference
	build/bin/bench_reference $(ARGS)

# measurements/cuda_vs_opencl.cpp: the solutions' CUDA kernels of labs 1 and 3 against their
# OpenCL ones of labs 11 and 12, on one GPU in one process (the handouts of labs 11 and 12).
CUDA_VS_OPENCL := measurements/cuda_vs_opencl.cpp solutions/lab1/conv2d_naive.cu solutions/lab3/conv2d_tiled.cu \
                  solutions/lab11/conv2d_naive.cl solutions/lab12/conv2d_tiled.cl
$(call objects,$(CUDA_VS_OPENCL)): | deps-opencl
build/bin/cuda-vs-opencl: EXTRA_LDLIBS := -lOpenCL
build/bin/cuda-vs-opencl: LINK_FIRST := $(OPENCL_FIRST)
build/bin/cuda-vs-opencl: $(call objects,$(CUDA_VS_OPENCL) $(OPENCL_SRC)) $(COMMON_LIB)
	$(link)
cuda-vs-opencl: $(if $(HAVE_SOLUTIONS),build/bin/cuda-vs-opencl,no-solutions)

images: build/bin/imagegen
	build/bin/imagegen --size 320x240 --channels 1 --seed 1 --out images/sample-grey.png
	build/bin/imagegen --size 320x240 --channels 3 --seed 2 --out images/sample-colour.png
	build/bin/imagegen --size 257x131 --channels 3 --seed 3 --random --out images/sample-random.png

clean:
	rm -rf build dist demo-output report-lab* $(addprefix lab,$(LABS))

# ---- tools on one lab: make sanitize LAB=1 (SOLUTION=1 for the reference) --------------------
LAB ?=
LAB_BINARY = build/bin/lab$(LAB)-$(FLAVOUR)
CHECK_LAB = $(if $(filter $(LAB),$(LABS)),,$(error name a lab: make $@ LAB=n, n one of $(LABS)))
# An array lab (lab 5) takes --elements, not the image labs' options.
ARRAY_LAB = $(filter arrays,$(call manifest,$(LAB),input))
# A case of many blocks, with partial blocks on both edges, checked (lab 5: one run per variant).
# Its mask is asymmetric and separable (outer), so lab 6's separable variants run too, unless the
# lab's manifest names another (tool_mask: lab 2 takes 3x3 only, lab 7's box variants boxes only).
# Colour, unless the manifest names another channel count (tool_channels: lab 8 takes grey only).
TOOL_MASK = $(or $(call manifest,$(LAB),tool_mask),outer:5:1)
TOOL_CHANNELS = $(or $(call manifest,$(LAB),tool_channels),3)
TOOL_CASE = $(if $(ARRAY_LAB),--elements 100003 --reps 1 --warmup 0 --no-flush,--check-only --size 203x157 --channels $(TOOL_CHANNELS) --mask $(TOOL_MASK) --border mirror)
PROFILE_CASE = $(if $(ARRAY_LAB),--elements 4194304 --reps 1 --warmup 0 --no-flush,--size 2999x1999 --reps 1 --warmup 0 --cpu-reps 1 --no-flush)

debug:
	$(CHECK_LAB)
	@$(MAKE) --no-print-directory lab$(LAB) OPT=-O0 NVCC_DEBUG="-G -g"

sanitize:
	$(CHECK_LAB)
	@$(MAKE) --no-print-directory $(LAB_BINARY)
	@for tool in memcheck racecheck synccheck; do \
	  echo "== compute-sanitizer --tool=$$tool"; \
	  compute-sanitizer --tool=$$tool --error-exitcode=1 $(LAB_BINARY) $(TOOL_CASE) > /dev/null || exit 1; \
	done

# An OpenCL lab's kernels are compiled by the driver at run time: common/tools/cl-sass.sh shows
# what NVIDIA's made of them, as cuobjdump shows nvcc's for a CUDA lab.
sass:
	$(CHECK_LAB)
	@$(MAKE) --no-print-directory $(LAB_BINARY)
	@if common/tools/manifest.sh value $(LAB) libraries | grep -qw OpenCL; then common/tools/cl-sass.sh $(LAB_BINARY); \
	 else cuobjdump --dump-sass $(LAB_BINARY); fi

profile:
	$(CHECK_LAB)
	@$(MAKE) --no-print-directory $(LAB_BINARY)
	ncu --clock-control none --set full $(LAB_BINARY) $(PROFILE_CASE)

-include $(shell find build/obj -name '*.d' 2>/dev/null)
