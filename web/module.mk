# web/: the static pages are embedded in the binary. scripts/embed-static
# turns web/static/* (and the rules text) into one generated C file that
# joins libweb.a.
WEB_STATIC := $(sort $(wildcard web/static/*.html web/static/*.css web/static/*.js web/static/*.svg))
WEB_RULES  := $(wildcard docs/beer-die-rules.md)
WEB_GEN    := $(BUILD)/web/gen/static.c

$(WEB_GEN): $(WEB_STATIC) $(WEB_RULES) scripts/embed-static
	$(call say,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)scripts/embed-static $@ $(foreach f,$(WEB_STATIC),/$(notdir $(f))=$(f)) \
		$(foreach f,$(WEB_RULES),/beer-die-rules.md=$(f))

$(BUILD)/web/gen/static.o: $(WEB_GEN)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libweb.a: $(BUILD)/web/gen/static.o
