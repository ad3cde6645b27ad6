# daemon/: linked as objects into build/dyeref (the Makefile does that).
.SECONDEXPANSION:

# One rendered throw as a Y4M camera stream, for the camera glue's
# end-to-end test (a whole `dyeref sim --frames` match takes too long).
EXTRA_TEST_BINS += $(BUILD)/tests/cam_throw
$(BUILD)/tests/cam_throw: $(BUILD)/tests/data/camera/cam_throw.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

# `dyeref import` judges a log once: the test counts mlog_judge calls
# through the linker's --wrap, so it has a link line of its own.
EXCLUDE += tests/unit/test_import_once.c
EXTRA_TEST_BINS += $(BUILD)/tests/test_import_once
$(BUILD)/tests/test_import_once: $(BUILD)/tests/unit/test_import_once.o $$(TEST_SUPPORT) \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -Wl,--wrap=mlog_judge -o $@ $< $(TEST_SUPPORT) \
		-Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(TEST_LIBS) $(LDLIBS)

# A database failing under the web pages: db_matches and db_match_get fail
# on demand and dd_log is caught, through the linker's --wrap.
EXCLUDE += tests/unit/test_referee_db_fault.c
EXTRA_TEST_BINS += $(BUILD)/tests/test_referee_db_fault
$(BUILD)/tests/test_referee_db_fault: $(BUILD)/tests/unit/test_referee_db_fault.o $$(TEST_SUPPORT) \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -Wl,--wrap=db_matches -Wl,--wrap=db_match_get -Wl,--wrap=dd_log \
		-o $@ $< $(TEST_SUPPORT) \
		-Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(TEST_LIBS) $(LDLIBS)

# dd_config_set_keys syncs the directory after its rename: fsync is
# wrapped to see which files and directories were synced.
EXCLUDE += tests/unit/test_config_write.c
EXTRA_TEST_BINS += $(BUILD)/tests/test_config_write
$(BUILD)/tests/test_config_write: $(BUILD)/tests/unit/test_config_write.o $$(TEST_SUPPORT) \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -Wl,--wrap=fsync -o $@ $< $(TEST_SUPPORT) \
		-Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(TEST_LIBS) $(LDLIBS)
