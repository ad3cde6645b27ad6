# Shared by tests/e2e/daemon_gpio_*.sh: the real daemon on the libgpiod
# stub, preloaded (tests/stubs/gpiod_preload.c). Source after daemon.sh;
# then DYEREF=$WORK/dyeref-on-stub start_daemon ... runs the daemon, and
# nothing else, on the stub's fake chip.
fake=${BUILD:-$(dirname "$DYEREF")}/stubs/libgpiod_fake.so
[ -f "$fake" ] || fail "$fake is not built (make unit)"
# An ASan build's runtime must come first; the preload goes before it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
printf '#!/bin/sh\nLD_PRELOAD='\''%s'\'' exec '\''%s'\'' "$@"\n' "$fake" "$DYEREF" > "$WORK/dyeref-on-stub"
chmod +x "$WORK/dyeref-on-stub"
