/* The libgpiod stub as a preload for the real daemon: under
 * LD_PRELOAD=BUILD/stubs/libgpiod_fake.so, `dyeref serve` opens the stub's
 * fake chip (54 lines) in place of the kernel's, labelled as the
 * environment's DYEREF_FAKE_GPIO_LABEL says (the stub's default, a Pi 4's
 * header, without it). tests/e2e/daemon_gpio_label.sh shows the health
 * strip a chip that is not the Pi's header.
 *
 * DYEREF_FAKE_GPIO_EVENTS names a script of edges (gpiod_stub.h) that the
 * lines then see in real time from their request on, each stamped with its
 * scripted time and read alone
 * (tests/e2e/daemon_gpio_buttons.sh). A script that cannot be read or
 * does not parse is named on stderr ("path:line: why") and the chip
 * refuses to open (EIO): the daemon runs without sensors rather than on a
 * chip that plays something else. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/stubs/gpiod_stub.h"

__attribute__((constructor)) static void fake_chip(void)
{
	const char *label = getenv("DYEREF_FAKE_GPIO_LABEL");
	const char *events = getenv("DYEREF_FAKE_GPIO_EVENTS");
	char err[512];

	gpiod_stub_reset();
	if (label)
		gpiod_stub.label = label;
	if (events && gpiod_stub_script_load(events, err, sizeof(err)) < 0) {
		fprintf(stderr, "libgpiod stub: DYEREF_FAKE_GPIO_EVENTS: %s\n", err);
		gpiod_stub.open_errno = EIO;
	}
}
