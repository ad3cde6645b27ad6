# db/: the event log (SQLite). Everything it needs is in the common PKGS.

# This file is included before the Makefile sets LIBS, and prerequisites
# are expanded as they are read: $$(LIBS) with second expansion waits for
# it (a plain $(LIBS) is empty here, and `make -j unit` raced the archives).
.SECONDEXPANSION:

# The fixture generator for earlier schema versions (tests/data/db/).
EXTRA_TEST_BINS += $(BUILD)/tests/db_mkfixture
$(BUILD)/tests/db_mkfixture: $(BUILD)/tests/data/db/mkfixture.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

# Benchmarks (bench/db_*.c) share the simulated throws of the db tests.
DB_BENCH_SUPPORT := $(BUILD)/tests/support/db_sim.o
$(BUILD)/bench/db_append $(BUILD)/bench/db_load $(BUILD)/bench/db_size: $(BUILD)/bench/%: $(BUILD)/bench/%.o $(DB_BENCH_SUPPORT) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(DB_BENCH_SUPPORT) $(LINK_LIBS) $(LDLIBS)
