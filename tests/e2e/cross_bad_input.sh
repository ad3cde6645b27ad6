#!/bin/bash
# `make cross` with bad input (docs/cross-build.md): an architecture it does
# not know is named with the ones it does; a target library that the
# target's pkg-config cannot find is named with its :ARCH package and the
# install-deps line, and nothing is compiled. The second case runs on a fake
# pkg-config that hides spng from the arm64 look-up only, and fake cross
# compilers that note each call, so it needs no cross packages.
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"
command -v make > /dev/null || { echo "make is not installed"; exit 77; }
real_pc=$(command -v pkg-config) || { echo "pkg-config is not installed"; exit 77; }

make --no-print-directory cross ARCH=sparc > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "ARCH=sparc: exit $rc, want 2"
grep -q "unknown ARCH 'sparc'" "$tmp/err" || bad "ARCH=sparc: sparc not named: $(cat "$tmp/err")"
grep -q "arm64 and armhf" "$tmp/err" || bad "ARCH=sparc: the known ones not named: $(cat "$tmp/err")"

mkdir -p "$tmp/bin"
cat > "$tmp/bin/pkg-config" << EOF
#!/bin/sh
case "\${PKG_CONFIG_LIBDIR:-}" in
*aarch64-linux-gnu*) for a in "\$@"; do [ "\$a" = spng ] && exit 1; done ;;
esac
exec '$real_pc' "\$@"
EOF
for t in gcc g++ ar; do
	printf '#!/bin/sh\necho "$0 $*" >> %s/compiled\nexit 1\n' "$tmp" > "$tmp/bin/aarch64-linux-gnu-$t"
done
chmod +x "$tmp"/bin/*
PATH=$tmp/bin:$PATH make --no-print-directory cross ARCH=arm64 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || bad "spng missing: exit $rc, want 2"
grep -q "spng for arm64 (package libspng-dev:arm64)" "$tmp/err" ||
	bad "spng missing: the package not named: $(cat "$tmp/err")"
grep -q "scripts/install-deps cross arm64" "$tmp/err" ||
	bad "spng missing: no install-deps line: $(cat "$tmp/err")"
grep -q "jansson for arm64" "$tmp/err" && bad "spng missing: jansson named too: $(cat "$tmp/err")"
[ -e "$tmp/compiled" ] && bad "spng missing: compiled all the same: $(head -n 3 "$tmp/compiled")"
finish cross_bad_input
