#!/bin/bash
# The Debian package, as a new user gets it: `make deb` builds it out of the
# tree (leaving the tree as it was), lintian finds no error or warning,
# `dpkg -i` installs the program, the unit (enabled, held back until the
# config has a PIN), the conffile with the README's owner and mode, the
# docs, and the dyeref user in gpio and video; `dpkg -r` leaves only the
# conffile (and the match record), `dpkg -P` nothing.
#
# It installs system-wide, so it runs only as root, on a machine without a
# dyeref install of its own, one run at a time (a lock shared by every
# checkout), and the EXIT trap purges whatever it left. Other tests use
# $BUILD/dyeref, never /usr/bin/dyeref.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
case "${LABEL:-normal}" in
normal) ;;
*) echo "skip: the package is built and installed once, in the normal build's run"; exit 77 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "skip: installs a package system-wide: root only"; exit 77; }
for t in dpkg-buildpackage dh lintian adduser runuser flock; do
	command -v "$t" > /dev/null || { echo "skip: $t is not installed (scripts/install-deps check)"; exit 77; }
done
# shellcheck source=tests/e2e/lib/slow.sh
. tests/e2e/lib/slow.sh

exec 9> /run/lock/dyeref-deb-test.lock
flock -w "$(slow 900)" 9 || { echo "FAIL: another deb_install.sh held its lock too long"; exit 1; }
state=$(dpkg-query -W -f='${db:Status-Status}' dyeref 2> /dev/null || true)
if [ -n "$state" ] && [ "$state" != not-installed ] || getent passwd dyeref > /dev/null ||
	getent group dyeref > /dev/null || [ -e /etc/dyeref ] || [ -e /var/lib/dyeref ]; then
	echo "skip: this machine has a dyeref install (package '$state', user, /etc/dyeref or /var/lib/dyeref) that the test would remove"
	exit 77
fi
had_gpio=0
getent group gpio > /dev/null && had_gpio=1
version=$(cat VERSION)
tmp=$(mktemp -d)
# Whatever happened: the package purged, and what a failed purge may have
# left removed by hand (nothing of it was there before: checked above).
cleanup() {
	dpkg -P dyeref > /dev/null 2>&1
	rm -rf /etc/dyeref /var/lib/dyeref
	dpkg-statoverride --remove /etc/dyeref > /dev/null 2>&1
	command -v deb-systemd-helper > /dev/null && deb-systemd-helper purge dyeref.service > /dev/null 2>&1
	getent passwd dyeref > /dev/null && userdel dyeref
	getent group dyeref > /dev/null && groupdel dyeref
	[ "$had_gpio" = 1 ] || { getent group gpio > /dev/null && groupdel gpio; }
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
t0=$(date +%s)

# Build: out of the tree, nothing in it changed.
before=$(git status --porcelain 2> /dev/null || true)
make --no-print-directory deb DEB_OUT="$tmp/deb" > "$tmp/build.log" 2>&1 ||
	{ tail -n 30 "$tmp/build.log"; fail "make deb failed"; }
after=$(git status --porcelain 2> /dev/null || true)
[ "$before" = "$after" ] || fail "make deb changed the source tree: $(diff <(echo "$before") <(echo "$after"))"
deb=$tmp/deb/dyeref_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "make deb made no $deb: $(tail -n 5 "$tmp/build.log")"
t1=$(date +%s)
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version $(dpkg-deb -f "$deb" Version), VERSION $version"

# lintian: no error, no warning (an override needs its reason beside it).
lintian --fail-on error,warning "$deb" > "$tmp/lintian" 2>&1
rc=$?
grep -v '^running with root privileges' "$tmp/lintian"
[ "$rc" -eq 0 ] || fail "lintian: exit $rc"
grep -q '^[EW]: ' "$tmp/lintian" && fail "lintian reports errors or warnings"
t2=$(date +%s)

# The package's own files (not the directories it shares with others).
dpkg-deb --fsys-tarfile "$deb" | tar -tf - | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/\?$' > "$tmp/files"
conffile=/etc/dyeref/dyeref.conf

dpkg -i "$deb" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "dpkg -i failed"; }
[ "$(dpkg-query -W -f='${db:Status-Status} ${Version}' dyeref)" = "installed $version" ] ||
	fail "after dpkg -i: $(dpkg-query -W -f='${Status} ${Version}' dyeref)"
while read -r f; do [ -e "$f" ] || fail "installed, but $f is missing"; done < "$tmp/files"

# The user and its groups: the unit's User=, Group= and SupplementaryGroups=.
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd dyeref) || fail "no user dyeref"
[ "$uid" -lt 1000 ] || fail "dyeref is not a system user (uid $uid)"
[ "$shell" = /usr/sbin/nologin ] || fail "dyeref's shell is $shell"
[ "$home" = /var/lib/dyeref ] || fail "dyeref's home is $home"
[ "$(id -gn dyeref)" = dyeref ] || fail "dyeref's group is $(id -gn dyeref), the unit's Group= is dyeref"
for g in gpio video; do
	id -nG dyeref | tr ' ' '\n' | grep -qx "$g" || fail "dyeref is not in $g: $(id -nG dyeref)"
