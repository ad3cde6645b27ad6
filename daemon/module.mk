# daemon/: linked as objects into build/dyeref (the Makefile does that).
.SECONDEXPANSION:

# The version, from the VERSION file alone (a tarball has no git): one
# object carries it and is rebuilt when the file changes. `override`: a
# packager's EXTRA_CFLAGS on the command line must not drop it.
DYEREF_VERSION := $(shell cat VERSION 2>/dev/null)
ifeq ($(DYEREF_VERSION),)
$(error VERSION: missing or empty (it holds dyeref's version, e.g. 0.1.0))
endif
$(BUILD)/daemon/version.o: VERSION
$(BUILD)/daemon/version.o: override EXTRA_CFLAGS += -DDYEREF_VERSION='"$(DYEREF_VERSION)"'

# One rendered throw as a Y4M camera stream, for the camera glue's
# end-to-end test (a whole `dyeref sim --frames` match takes too long).
EXTRA_TEST_BINS += $(BUILD)/tests/cam_throw
$(BUILD)/tests/cam_throw: $(BUILD)/tests/data/camera/cam_throw.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

# Unit tests that replace a function through the linker's --wrap (WRAP,
# per test): each has a link line of its own.
#  test_import_once: `dyeref import` reads a log once, no whole judgement
#    (mlog_judge, mlog_bd_stream_new counted).
#  test_referee_db_fault: the database failing under the web pages
#    (db_matches, db_match_get, db_bd_load, db_replay fail on demand;
#    dd_log caught).
#  test_config_write: the directory is synced after the rename (fsync seen).
#  test_serve_face_pending: serve with a fake camera glue whose face read
#    spans fusion's timeout (dd_camera_new, _free, _snapshot), on a manual
#    clock (dd_clock_new_real).
#  test_sim_feed_reader: the simulated table on a manual clock, its face
#    reads counted by thread and held on demand (vis_read_face_near).
#  test_face_reader_stuck: a face read that does not return until the test
#    lets it (vis_read_face_near); when the reader's net is freed
#    (vis_fnet_free).
#  test_serve_late_obs: serve with a fake sensors glue that hands over two
#    throws' observations at once (SENSORS_FAKE), on a manual clock.
#  test_serve_won: serve with a fake sensors glue whose observations come
#    after the game is won (SENSORS_FAKE; dd_log caught), on a manual clock.
#  test_serve_demo_restart: serve --sim=table with fake sensors and a fake
#    simulator's feeder (SENSORS_FAKE; dd_sim_feed_new, _free, _spent,
#    _match_cfg, _snapshot), on a manual clock.
#  (SENSORS_FAKE: tests/support/fake_glue.h's FAKE_GLUE_SENSORS; a manual
#  clock: its FAKE_GLUE_CLOCK, dd_clock_new_real.)
#  test_camera_glue_times: the camera glue with a fake tracker reporting
#    observations at times near either end of int64 (vis_tracker_feed).
#  test_mqtt_machine: the MQTT publisher's state machine with a fake
#    libmosquitto (the mosquitto_* it calls but the strings), on a manual clock.
comma := ,
WRAP_TESTS := test_import_once test_referee_db_fault test_config_write test_serve_face_pending \
	test_sim_feed_reader test_face_reader_stuck test_serve_late_obs test_serve_won \
	test_serve_demo_restart test_camera_glue_times test_mqtt_machine
EXCLUDE += $(WRAP_TESTS:%=tests/unit/%.c)
EXTRA_TEST_BINS += $(WRAP_TESTS:%=$(BUILD)/tests/%)
$(BUILD)/tests/test_import_once: WRAP := mlog_judge mlog_bd_stream_new
$(BUILD)/tests/test_mqtt_machine: WRAP := mosquitto_new mosquitto_destroy \
	mosquitto_connect_callback_set mosquitto_disconnect_callback_set \
	mosquitto_publish_callback_set mosquitto_max_inflight_messages_set mosquitto_will_set \
	mosquitto_connect_async mosquitto_socket mosquitto_want_write mosquitto_publish \
	mosquitto_loop_misc mosquitto_disconnect
$(BUILD)/tests/test_referee_db_fault: WRAP := db_matches db_match_get db_bd_load db_replay dd_log
$(BUILD)/tests/test_config_write: WRAP := fsync
SENSORS_FAKE := dd_sensors_new dd_sensors_free dd_sensors_keep_edges dd_sensors_mine_wired
$(BUILD)/tests/test_serve_face_pending: WRAP := dd_camera_new dd_camera_free dd_camera_snapshot \
	dd_clock_new_real
$(BUILD)/tests/test_sim_feed_reader: WRAP := vis_read_face_near
$(BUILD)/tests/test_face_reader_stuck: WRAP := vis_read_face_near vis_fnet_free
$(BUILD)/tests/test_serve_late_obs: WRAP := $(SENSORS_FAKE) dd_clock_new_real
$(BUILD)/tests/test_serve_won: WRAP := $(SENSORS_FAKE) dd_clock_new_real dd_log
$(BUILD)/tests/test_camera_glue_times: WRAP := vis_tracker_feed
$(BUILD)/tests/test_serve_demo_restart: WRAP := $(SENSORS_FAKE) dd_clock_new_real \
	dd_sim_feed_new dd_sim_feed_free dd_sim_feed_spent dd_sim_feed_match_cfg \
	dd_sim_feed_snapshot
$(WRAP_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $$(TEST_SUPPORT) \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) $(addprefix -Wl$(comma)--wrap=,$(WRAP)) -o $@ $< $(TEST_SUPPORT) \
		-Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(TEST_LIBS) $(LDLIBS)

# test_sensors_glue_chip: the sensors glue on the libgpiod stub's fake
# chip; the stub's objects come first, so they define the gpiod_* symbols
# libsensors calls and the real libgpiod is never reached.
EXCLUDE += tests/unit/test_sensors_glue_chip.c
EXTRA_TEST_BINS += $(BUILD)/tests/test_sensors_glue_chip
$(BUILD)/tests/test_sensors_glue_chip: $(BUILD)/tests/unit/test_sensors_glue_chip.o \
		$(BUILD)/stubs/gpiod_v$$(GPIOD_MAJOR)_stub.o $(BUILD)/stubs/gpiod_script.o \
		$$(TEST_SUPPORT) $$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $(filter %.o,$^) -Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) \
		-Wl,--end-group $(TEST_LIBS) $(LDLIBS)

# The old-match pages' benchmark: the referee over a database of stored
# matches (the db tests' simulated throws).
$(BUILD)/bench/daemon_old_match: $(BUILD)/bench/daemon_old_match.o $(BUILD)/tests/support/db_sim.o \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(BUILD)/tests/support/db_sim.o \
		-Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group $(LDLIBS)

# Start-up against the database's size: databases made with the db
# tests' simulated throws, the daemon launched on each.
$(BUILD)/bench/daemon_startup: $(BUILD)/bench/daemon_startup.o $(BUILD)/tests/support/db_sim.o $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< $(BUILD)/tests/support/db_sim.o $(LINK_LIBS) $(LDLIBS)

# The simulated table's impact lateness: the live feeder (daemon/sim_feed.c)
# on a real event loop; what a Pi can afford (the match step and referee).
$(BUILD)/bench/daemon_sim_impacts $(BUILD)/bench/pi_budget: $(BUILD)/bench/%: $(BUILD)/bench/%.o \
		$$(DAEMON_TEST_LIB) $$(LIBS)
	$(call say,LINK,$@)
	$(Q)$(LINK) $(LDFLAGS) -o $@ $< -Wl,--start-group $(DAEMON_TEST_LIB) $(LIBS) -Wl,--end-group \
		$(LDLIBS)
