# Shared by tests/e2e/daemon_faces.sh and browser_faces.sh: a daemon on the
# simulated table (two throws, fast, then the table stays the official's)
# and the throw whose die came to rest with its face read. Source after
# lib/daemon.sh (or lib/browser.sh). Sets $k, that throw, and $read_face.
detail() { curl -s --max-time "$(slow 10)" "$BASE/api/matches/1/throws/$1"; }
write_config "$WORK/c.ini" "[fusion]" "review = count" "[sim]" "max_throws = 2" "pause_s = 3600" "speed = 10"
start_daemon --config "$WORK/c.ini" --sim=table
poll_until 15 sh -c "curl -s --max-time 2 '$BASE/api/state' | grep -q '\"throws\":2'" ||
	fail "the simulator's two throws not ruled: $(state)"
k=
for t in 1 2; do
	detail "$t" | grep -Eq '"snapshots":\[\{"index":1,"t_ms":[0-9.]+,"face":[1-6],.*"die":\{' && { k=$t; break; }
done
[ -n "$k" ] || fail "no simulated throw with a snapshot, its die and its face"
read_face=$(detail "$k" | sed -n 's/.*"snapshots":\[{"index":1,"t_ms":[0-9.]*,"face":\([1-6]\).*/\1/p')
# $snap: its snapshot's id, what the face command names.
snap=$(detail "$k" | sed -n 's/.*"snapshots":\[{"index":1,[^}]*},"width":[0-9]*,"height":[0-9]*,"id":\([0-9]*\).*/\1/p')
[ -n "$snap" ] || fail "throw $k's snapshot has no id: $(detail "$k")"
