# systemd/: the unit and an example configuration, installed by `make install`
# (DESTDIR and PREFIX honoured; the unit's ExecStart names $(BINDIR)).
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
DOC_DIR ?= $(PREFIX)/share/doc/dyeref
define INSTALL_EXTRA +=
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(DOC_DIR)
	sed -e 's|/usr/local/bin/dyeref|$(BINDIR)/dyeref|' \
	    -e 's|/usr/local/share/doc/dyeref|$(DOC_DIR)|' systemd/dyeref.service \
		> $(DESTDIR)$(SYSTEMD_UNIT_DIR)/dyeref.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/dyeref.service
	install -m 0644 systemd/dyeref.conf.example $(DESTDIR)$(DOC_DIR)/dyeref.conf.example
	for d in daemon api pages mqtt; do [ ! -f docs/$$d.md ] || install -m 0644 docs/$$d.md $(DESTDIR)$(DOC_DIR)/$$d.md; done
endef