done
[ -e /var/lib/dyeref ] && fail "the package made /var/lib/dyeref (the unit's StateDirectory makes it)"

# The unit: the packaged paths, enabled, held back without a PIN.
unit=/lib/systemd/system/dyeref.service
grep -qx 'ExecStart=/usr/bin/dyeref serve --config /etc/dyeref/dyeref.conf' "$unit" || fail "unit's ExecStart: $(grep ExecStart "$unit")"
doc=$(sed -n 's|^Documentation=file://||p' "$unit")
[ -f "$doc" ] || fail "unit's Documentation= names $doc, not installed"
[ "$(readlink /etc/systemd/system/multi-user.target.wants/dyeref.service)" = "$unit" ] || fail "unit not enabled"
cond=$(sed -n 's/^ExecCondition=//p' /lib/systemd/system/dyeref.service.d/*.conf)
[ -n "$cond" ] || fail "no ExecCondition holds the unit back"
eval "$cond" && fail "the unit would start on the packaged config (no PIN): $cond"
sed 's/^#pin = .*/pin = 135790/' "$conffile" > "$tmp/with-pin.conf"
eval "${cond% *} $tmp/with-pin.conf" || fail "the unit would not start once a PIN is set: $cond"

# The conffile: the README's owner and mode (only root and dyeref see the PIN).
dpkg-query -W -f='${Conffiles}\n' dyeref | grep -q "^ $conffile " || fail "$conffile is not a conffile"
[ "$(stat -c '%a %U %G' /etc/dyeref)" = "750 dyeref dyeref" ] || fail "/etc/dyeref is $(stat -c '%a %U %G' /etc/dyeref)"
[ "$(stat -c '%a %U %G' "$conffile")" = "644 root root" ] || fail "$conffile is $(stat -c '%a %U %G' "$conffile")"
grep -Eq '^[[:space:]]*pin[[:space:]]*=' "$conffile" && fail "the packaged config sets a PIN"
[ -f /usr/share/doc/dyeref/dyeref.conf.example ] || fail "no example config"
[ -f /usr/share/man/man1/dyeref.1.gz ] || fail "no man page"

# The program.
[ "$(/usr/bin/dyeref --version)" = "dyeref $version" ] || fail "dyeref --version: $(/usr/bin/dyeref --version 2>&1)"
runuser -u dyeref -- /usr/bin/dyeref serve --check-config --config "$conffile" > "$tmp/check" 2>&1 ||
	fail "check-config as dyeref: $(cat "$tmp/check")"
# A match record where the unit would keep it, as the unit would make it.
install -d -m 0750 -o dyeref -g dyeref /var/lib/dyeref
runuser -u dyeref -- /usr/bin/dyeref import --db /var/lib/dyeref/dyeref.db < tests/data/sample-match.jsonl \
	> "$tmp/import" 2>&1 || fail "dyeref import as dyeref: $(cat "$tmp/import")"

# Remove: only the conffile, the record and the user stay.
dpkg -r dyeref > "$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log"; fail "dpkg -r failed"; }
[ "$(dpkg-query -W -f='${db:Status-Status}' dyeref)" = config-files ] || fail "after dpkg -r: $(dpkg-query -W -f='${Status}' dyeref)"
while read -r f; do
	[ "$f" = "$conffile" ] && continue
	[ -d "$f" ] && continue	# shared directories; its own are checked below
	[ -e "$f" ] && fail "after dpkg -r, $f remains"
done < "$tmp/files"
for d in /usr/share/doc/dyeref /lib/systemd/system/dyeref.service.d; do
	[ -e "$d" ] && fail "after dpkg -r, $d remains"
done
[ -f "$conffile" ] || fail "dpkg -r removed the conffile"
[ -f /var/lib/dyeref/dyeref.db ] || fail "dpkg -r removed the match record"
getent passwd dyeref > /dev/null || fail "dpkg -r removed the user"

# Purge: nothing left.
dpkg -P dyeref > "$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log"; fail "dpkg -P failed"; }
state=$(dpkg-query -W -f='${db:Status-Status}' dyeref 2> /dev/null || true)
[ -z "$state" ] || [ "$state" = not-installed ] || fail "after dpkg -P: $state"
for f in $(cat "$tmp/files") /etc/dyeref /var/lib/dyeref /lib/systemd/system/dyeref.service.d \
	/etc/systemd/system/multi-user.target.wants/dyeref.service; do
	case "$f" in */dyeref*) [ -e "$f" ] || [ -L "$f" ] && fail "after dpkg -P, $f remains" ;; esac
done
getent passwd dyeref > /dev/null && fail "after dpkg -P, the user dyeref remains"
getent group dyeref > /dev/null && fail "after dpkg -P, the group dyeref remains"
dpkg-statoverride --list /etc/dyeref > /dev/null && fail "after dpkg -P, the statoverride of /etc/dyeref remains"
t3=$(date +%s)
echo "deb install: ok (build $((t1 - t0)) s, lintian $((t2 - t1)) s, install to purge $((t3 - t2)) s)"
