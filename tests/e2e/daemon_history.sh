#!/bin/bash
# The history pages and their JSON against 100 imported matches
# (lib/history_data.sh): /api/matches paged (and unpaged as before),
# /api/players and /api/players/NAME checked against a fold of the same
# logs computed here (python over `dyeref judge` and the logs' events),
# /matches/N.csv and /players.csv parsed with Python's csv module (one row
# per throw), `dyeref export --csv`, the favicon, and hostile paths and
# queries answered 4xx; a dice match beside them.
set -eu
. "$(dirname "$0")/lib/daemon.sh"
. "$(dirname "$0")/lib/history_data.sh"
command -v python3 >/dev/null || { echo "python3 is not installed"; exit 77; }
history_db 100
for i in $(seq -f '%03g' 1 100); do
	"$DYEREF" judge "$WORK/logs/m$i.jsonl" > "$WORK/logs/m$i.judged" || fail "judge m$i"
done
# The independent fold: points, wins and kill n' fills from judge's lines;
# cup hits, sinks, catches, drops and fives from the events as corrected.
python3 - "$WORK/logs" > "$WORK/expect.json" <<'EOF' || fail "the test's own fold"
import json, sys, glob
P = {}
def p(n):
    return P.setdefault(n, dict(matches=0, won=0, points=0, sinks=0, cup_hits=0, catches=0, drops=0, fives=0, kill_n_fills=0))
for f in sorted(glob.glob(sys.argv[1] + "/m*.jsonl")):
    log = [json.loads(l) for l in open(f) if l.strip()]
    judged = [json.loads(l) for l in open(f[:-6] + ".judged") if l.strip()]
    head = log[0]
    seats = head["teams"]["A"] + head["teams"]["B"]
    throws = [l for l in log if l["type"] == "throw"]
    for l in log:
        if l["type"] == "correct":
            throws[l["throw"] - 1] = l
    final = judged[-1]
    for k, n in enumerate(seats):
        p(n)["matches"] += 1
        if final["over"] and final["winner"] == ("A" if k < 2 else "B"):
            p(n)["won"] += 1
    for r in judged[:-1]:
        t = throws[r["throw"] - 1]
        if "BD-P9" in r["why"]:
            continue
        th = p(r["thrower"])
        th["points"] += r["points"][r["team"]]
        for d in r["duties"]:
            if d["duty"] == "kill_n_fill" and "player" in d:
                p(d["player"])["kill_n_fills"] += 1
        ev = t.get("events", [])
        for i, e in enumerate(ev):
            if e["at"] == "cup":
                if e.get("sink") and not e.get("popout"):
                    th["sinks"] += 1
                else:
                    th["cup_hits"] += 1
            elif e["at"] == "rest" and e.get("face") == 5:
                th["fives"] += 1
            elif e["at"] == "catch":
                p(e["by"])["catches"] += 1
                if any(x["at"] == "floor" for x in ev[i + 1:]):
                    p(e["by"])["drops"] += 1
print(json.dumps(P, ensure_ascii=False))
EOF
write_config "$WORK/c.ini"
start_daemon --config "$WORK/c.ini"
get() { curl -s --max-time "$(slow 10)" "$BASE$1"; }
# The unpaged list is the array it was (console.js, replay.js read it).
get /api/matches | python3 -c 'import json,sys; a=json.load(sys.stdin); assert isinstance(a,list) and len(a)==100, len(a)' ||
	fail "/api/matches unpaged"
# Pages of 20, newest first, with teams, players, winner and date.
for pg in 1 3 5; do
	get "/api/matches?page=$pg" > "$WORK/p$pg.json"
	python3 - "$WORK/p$pg.json" "$pg" "$WORK/logs" <<'EOF' || fail "page $pg: $(head -c 300 "$WORK/p$pg.json")"
import json, sys
d = json.load(open(sys.argv[1])); pg = int(sys.argv[2])
assert d["total"] == 100 and d["pages"] == 5 and d["per"] == 20 and d["page"] == pg, d
ids = [m["match"] for m in d["matches"]]
assert ids == list(range(100 - 20 * (pg - 1), 80 - 20 * (pg - 1), -1)), ids
for m in d["matches"]:
    log = [json.loads(l) for l in open("%s/m%03d.jsonl" % (sys.argv[3], m["match"]))]
    fin = [json.loads(l) for l in open("%s/m%03d.judged" % (sys.argv[3], m["match"]))][-1]
    assert m["players"] == log[0]["teams"], (m, log[0])
    assert m["teams"] == log[0]["names"], m
    assert m["score"] == fin["score"], (m, fin)
    assert m["winner"] == fin["winner"], (m, fin)
    assert m["start_wall_ms"] > 0 and m["game"] == "beerdie"
