# daemon/: linked as objects into build/dyeref (the Makefile does that).
.SECONDEXPANSION:

# One rendered throw as a Y4M camera stream, for the camera glue's
# end-to-end test (a whole `dyeref sim --frames` match takes too long).
EXTRA_TEST_BINS += $(BUILD)/tests/cam_throw
$(BUILD)/tests/cam_throw: $(BUILD)/tests/data/camera/cam_throw.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)
