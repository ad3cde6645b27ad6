# Shared by tests/e2e/browser_*.sh: a real headless chromium driven over its
# DevTools pipe by node (lib/cdp_pipe.js), and lib/daemon.sh's daemon.
# Sets $chromium, and $out, the folder for screenshots under
# tests/artefacts/ (gitignored): `. lib/browser.sh SUBDIR` (SUBDIR may be "").
# Source after `set -eu`.
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium is not installed"; exit 77; }
command -v node >/dev/null || { echo "node is not installed (drives chromium's DevTools pipe)"; exit 77; }
# shellcheck source=tests/e2e/lib/daemon.sh
. "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"
out=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/tests/artefacts${1:+/$1}
mkdir -p "$out"
