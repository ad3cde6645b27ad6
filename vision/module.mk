# vision/: frame sources, dice detection, face reading, tracking, calibration.
# The libcamera shim is the project's only C++ (DESIGN.md).
EXTRA_CXXFLAGS += $(shell $(PKG_CONFIG) --cflags libcamera 2>/dev/null)
LDLIBS += $(shell $(PKG_CONFIG) --libs libcamera 2>/dev/null)

# The OpenCV peer of the tracking benchmark: built only by `make bench`.
EXTRA_BENCH_BINS += $(BUILD)/bench/vision_opencv
$(BUILD)/bench/vision_opencv: bench/vision_opencv.cpp $(BUILD)/libvision.a $(BUILD)/libcore.a
	$(call say,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) -std=c++17 -O2 -g -I. $(PKG_CFLAGS) $(shell $(PKG_CONFIG) --cflags opencv4) \
		-o $@ $< $(LINK_LIBS) $(shell $(PKG_CONFIG) --libs opencv4) $(LDLIBS)

# The face net's training crops (tools/fnet/): built by `make unit` for the
# retraining test, not by `make` (the weights it leads to are committed).
$(BUILD)/tools/face_crops: $(BUILD)/tools/fnet/face_crops.o $(LIBS)
	$(call say,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

# Retrains the face net and rewrites its weights (vision/face_net_weights.*)
# and the forward pass's check (tests/data/face-net-check.txt): about half
# an hour on one core. Learns from the train split of both real photo sets,
# the rendered dice and each FACES directory (labelled crops in the shared
# labels.json format, as `dyeref faces export` writes them); the temperature
# is fitted on a fifth of the train photos kept out (--calib). tools/fnet/README.md
# says how and why. FACES="DIR..." adds a bar's own labelled dice. The
# recipe is tools/fnet/retrain's (the test runs it on a small set).
FNET_WORK ?= $(BUILD)/fnet
FNET_EPOCHS ?= 12
FACES ?=
.PHONY: face-net
face-net: $(BUILD)/tools/face_crops
	$(Q)scripts/install-deps train
	$(Q)FNET_EPOCHS=$(FNET_EPOCHS) tools/fnet/retrain $(BUILD)/tools/face_crops $(FNET_WORK) $(FACES)

# The face net's test crops: a weights file named by [camera] face_net is
# checked on them at start-up against the built-in net (docs/daemon.md).
# The daemon looks for them where `make install` puts them.
DATADIR ?= $(PREFIX)/share/dyeref
FNET_CROPS_INSTALLED := $(DATADIR)/face-net-crops.bin
$(BUILD)/daemon/camera_glue.o: override EXTRA_CFLAGS += -DDYEREF_FNET_CROPS='"$(FNET_CROPS_INSTALLED)"'
# (the empty first line: += joins with a space, and this is a recipe line of its own)
define INSTALL_EXTRA +=

	install -D -m 0644 tests/data/face-net-crops.bin $(DESTDIR)$(FNET_CROPS_INSTALLED)
endef

# Face net weights files for the end-to-end test of [camera] face_net.
EXTRA_TEST_BINS += $(BUILD)/tests/fnet_write
# tests/e2e/face_net_retrain.sh retrains with it on a small set.
EXTRA_TEST_BINS += $(BUILD)/tools/face_crops
$(BUILD)/tests/fnet_write: $(BUILD)/tests/data/fnet/fnet_write.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)
