# dyeref: plain GNU Makefile.
#
#   make            build build/dyeref and one static library per module
#   make demo       install what is missing, build, run the main job
#   make check      install what is missing, build, run every test
#                   (normal build, then an ASan+UBSan build, then fuzz
#                   regressions; .ci/run adds the arm64 unit tests)
#   make cross ARCH=arm64|armhf, make check-arm64: cross.mk
#   make bench      run the benchmarks in bench/
#   make install    PREFIX=/usr/local DESTDIR=
#   make deb        the Debian package, into build-deb/ (debian/module.mk)
#
# Each module folder may hold a `module.mk` that adds to the variables below
# (extra sources to leave out, flags, special test rules): modules own their
# fragment, this file owns the shape.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
BUILD   ?= build
CC      ?= cc
CXX     ?= c++
PKG_CONFIG ?= pkg-config

V ?= 0
# Sub-makes of demo, check and bench build this many files at once.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
ifeq ($(V),0)
Q = @
say = @printf '  %-6s %s\n' $(1) $(2)
else
Q =
say = @true
endif

# Libraries every build links (DESIGN.md "Chosen dependencies").
PKGS      := jansson sqlite3 libmicrohttpd inih libsystemd libturbojpeg spng libgpiod libmosquitto
TEST_PKGS := cmocka

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)

WARN     := -Wall -Wextra -Werror
# 64-bit file offsets and inode numbers on a 32-bit target (armhf, natively
# or cross): without them readdir() and stat() fail with EOVERFLOW on a
# filesystem with 64-bit inodes. Nothing changes on a 64-bit one. Not
# _TIME_BITS=64: bookworm's 32-bit libraries are built with a 32-bit time_t
# (libgpiod's struct gpiod_line_event holds a struct timespec), and ours
# must agree with theirs.
LFS      := -D_FILE_OFFSET_BITS=64
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
ALL_CFLAGS   = -std=c17 $(WARN) -D_GNU_SOURCE $(LFS) -I. $(PKG_CFLAGS) $(EXTRA_CFLAGS) $(CFLAGS) -MMD -MP
ALL_CXXFLAGS = -std=c++17 $(WARN) $(LFS) -I. $(PKG_CFLAGS) $(EXTRA_CXXFLAGS) $(CXXFLAGS) -MMD -MP
LDLIBS   += $(PKG_LIBS) -lm -lpthread

# SAN=1: AddressSanitizer + UndefinedBehaviorSanitizer, stop at the first report.
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS   := -O1 -g $(SANFLAGS)
CXXFLAGS := -O1 -g $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)
endif

# Library modules, in link order (users before what they use).
LIB_MODULES := web sim db vision sensors core
EXCLUDE     :=
-include $(wildcard */module.mk)
include cross.mk

