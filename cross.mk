# Cross builds for the Raspberry Pi, included by the Makefile
# (docs/cross-build.md):
#
#   make cross ARCH=arm64       build-arm64/: dyeref, the unit tests and the
#                               e2e tests' helpers, with Debian's cross compiler
#                               and the target's pkg-config (also ARCH=armhf)
#   make check-arm64            + the unit and end-to-end tests under qemu
#   make check-arm64-unit       + the unit tests only
#   make check-arm64-quick      + the unit tests less the long vision ones
#                               and the end-to-end tests of CROSS_E2E (.ci/run
#                               runs it after make check)
#   make check-armhf-unit       the same for armhf
#
# scripts/install-deps cross ARCH installs what they need (the checks call
# it). The tests run through binfmt_misc (tests/run-cross registers
# qemu-user-static when root); without it a check says why and fails
# ("Error 77"), or with CROSS_SKIP_OK=1 is skipped.

CROSS_ARCHS := arm64 armhf
CROSS_TRIPLET_arm64 := aarch64-linux-gnu
CROSS_TRIPLET_armhf := arm-linux-gnueabihf
# Emulation runs the tests several times slower (as a Pi does): every
# real-time budget of the tests is stretched by this (tests/e2e/lib/slow.sh).
CROSS_SLOWDOWN ?= 4

# cross_make ARCH: a sub-make building into build-ARCH/ for ARCH. Only the
# target's .pc files are read: bookworm has no <triplet>-pkg-config wrapper.
cross_make = PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET_$(1))/pkgconfig:/usr/share/pkgconfig \
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-$(1) \
	CC=$(CROSS_TRIPLET_$(1))-gcc CXX=$(CROSS_TRIPLET_$(1))-g++ AR=$(CROSS_TRIPLET_$(1))-ar

CROSS_CHECKS := $(foreach a,$(CROSS_ARCHS),cross-$(a) check-$(a) check-$(a)-unit check-$(a)-quick \
	deps-cross-$(a))
.PHONY: cross clean-cross $(CROSS_CHECKS)

# Every pkg-config module of the build (the Makefile's and vision's libcamera)
# is looked up for the target before anything is compiled.
cross:
	$(Q)scripts/cross-ready "$(ARCH)" $(PKGS) $(TEST_PKGS) libcamera
	$(Q)$(call cross_make,$(ARCH)) all unit

$(foreach a,$(CROSS_ARCHS),cross-$(a)):
	$(Q)$(MAKE) --no-print-directory cross ARCH=$(@:cross-%=%)

# The long vision tests. Emulated, the vision code runs some 20 times slower
# than native: these take most of the emulated units' time. check-ARCH-quick
# and check-ARCH-unit with CROSS_QUICK=1 leave them out (each counted
# skipped): .ci/run does, to stay under 45 minutes with make check before
# it, which runs them in the native and sanitizer builds.
CROSS_LONG := test_vis_rendered test_vis_photos test_vis_track test_vis_face_near \
	test_vis_track_golden test_vis_white test_vis_render_side
# CROSS_SKIP_OK=1 (.ci/run): where this machine cannot run the target's
# binaries (tests/run-cross says why and exits 77) the check is a skip, not
# a failure; make itself can only exit 0 or 2.
cross_run = CROSS_SLOWDOWN=$(CROSS_SLOWDOWN) tests/run-cross $(1) $(2) || { rc=$$?; \
	[ $$rc -eq 77 ] && [ -n "$(CROSS_SKIP_OK)" ] || exit $$rc; \
	echo "$(1) tests skipped (the reason above)"; }

# The tests' results go to build-ARCH/test-results, the logs to build-ARCH/test-logs.
$(foreach a,$(CROSS_ARCHS),check-$(a)): check-%: deps-cross-%
	$(Q)$(MAKE) --no-print-directory cross ARCH=$*
	$(Q)$(call cross_run,$*)

$(foreach a,$(CROSS_ARCHS),check-$(a)-unit): check-%-unit: deps-cross-%
	$(Q)$(MAKE) --no-print-directory cross ARCH=$*
	$(Q)$(call cross_run,$*,--unit-only $(if $(CROSS_QUICK),--leave-out "$(CROSS_LONG)"))

# The end-to-end tests CI runs emulated: the target's CLI (judge, dice,
# sim, the database commands), its daemon over HTTP (the API, review,
# restart, the store's check, the simulated table served) and its MQTT
# client with a real broker; about a minute on two cores.
CROSS_E2E := judge dice sim cli_usage db_cli db_import_once db_export_check daemon_api \
	daemon_review daemon_restart daemon_pipeline daemon_store_check daemon_table_id \
	sim_serve daemon_mqtt
$(foreach a,$(CROSS_ARCHS),check-$(a)-quick): check-%-quick: deps-cross-%
	$(Q)$(MAKE) --no-print-directory cross ARCH=$*
	$(Q)$(call cross_run,$*,--leave-out "$(CROSS_LONG)" --e2e "$(CROSS_E2E)")

$(foreach a,$(CROSS_ARCHS),deps-cross-$(a)):
	$(Q)scripts/install-deps cross $(@:deps-cross-%=%)

clean: clean-cross
clean-cross:
	rm -rf $(CROSS_ARCHS:%=build-%)
