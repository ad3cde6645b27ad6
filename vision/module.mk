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