mod_srcs = $(filter-out $(EXCLUDE),$(wildcard $(1)/*.c) $(wildcard $(1)/*.cpp))
mod_objs = $(patsubst %.cpp,$(BUILD)/%.o,$(patsubst %.c,$(BUILD)/%.o,$(call mod_srcs,$(1))))

PRESENT_MODULES := $(foreach m,$(LIB_MODULES),$(if $(call mod_srcs,$(m)),$(m)))
LIBS := $(foreach m,$(PRESENT_MODULES),$(BUILD)/lib$(m).a)
# Static archives may reference each other in both directions (sim uses
# sensors and vision, db uses core): let the linker resolve them as a group.
LINK_LIBS = -Wl,--start-group $(LIBS) -Wl,--end-group

# daemon/ is linked as objects, not an archive: main.c names each command
# weakly, so a command is in the binary exactly when its file is.
DAEMON_OBJS := $(call mod_objs,daemon)
# Unit tests link daemon/ code (config, fusion, ...) from an archive without main().
DAEMON_TEST_LIB := $(BUILD)/libdaemon-test.a
$(DAEMON_TEST_LIB): $(filter-out $(BUILD)/daemon/main.o,$(DAEMON_OBJS))

UNIT_SRCS  := $(filter-out $(EXCLUDE),$(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# Shared test helpers (fixtures, oracles) linked into every unit test.
TEST_SUPPORT := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/support/*.c))
BENCH_SRCS := $(filter-out $(EXCLUDE),$(wildcard bench/*.c))
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))

# Linking with the C++ driver keeps the libcamera shim's runtime in one place.
LINK := $(CXX)

.PHONY: all deps deps-check deps-bench unit demo check check-normal check-asan \
        fuzz fuzz-libs fuzz-build-libs fuzz-regress bench bench-bins install clean
.DEFAULT_GOAL := all
# Keep intermediate objects: relinking a test must not recompile it.
.SECONDARY:

all: $(BUILD)/dyeref $(LIBS)

$(BUILD)/dyeref: $(DAEMON_OBJS) $(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $(DAEMON_OBJS) $(LINK_LIBS) $(LDLIBS)

$(BUILD)/lib%.a:
	$(call say,AR,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

define lib_rule
$(BUILD)/lib$(1).a: $(call mod_objs,$(1))
endef
$(foreach m,$(PRESENT_MODULES),$(eval $(call lib_rule,$(m))))

$(BUILD)/%.o: %.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.cpp
	$(call say,CXX,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TEST_SUPPORT) $(DAEMON_TEST_LIB) $(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT) -Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(TEST_LIBS) $(LDLIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

unit: $(UNIT_BINS) $(EXTRA_TEST_BINS)

deps:
	$(Q)scripts/install-deps build
deps-check:
	$(Q)scripts/install-deps check
deps-bench:
	$(Q)scripts/install-deps bench

demo: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all
	$(Q)scripts/demo $(BUILD)

# The normal build runs unit and end-to-end tests; the sanitizer build runs
# the unit tests and the end-to-end tests again against the sanitized binary,
# so a parser bug reached only through the CLI still stops the run.
check: deps-check
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) check-normal
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) check-asan
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) fuzz-regress
	$(Q)tests/summary

check-normal:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all unit
	$(Q)tests/run --build $(BUILD) --label normal

check-asan:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan SAN=1 all unit
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run --build build-asan --label asan

# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang into build-fuzz/.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRCS))
FUZZ_SAN  := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
fuzz: $(FUZZ_BINS)
fuzz-libs: $(LIBS) $(DAEMON_TEST_LIB)
# The libraries are built by one sub-make that every target waits for: a
# sub-make per target would, under -j, write the same files at once.
fuzz-build-libs:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-fuzz CC=clang CXX=clang++ \
		CFLAGS="-O1 -g $(FUZZ_SAN)" CXXFLAGS="-O1 -g $(FUZZ_SAN)" fuzz-libs
build-fuzz/%: tests/fuzz/%.c fuzz-build-libs
	$(call say,FUZZ,$@)
	$(Q)clang $(ALL_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -c -o $@.o $<
	$(Q)clang++ -fsanitize=fuzzer,address,undefined -o $@ $@.o \
		-Wl,--start-group build-fuzz/libdaemon-test.a $(foreach m,$(PRESENT_MODULES),build-fuzz/lib$(m).a) -Wl,--end-group $(LDLIBS)

# Each target replays its kept corpus (tests/fuzz/corpus/NAME) and then
# fuzzes briefly; a crash fails the check.
FUZZ_SECONDS ?= 15
fuzz-regress: $(FUZZ_BINS)
	$(Q)tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

bench-bins: $(BENCH_BINS) $(EXTRA_BENCH_BINS)
bench: deps-bench
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all bench-bins
	$(Q)bench/run $(BUILD)

install: all
	install -D -m 0755 $(BUILD)/dyeref $(DESTDIR)$(BINDIR)/dyeref
	$(INSTALL_EXTRA)

clean:
	rm -rf build build-asan build-fuzz tests/artefacts

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
