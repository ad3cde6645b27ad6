# sensors/: pick the libgpiod backend this machine builds against; the
# other one is compiled and tested against a link-seam stub of its API
# (tests/stubs/), so both always compile.
GPIOD_V2 := $(shell $(PKG_CONFIG) --atleast-version=2.0 libgpiod && echo 1)
ifeq ($(GPIOD_V2),1)
EXCLUDE += sensors/gpio_v1.c
else
EXCLUDE += sensors/gpio_v2.c
endif

# Backend tests: the backend's source compiled against a stub gpiod.h of
# its major version and linked with the stub library instead of libgpiod.
EXCLUDE += tests/unit/test_sens_gpio_v1.c tests/unit/test_sens_gpio_v2.c
SENS_STUB_TESTS := $(BUILD)/tests/test_sens_gpio_v1 $(BUILD)/tests/test_sens_gpio_v2
EXTRA_TEST_BINS += $(SENS_STUB_TESTS)

$(BUILD)/stubs/gpio_v%.o: sensors/gpio_v%.c tests/stubs/gpiod-v%/gpiod.h
	$(call say,CC,$<:stub-v$*)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -Itests/stubs/gpiod-v$* $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/stubs/gpiod_v%_stub.o: tests/stubs/gpiod_v%_stub.c tests/stubs/gpiod-v%/gpiod.h
	$(call say,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -Itests/stubs/gpiod-v$* $(ALL_CFLAGS) -c -o $@ $<

# The stubs' scripted edges: version-independent.
$(BUILD)/stubs/gpiod_script.o: tests/stubs/gpiod_script.c tests/stubs/gpiod_stub.h
	$(call say,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/stubs/test_sens_gpio_v%.o: tests/unit/test_sens_gpio_v%.c tests/stubs/gpiod-v%/gpiod.h
	$(call say,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -Itests/stubs/gpiod-v$* $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

# $$(LIBS): every archive the link line names (second expansion: LIBS is
# set after this file is read).
.SECONDEXPANSION:
# The stub's objects come first: they define the gpiod_* symbols the
# backend calls, so the real libgpiod on the link line is never reached.
$(BUILD)/tests/test_sens_gpio_v%: $(BUILD)/stubs/test_sens_gpio_v%.o $(BUILD)/stubs/gpio_v%.o \
		$(BUILD)/stubs/gpiod_v%_stub.o $(BUILD)/stubs/gpiod_script.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LINK_LIBS) $(TEST_LIBS) $(LDLIBS)

# The stub of the backend this build picked, as a library to preload under
# the real daemon (tests/stubs/gpiod_preload.c): its end-to-end tests get a
# chip where the machine has none.
GPIOD_MAJOR := $(if $(GPIOD_V2),2,1)
EXTRA_TEST_BINS += $(BUILD)/stubs/libgpiod_fake.so
$(BUILD)/stubs/libgpiod_fake.so: tests/stubs/gpiod_v$(GPIOD_MAJOR)_stub.c tests/stubs/gpiod_preload.c \
		tests/stubs/gpiod_script.c tests/stubs/gpiod_stub.h tests/stubs/gpiod-v$(GPIOD_MAJOR)/gpiod.h
	$(call say,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -Itests/stubs/gpiod-v$(GPIOD_MAJOR) $(ALL_CFLAGS) -fPIC -shared $(LDFLAGS) -o $@ \
		$(filter %.c,$^)