EOF
done
get "/api/matches?page=2&per=7" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["pages"]==15 and [m["match"] for m in d["matches"]]==list(range(93,86,-1)), d' ||
	fail "per=7"
# Players: every figure against the test's own fold.
get /api/players > "$WORK/players.json"
python3 - "$WORK/players.json" "$WORK/expect.json" <<'EOF' || fail "player figures differ from the fold"
import json, sys
got = {p["name"]: p for p in json.load(open(sys.argv[1]))["players"]}
want = json.load(open(sys.argv[2]))
assert sorted(got) == sorted(want), (sorted(got), sorted(want))
bad = []
for n, w in want.items():
    for k, v in w.items():
        if got[n][k] != v:
            bad.append((n, k, got[n][k], v))
assert not bad, bad
assert sum(p["matches"] for p in got.values()) == 400
assert sum(p["catches"] for p in got.values()) > 0 and sum(p["sinks"] for p in got.values()) > 0
EOF
# One player by name, %-escaped (a quote, a comma, a space; UTF-8).
for enc in 'Jo%20%22JJ%22%2C%20Jr' 'Zo%C3%AB' 'Ann'; do
	get "/api/players/$enc" > "$WORK/one.json"
	python3 - "$WORK/one.json" "$WORK/expect.json" "$enc" <<'EOF' || fail "/api/players/$enc: $(cat "$WORK/one.json")"
import json, sys, urllib.parse
got = json.load(open(sys.argv[1])); want = json.load(open(sys.argv[2]))
name = urllib.parse.unquote(sys.argv[3])
assert got["name"] == name and all(got[k] == v for k, v in want[name].items()), (got, want[name])
EOF
done
# CSV: a match's throws, one row per throw, quoted as RFC 4180.
hdr=$(curl -s -D - -o "$WORK/m10.csv" --max-time "$(slow 10)" "$BASE/matches/10.csv")
echo "$hdr" | grep -qi '^Content-Type: text/csv' || fail "CSV Content-Type: $hdr"
echo "$hdr" | grep -qi '^Content-Disposition: attachment; filename="match-10.csv"' || fail "CSV disposition: $hdr"
"$DYEREF" export --db "$WORK/dyeref.db" --match 10 --csv > "$WORK/m10-cli.csv" || fail "export --csv"
cmp -s "$WORK/m10.csv" "$WORK/m10-cli.csv" || fail "the page's CSV and export --csv differ"
python3 - "$WORK/m10.csv" "$WORK/logs/m010.judged" "$WORK/logs/m010.jsonl" <<'EOF' || fail "match 10's CSV"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
judged = [json.loads(l) for l in open(sys.argv[2])][:-1]
log = [json.loads(l) for l in open(sys.argv[3])]
assert rows[0][:5] == ["match", "throw", "thrower", "team", "events"], rows[0]
body = rows[1:]
assert len(body) == len(judged) == sum(l["type"] == "throw" for l in log), (len(body), len(judged))
h = rows[0]
for r, j in zip(body, judged):
    d = dict(zip(h, r))
    assert int(d["throw"]) == j["throw"] and d["thrower"] == j["thrower"] and d["team"] == j["team"], (d, j)
    assert int(d["score_A"]) == j["score"]["A"] and int(d["score_B"]) == j["score"]["B"], (d, j)
    assert d["rules"] == " ".join(j["why"]), (d, j)
assert dict(zip(h, body[1]))["corrected"] == "true"
EOF
get /players.csv > "$WORK/players.csv"
"$DYEREF" export --db "$WORK/dyeref.db" --players --csv > "$WORK/players-cli.csv" || fail "export --players --csv"
cmp -s "$WORK/players.csv" "$WORK/players-cli.csv" || fail "/players.csv and export --players --csv differ"
python3 - "$WORK/players.csv" "$WORK/expect.json" <<'EOF' || fail "players.csv"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
want = json.load(open(sys.argv[2]))
assert len(rows) == len(want)
for r in rows:
    assert all(int(r[k]) == v for k, v in want[r["player"]].items()), r
assert 'Jo "JJ", Jr' in [r["player"] for r in rows]
EOF
# The pages, and the favicon in every page's head.
for u in /matches /matches/10 /players /players/Ann '/players/Zo%C3%AB' / /console /replay/1 /rules; do
	[ "$(status_of "$BASE$u")" = 200 ] || fail "$u: $(status_of "$BASE$u")"
	get "$u" | grep -q '<link rel="icon" href="/favicon.svg"' || fail "$u has no icon link"
