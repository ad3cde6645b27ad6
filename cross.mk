# Cross builds for the Raspberry Pi, included by the Makefile
# (docs/cross-build.md):
#
#   make cross ARCH=arm64       build-arm64/: dyeref, the unit tests and the
#                               e2e tests' helpers, with Debian's cross compiler
#                               and the target's pkg-config (also ARCH=armhf)
#
# scripts/install-deps cross ARCH installs what they need.

CROSS_ARCHS := arm64 armhf
CROSS_TRIPLET_arm64 := aarch64-linux-gnu
CROSS_TRIPLET_armhf := arm-linux-gnueabihf

# cross_make ARCH: a sub-make building into build-ARCH/ for ARCH. Only the
# target's .pc files are read: bookworm has no <triplet>-pkg-config wrapper.
cross_make = PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET_$(1))/pkgconfig:/usr/share/pkgconfig \
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-$(1) \
	CC=$(CROSS_TRIPLET_$(1))-gcc CXX=$(CROSS_TRIPLET_$(1))-g++ AR=$(CROSS_TRIPLET_$(1))-ar

CROSS_CHECKS := $(foreach a,$(CROSS_ARCHS),cross-$(a))
.PHONY: cross clean-cross $(CROSS_CHECKS)

# Every pkg-config module of the build (the Makefile's and vision's libcamera)
# is looked up for the target before anything is compiled.
cross:
	$(Q)scripts/cross-ready "$(ARCH)" $(PKGS) $(TEST_PKGS) libcamera
	$(Q)$(call cross_make,$(ARCH)) all unit

$(foreach a,$(CROSS_ARCHS),cross-$(a)):
	$(Q)$(MAKE) --no-print-directory cross ARCH=$(@:cross-%=%)

clean: clean-cross
clean-cross:
	rm -rf $(CROSS_ARCHS:%=build-%)
