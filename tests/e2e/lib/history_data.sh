# Shared by tests/e2e/daemon_history.sh and browser_history.sh: 100
# simulated matches (`dyeref sim`, seed 7) with players renamed from a pool
# (one name with a comma and a quote, one not ASCII), the same throw 2 again as a correction
# in every tenth match, imported into $WORK/dyeref.db. Source after lib/daemon.sh.
history_db() {
	local n=${1:-100}
	"$DYEREF" sim --matches "$n" --seed 7 --out "$WORK/sim" > /dev/null 2>&1 || fail "sim"
	python3 - "$WORK/sim" "$WORK/logs" "$n" <<'EOF' || fail "renaming the simulated logs"
import json, os, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(dst, exist_ok=True)
pool = ["Ann", "Bo", "Cy", "Di", "Eve", 'Jo "JJ", Jr', "Zoë", "Kim"]
for i in range(1, n + 1):
    lines = [json.loads(l) for l in open(f"{src}/match-{i:03d}/truth.jsonl") if l.strip()]
    names = [pool[(i + k * 3) % len(pool)] for k in range(4)]
    seat = {"a1": names[0], "a2": names[1], "b1": names[2], "b2": names[3]}
    out = []
    for l in lines:
        if l["type"] == "match":
            l["teams"] = {"A": names[:2], "B": names[2:]}
            l["names"] = {"A": "Red %d" % i, "B": "Blue"}
        for key in ("thrower",):
            if key in l and l[key] in seat:
                l[key] = seat[l[key]]
        for e in l.get("events", []):
            if e.get("by") in seat:
                e["by"] = seat[e["by"]]
            if e.get("owner") in seat:
                e["owner"] = seat[e["owner"]]
        out.append(l)
    throws = [l for l in out if l["type"] == "throw"]
    if i % 10 == 0 and len(throws) > 2:
        # The same events again, as an official's correction: the rulings
        # stand (a changed outcome could end the game early).
        out.append({"type": "correct", "throw": 2, "dye_up": throws[1].get("dye_up", True),
                    "events": throws[1]["events"],
                    "audit": {"official": "Kim", "wall_ms": 1764720000123, "reason": "seen from the end"}})
    with open(f"{dst}/m{i:03d}.jsonl", "w") as f:
        for l in out:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
EOF
	for i in $(seq -f '%03g' 1 "$n"); do
		"$DYEREF" import --db "$WORK/dyeref.db" "$WORK/logs/m$i.jsonl" > /dev/null ||
			fail "import m$i.jsonl"
	done
}
