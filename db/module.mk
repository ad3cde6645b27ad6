# db/: the event log (SQLite). Everything it needs is in the common PKGS.

# The fixture generator for earlier schema versions (tests/data/db/).
EXTRA_TEST_BINS += $(BUILD)/tests/db_mkfixture
$(BUILD)/tests/db_mkfixture: $(BUILD)/tests/data/db/mkfixture.o $(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)
