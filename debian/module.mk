# debian/: `make deb` builds the Debian package out of the tree, into
# DEB_OUT (scripts/make-deb; ARCH=arm64 cross-builds it).
DEB_OUT ?= build-deb
# Only an ARCH the user gave: the native package otherwise.
DEB_ARCH := $(if $(filter command line environment,$(origin ARCH)),$(ARCH))
.PHONY: deb
deb:
	$(Q)scripts/make-deb $(DEB_OUT) $(DEB_ARCH)