done
curl -s -D - -o "$WORK/fav" --max-time "$(slow 10)" "$BASE/favicon.ico" | grep -qi '^Content-Type: image/svg+xml' ||
	fail "favicon.ico"
grep -q '<svg' "$WORK/fav" || fail "favicon.ico is not the icon"
# Hostile input: 4xx, never a page or a 500.
for u in '/api/matches?page=0' '/api/matches?page=-1' '/api/matches?page=6' '/api/matches?page=99999999999999' \
	'/api/matches?page=1&per=0' '/api/matches?page=1&per=101' '/api/matches?page=abc' '/api/matches?page=1%00' \
	'/matches/0' '/matches/abc' '/matches/101.csv' '/matches/99999999999.csv' '/matches/1.csv/..' \
	'/matches/../etc/passwd' '/players/..%2F..%2Fetc' '/players/%2e%2e' '/api/players/%00' '/api/players/a%2Fb' \
	'/api/players/%ZZ' '/api/players/%C3' '/api/players/' "/api/players/$(printf 'x%.0s' $(seq 1 40))" \
	'/api/players/Nobody' '/players/%0a' '/players/a%2F' '/matches/10.csvx'; do
	st=$(status_of "$BASE$u")
	case $st in 4??) ;; *) fail "$u answered $st" ;; esac
done
# export: bad input is one line and exit 2.
rc=0; "$DYEREF" export --db "$WORK/dyeref.db" --players > /dev/null 2> "$WORK/e1" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$WORK/e1")" = 1 ] || fail "export --players without --csv: $rc $(cat "$WORK/e1")"
rc=0; "$DYEREF" export --db "$WORK/dyeref.db" --match abc --csv > /dev/null 2> "$WORK/e2" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$WORK/e2")" = 1 ] || fail "export --match abc: $rc $(cat "$WORK/e2")"
# A dice match beside them: listed, its page shows its sheet, no throws CSV,
# and the player table (Beer Die) unchanged.
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$("$DYEREF" import --db "$WORK/dyeref.db" "$top/tests/data/dice/yatzy-full.jsonl")" = 101 ] || fail "import yatzy"
get "/api/matches?page=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); m=d["matches"][0]; assert d["total"]==101 and m["match"]==101 and m["game"]=="yatzy" and "players" not in m, m' ||
	fail "the dice match in the list"
[ "$(status_of "$BASE/matches/101")" = 200 ] || fail "/matches/101"
st=$(status_of "$BASE/matches/101.csv"); [ "$st" = 400 ] || fail "/matches/101.csv answered $st"
get /api/players | cmp -s - "$WORK/players.json" || fail "a dice match changed the player table"
rc=0; "$DYEREF" export --db "$WORK/dyeref.db" --match 101 --csv > "$WORK/d.csv" 2> "$WORK/e3" || rc=$?
[ "$rc" = 2 ] && [ ! -s "$WORK/d.csv" ] && [ "$(wc -l < "$WORK/e3")" = 1 ] || fail "export --csv of a dice match: $rc $(cat "$WORK/e3")"
# The figures are kept between requests and refolded only where a match
# changed: a new match, its throws, a correction and its end all show, as
# the CLI (which folds every match afresh) counts them.
same_as_cli() {
	get /players.csv > "$WORK/players.csv"
	"$DYEREF" export --db "$WORK/dyeref.db" --players --csv > "$WORK/players-cli.csv" || fail "export --players --csv"
	cmp -s "$WORK/players.csv" "$WORK/players-cli.csv" || fail "/players.csv after $1: $(diff "$WORK/players.csv" "$WORK/players-cli.csv" | head -n 4)"
}
login
command_ok '{"cmd":"start","teams":{"A":["Newcomer","Ann"],"B":["Cy","Di"]}}'
same_as_cli "a new match"
command_ok '{"cmd":"throw","events":[{"at":"table","half":"B"},{"at":"cup","owner":"b1","sink":true}]}'
command_ok '{"cmd":"throw","events":[{"at":"table","half":"A"},{"at":"floor"}]}'
same_as_cli "two throws"
get /players.csv | grep -q '^Newcomer,1,0,2,1,' || fail "the newcomer's sink: $(get /players.csv | grep Newcomer)"
command_ok '{"cmd":"correct","throw":1,"events":[{"at":"table","half":"B"},{"at":"floor"}]}'
same_as_cli "a correction"
get /api/players/Newcomer | grep -q '"sinks":0' || fail "the correction is not in the figures: $(get /api/players/Newcomer)"
command_ok '{"cmd":"end"}'
same_as_cli "the end"
stop_daemon
echo ok
