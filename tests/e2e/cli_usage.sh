#!/bin/bash
# Every command's --help is its usage on stdout, exit 0; a bad option or a
# missing required one is one line on stderr naming it, exit 2, nothing on
# stdout (DESIGN.md: "a one-line error ... exit status 2").
set -u
# shellcheck source=tests/e2e/lib/cli.sh
. "$(dirname "$0")/lib/cli.sh"

"$dyeref" --help > "$tmp/out" 2> "$tmp/err" || bad "dyeref --help: exit $?"
grep -q -- '--help shows' "$tmp/out" || bad "dyeref --help does not point at COMMAND --help"

# The version is the VERSION file's, whichever way it is asked for.
want="dyeref $(cat VERSION)"
for v in --version version; do
	"$dyeref" $v > "$tmp/out" 2> "$tmp/err" || bad "dyeref $v: exit $?"
	[ "$(cat "$tmp/out")" = "$want" ] || bad "dyeref $v: '$(cat "$tmp/out")', want '$want'"
	[ -s "$tmp/err" ] && bad "dyeref $v: wrote to stderr: $(cat "$tmp/err")"
done
"$dyeref" help | grep -q '^  version ' || bad "dyeref help does not list version"

for cmd in serve judge score dice matches export import replay faces "faces export" sensors "calibrate piezo" \
	   "calibrate camera" calibrate sim evaluate; do
	for h in --help -h; do
		# shellcheck disable=SC2086
		"$dyeref" $cmd $h > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ "$rc" -eq 0 ] || bad "$cmd $h: exit $rc, want 0: $(cat "$tmp/err")"
		[ -s "$tmp/err" ] && bad "$cmd $h: wrote to stderr: $(cat "$tmp/err")"
		grep -q "^usage: dyeref ${cmd%% *}" "$tmp/out" || bad "$cmd $h: no usage on stdout: $(cat "$tmp/out")"
	done
done

for cmd in serve sensors "calibrate piezo" sim; do
	# shellcheck disable=SC2086
	expect_error "${cmd}: --bogus: unknown option" $cmd --bogus
	# shellcheck disable=SC2086
	expect_error "${cmd}: -x: unknown option" $cmd -xy
	# shellcheck disable=SC2086
	expect_error "${cmd}: unexpected argument 'stray'" $cmd stray
done
# One dash before a long option's name: getopt reads its first letter,
# some long option's own code, as a short option; the message names that
# letter, not the word before it (the command's name).
expect_error "serve: -s: unknown option" serve -sim
expect_error "sensors: -c: unknown option" sensors -config x
expect_error "calibrate piezo: -d: unknown option" calibrate piezo -dry-run
expect_error "sim: -o: unknown option" sim -out x
expect_error "serve: --config: needs a value" serve --config
expect_error "serve: --check=yes: takes no value" serve --check=yes
expect_error "serve: --check-config=yes: takes no value" serve --check-config=yes
expect_error "sensors: --watch=1: takes no value" sensors --watch=1
expect_error "sensors: --replay, --replay-db and --sim: one at a time" sensors --sim --replay x
expect_error "sensors: --replay-db: --match N is required" sensors --replay-db x
expect_error "sensors: --throw: only with --replay-db" sensors --throw 2
expect_error "calibrate piezo: --replay and --sim: one at a time" calibrate piezo --sim --replay x
# An option's bad value names the command as its other option errors do.
expect_error "calibrate piezo: --repeat: expected 1..5, got '9'" calibrate piezo --repeat 9
expect_error "calibrate piezo: --seed: expected a number, got 'x'" calibrate piezo --sim --seed x
expect_error "sim: --out DIR is required" sim --matches 1 --seed 1
expect_error "sim: --seed S is required" sim --matches 1 --out "$tmp/s"
expect_error "sim: --matches N is required" sim --seed 1 --out "$tmp/s"
[ -e "$tmp/s" ] && bad "sim without --matches made its --out"
expect_error "calibrate: a target is required: piezo or camera" calibrate
expect_error "evaluate: DIR is required" evaluate
expect_error "evaluate: unexpected argument '--bogus'" evaluate --bogus
expect_error "score: expected GAME CATEGORY D1..D5, got 1 argument (" score --bogus
expect_error "score: expected GAME CATEGORY D1..D5, got 6 arguments (" score yatzy chance 1 2 3 4

finish "cli usage"
