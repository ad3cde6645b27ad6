# vision/: frame sources, dice detection, face reading, tracking, calibration.
# The libcamera shim is the project's only C++ (DESIGN.md).
EXTRA_CXXFLAGS += $(shell $(PKG_CONFIG) --cflags libcamera 2>/dev/null)
LDLIBS += $(shell $(PKG_CONFIG) --libs libcamera 2>/dev/null)
