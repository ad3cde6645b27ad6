/* The libgpiod stub as a preload for the real daemon: under
 * LD_PRELOAD=BUILD/stubs/libgpiod_fake.so, `dyeref serve` opens the stub's
 * fake chip (54 lines) in place of the kernel's, labelled as the
 * environment's DYEREF_FAKE_GPIO_LABEL says (the stub's default, a Pi 4's
 * header, without it). tests/e2e/daemon_gpio_label.sh shows the health
 * strip a chip that is not the Pi's header. */
#include <stdlib.h>

#include "tests/stubs/gpiod_stub.h"

__attribute__((constructor)) static void fake_chip(void)
{
	const char *label = getenv("DYEREF_FAKE_GPIO_LABEL");

	gpiod_stub_reset();
	if (label)
		gpiod_stub.label = label;
}
