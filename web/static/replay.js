"use strict";
// One throw as evidence: the ruling, the table drawing (with its legend and
// the landings numbered in order), the camera's snapshots with the face it
// read (an official logged in confirms or sets it: a face label), the timeline of observations (a hand-entered throw's console
// events), the corrections with who made them and when, the house rules.
// A seat ("b1") by the player's name, as the match knows it.
let PLAYERS = null;
function who(p) {
  const m = /^([ab])([12])$/.exec(p || "");
  const name = m && PLAYERS && PLAYERS[m[1].toUpperCase()] && PLAYERS[m[1].toUpperCase()][m[2] - 1];
  return name || p;
}
const HALF = { A: "A's half", B: "B's half", line: "the line" };
function describe(ev) {
  if (!ev) return "";
  let s = ev.at;
  if (ev.half) s += " " + (HALF[ev.half] || ev.half);
  if (ev.owner) s += " " + who(ev.owner) + "'s cup" + (ev.sink ? " (sink)" : "");
  if (ev.by) s += " by " + who(ev.by);
  if (ev.hands) s += ", " + ev.hands + " hand" + (ev.hands > 1 ? "s" : "");
  if (ev.trapped) s += ", trapped";
  if (ev.over_table) s += ", over the table";
  if (ev.face) s += ", face " + ev.face;
  if (ev.part) s += " (" + ev.part + ")";
  return s;
}
// "by Kim, 3 Dec 2026, 00:35:12: the reason" (contract 7's audit).
function auditText(a) {
  if (!a) return "";
  let s = "by " + (a.official || "an official");
  if (a.wall_ms) s += ", " + new Date(a.wall_ms).toLocaleString([], { day: "numeric", month: "short",
    year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
  if (a.reason) s += ": \u201c" + a.reason + "\u201d";
  return s;
}

const MARKS = {
  piezo: ["circle", { cx: 9, cy: 9, r: 4, fill: "#ffcc00" }, "where the table's piezo sensors located an impact"],
  camera: ["rect", { x: 5, y: 5, width: 8, height: 8, fill: "#3ddc84" }, "where the camera saw the die land"],
  sigma: ["circle", { cx: 9, cy: 9, r: 7, fill: "none", stroke: "#ffcc00", "stroke-width": 1.5, "stroke-dasharray": "3 2" },
    "the sensors' uncertainty, one standard deviation, to scale (often inside the dot)"],
  landing: ["circle", { cx: 9, cy: 9, r: 6, fill: "none", stroke: "#fff", "stroke-width": 2 },
    "a landing the ruling used, numbered in order (list below)"],
};
function legendItem(ul, mark, text) {
  const li = el("li");
  const s = svg("svg", { width: 18, height: 18, viewBox: "0 0 18 18", "aria-hidden": "true" }, li);
  svg(mark[0], mark[1], s);
  li.appendChild(document.createTextNode(text || mark[2]));
  ul.appendChild(li);
}

function drawTable(d, lands) {
  const drawn = drawTableInto($("drawing"), d, lands);
  const ul = $("legend"); clear(ul);
  for (const k of ["landing", "piezo", "camera", "sigma"]) if (drawn.has(k)) legendItem(ul, MARKS[k]);
  legendItem(ul, ["circle", { cx: 9, cy: 9, r: 6, fill: "#ff7a3d" }], teamName(d.team_names, "A", true) + "'s cups");
  legendItem(ul, ["circle", { cx: 9, cy: 9, r: 6, fill: "#3db4ff" }], teamName(d.team_names, "B", true) + "'s cups");
  legendItem(ul, ["circle", { cx: 9, cy: 9, r: 5, fill: "#aaa" }], "the mine");
  legendItem(ul, ["line", { x1: 9, y1: 1, x2: 9, y2: 17, stroke: "#fff", "stroke-width": 2 }], "the centre line");
}

function renderLandings(lands) {
  const ol = $("landings"); clear(ol);
  if (!lands.length) { ol.appendChild(el("li", "none", "no landing on the table")); return; }
  for (const l of lands) {
    const e = l.ev;
    let s = HALF[e.half] || e.half || "the table";
    s += e.x !== undefined ? " at " + e.x.toFixed(2) + " m, " + e.y.toFixed(2) + " m" : " (no position recorded)";
    const how = [];
    for (const o of l.obs)
      how.push(o.source + (o.sigma_m ? " \u00b1" + cm(o.sigma_m) : " (no stated uncertainty)"));
    if (how.length) s += "; located by " + how.join(", ");
    else if (e.source) s += "; from " + e.source;
    if (e.confidence !== undefined) s += "; confidence " + Number(e.confidence).toFixed(2);
    ol.appendChild(el("li", null, s));
  }
}

// A snapshot: the picture with a ring where the die is, the die's crop
// enlarged, and the face the camera read with its confidence.
function renderSnapshot(d, s) {
  const fig = el("figure", "snap");
  const frame = el("div", "snap-frame");
  const img = el("img", "snapshot");
  img.src = "/api/matches/" + d.match + "/throws/" + d.throw + "/snapshots/" + s.index + ".jpg" +
    (s.id ? "?id=" + s.id : "");  // by id: a pruned earlier picture moves the index
  img.alt = "camera snapshot " + s.index;
  frame.appendChild(img);
  const die = s.die && s.width && s.height ? s.die : null;
  if (die) {
    const ring = el("div", "snap-ring");
    ring.style.left = ((die.x - die.r) / s.width * 100) + "%";
    ring.style.top = ((die.y - die.r) / s.height * 100) + "%";
    ring.style.width = (2 * die.r / s.width * 100) + "%";
    ring.style.height = (2 * die.r / s.height * 100) + "%";
    frame.appendChild(ring);
  }
  fig.appendChild(frame);
  if (die) {
    const c = el("canvas", "snap-crop");
    c.width = c.height = 128;
    c.title = "the die, enlarged";
    img.addEventListener("load", () => {
      const side = Math.min(3 * die.r, img.naturalWidth, img.naturalHeight);
      const x0 = Math.max(0, Math.min(img.naturalWidth - side, die.x - side / 2));
      const y0 = Math.max(0, Math.min(img.naturalHeight - side, die.y - side / 2));
      const g = c.getContext("2d");
      g.imageSmoothingEnabled = false;
      g.drawImage(img, x0, y0, side, side, 0, 0, c.width, c.height);
    });
    fig.appendChild(c);
  }
  const cap = el("figcaption");
  cap.appendChild(el("b", null, "Snapshot " + s.index));
  if (s.t_ms !== null && s.t_ms !== undefined) cap.appendChild(document.createTextNode(", " + (s.t_ms / 1000).toFixed(2) + " s into the throw"));
  cap.appendChild(el("br"));
  cap.appendChild(el("span", "snap-face", s.face ? "Face read: " + s.face + " (confidence " + Number(s.confidence).toFixed(2) + ")"
    : "Face not read from this picture"));
  if (die) {
    cap.appendChild(el("br"));
    cap.appendChild(el("span", "snap-label", labelText(s.label)));
  }
  fig.appendChild(cap);
  if (die && CSRF !== null) fig.appendChild(facePicker(d, s));
  return fig;
}

// The official's word on the die (a face label: the camera learns from it).
function labelText(l) {
  if (!l) return "Not checked by an official yet";
  return (l.confirmed ? "Checked: " + l.face + ", as the camera read it" :
    "Checked: " + l.face + (l.read_face ? " (the camera read " + l.read_face + ")" : "")) +
    ", " + auditText(l);
}

// Logged in: "Yes, it's a 5" confirms the face read; 1-6 sets the face on
// top. Either is stored as the official's label, then the page shows it.
function facePicker(d, s) {
  const box = el("div", "face-pick");
  box.appendChild(el("div", "face-q", "Which face is on top of the die?"));
  const send = async (body, what) => {
    const m = $("face-msg-" + s.id);
    const r = await fetch("/console/api/command", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
      body: JSON.stringify(Object.assign({ cmd: "face", match: d.match, throw: d.throw, snapshot: s.id }, body)) }).catch(() => null);
    const j = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) {
      m.textContent = r ? (r.status === 403 ? "You are logged out: log in on the console again." : j.error || "the daemon answered " + r.status)
        : "The daemon cannot be reached.";
      m.className = "msg bad";
      return;
    }
    const again = await fetch("/api/matches/" + d.match + "/throws/" + d.throw).catch(() => null);
    if (again && again.ok) renderSnapshots(await again.json());
    const m2 = $("face-msg-" + s.id);
    if (m2) { m2.textContent = "Saved: " + what + ". Thank you: the camera learns from it."; m2.className = "msg ok"; }
  };
  if (s.face) {
    const yes = el("button", "face-yes primary", "Yes, it’s a " + s.face);
    yes.addEventListener("click", () => send({ confirm: true }, "a " + s.face));
    box.appendChild(yes);
  }
  box.appendChild(el("div", "face-q", s.face ? "No, it shows:" : "It shows:"));
  const row = el("div", "face-row");
  for (let f = 1; f <= 6; f++) {
    const b = el("button", "face-btn" + (s.label && s.label.face === f ? " on" : ""), String(f));
    b.setAttribute("aria-label", "face " + f);
    b.addEventListener("click", () => send({ face: f }, "a " + f));
    row.appendChild(b);
  }
  box.appendChild(row);
  const m = el("div", "msg");
  m.id = "face-msg-" + s.id;
  box.appendChild(m);
  return box;
}

// The session's CSRF token once an official is logged in on this browser, else null.
let CSRF = null;
function renderSnapshots(d) {
  const sn = $("snapshots"); clear(sn);
  // An older daemon counts its snapshots; this one lists them (contract 10).
  const snaps = typeof d.snapshots === "number" ? Array.from({ length: d.snapshots }, (_, i) => ({ index: i + 1 })) : d.snapshots || [];
  if (!snaps.length) sn.textContent = "no snapshot of this throw (the camera keeps a picture of a die it sees land or come to rest)";
  for (const s of snaps) sn.appendChild(renderSnapshot(d, s));
}

function timelineRow(cells) {
  const tr = el("tr");
  ["ms", "source", "what", "confidence", "detail"].forEach((k, i) => {
    const td = el("td", "tl-" + k, cells[i]);
    tr.appendChild(td);
  });
  return tr;
}
function renderTimeline(d) {
  const tb = $("timeline"); clear(tb);
  for (const o of d.observations || []) {
    let detail = "";
    if (o.arrivals) detail = "piezo arrivals: " + o.arrivals.map((a) => "#" + a.sensor + " " + a.t_ms.toFixed(2) + " ms").join(", ");
    if (o.sigma_m) detail += (detail ? "; " : "") + "\u00b1" + cm(o.sigma_m);
    if (o.snapshot) detail += (detail ? "; " : "") + "snapshot " + o.snapshot;
    if (o.apex_m) detail += (detail ? "; " : "") + "apex " + o.apex_m.toFixed(2) + " m";
    if (o.until_ms !== undefined) detail += (detail ? "; " : "") + "a hit shook the table: no landing heard until " + o.until_ms.toFixed(1) + " ms";
    const tr = timelineRow([o.t_ms.toFixed(1), o.source, o.kind === "event" ? describe(o.event) : o.kind.replace(/_/g, " "),
      o.confidence.toFixed(2), detail]);
    tr.dataset.source = o.source;
    tb.appendChild(tr);
  }
  // Entered by hand: no sensor record, the console's events as entered.
  if (!d.observations || !d.observations.length) {
    for (const e of (d.observed && d.observed.events) || []) {
      const tr = timelineRow(["", e.source || "console", describe(e),
        e.confidence !== undefined ? Number(e.confidence).toFixed(2) : "\u2014", "entered by an official"]);
      tr.dataset.source = e.source || "console";
      tb.appendChild(tr);
    }
    if (!tb.firstChild) tb.appendChild(timelineRow(["", "", "no observations recorded", "", ""]));
  }
}

function renderCorrections(d) {
  const c = $("corrections"); clear(c);
  if (!d.corrections.length) c.textContent = "none";
  d.corrections.forEach((x, i) => {
    const div = el("div", "correction");
    div.appendChild(el("b", null, (x.undo ? "Undo " : "Correction ") + (i + 1) + (x.audit ? " " + auditText(x.audit) : "") + ": "));
    div.appendChild(document.createTextNode((x.events || []).map(describe).join(", ") || "(no events)"));
    c.appendChild(div);
  });
  $("undo").textContent = d.undo ? "Undone " + auditText(d.undo) : "";
  const ul = $("confirmations"); clear(ul);
  for (const a of d.confirmations || []) ul.appendChild(el("li", null, "Confirmed " + auditText(a)));
}

// The match's house rules: each with the rule book's text and default when
// the daemon lists them (/api/house), differing ones marked.
async function renderHouse(d, state) {
  const house = d.house || (state && state.match === d.match ? state.house : null);
  const ul = $("house"); clear(ul);
  if (!house) { ul.appendChild(el("li", null, "not known for this match")); return; }
  let book = {};
  try {
    const r = await fetch("/api/house");
    if (r.ok) for (const x of (await r.json()).rules || []) book[x.key] = x;
  } catch (e) { book = {}; }
  for (const k of Object.keys(house)) {
    // The rule book's value ("book"), else the daemon's default.
    const b = book[k], v = house[k], ref = b && (b.book !== undefined ? b.book : b.default);
    const differs = ref !== undefined && JSON.stringify(ref) !== JSON.stringify(v);
    const li = el("li", differs ? "differs" : null);
    li.appendChild(el("b", null, (b && b.text ? b.text : k.replace(/_/g, " ")) + ": "));
    li.appendChild(document.createTextNode(String(v) + (differs ? " (the book: " + ref + ")" : "")));
    ul.appendChild(li);
  }
}

function render(d) {
  PLAYERS = d.players;
  $("title").textContent = "Match " + d.match + ", throw " + d.throw;
  $("ruling").textContent = rulingWords(d.ruling, d.team_names) + (d.ruling && d.ruling.corrected ? " (corrected)" : "");
  const rules = $("rules"); clear(rules);
  for (const r of (d.ruling && d.ruling.rules) || []) {
    const li = el("li"); li.appendChild(el("b", null, r.id + " ")); li.appendChild(document.createTextNode(r.text)); rules.appendChild(li);
  }
  for (const x of (d.ruling && d.ruling.duties) || []) rules.appendChild(el("li", "duty", dutyText(x, d.team_names)));
  $("review").textContent = d.review_why ? "Doubtful: " + d.review_why + (d.confirmed ? " - confirmed by an official" : "") :
    (d.confirmed ? "Confirmed by an official" : "");
  const lands = landings(d);
  drawTable(d, lands);
  renderLandings(lands);
  renderTimeline(d);
  $("judged").textContent = (d.judged.events || []).map((e) => describe(e) + (e.source ? "  [" + e.source + (e.confidence !== undefined ? " " + e.confidence : "") + "]" : "")).join("\n");
  renderSnapshots(d);
  renderCorrections(d);
}

// Logged in: "Show on wall" puts this throw on the scoreboard as a
// challenge replay (the daemon takes it off after its time); the answer
// goes to the message line.
function wallButtons(csrf, match, n) {
  const say = (text, ok) => { const m = $("msg"); m.textContent = text; m.classList.toggle("ok", ok); m.classList.toggle("bad", !ok); };
  const send = async (body, done) => {
    const r = await fetch("/console/api/command", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" },
      body: JSON.stringify(body) }).catch(() => null);
    const j = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok) say(done, true);
    else say(r ? (r.status === 403 ? "You are logged out: log in on the console again." : j.error || "the daemon answered " + r.status)
      : "The daemon cannot be reached.", false);
  };
  $("show-wall").addEventListener("click", () => send({ cmd: "show_on_wall", match, throw: n }, "Throw " + n + " is on the wall."));
  $("dismiss-wall").addEventListener("click", () => send({ cmd: "dismiss_wall" }, "The wall shows the score again."));
  $("show-wall").classList.remove("hidden");
  $("dismiss-wall").classList.remove("hidden");
}

async function main() {
  const n = parseInt(location.pathname.split("/").pop(), 10);
  const q = new URLSearchParams(location.search);
  let match = q.get("match"), state = null;
  try { state = await (await fetch("/api/state")).json(); } catch (e) { state = null; }
  if (!match && state) match = state.match;
  $("prev").href = "/replay/" + Math.max(1, n - 1) + (q.get("match") ? "?match=" + match : "");
  $("next").href = "/replay/" + (n + 1) + (q.get("match") ? "?match=" + match : "");
  if (!match) { $("msg").textContent = "No match under way (add ?match=N)"; return; }
  $("rules-link").href = $("house-rules").href = "/rules?match=" + encodeURIComponent(match);
  const r = await fetch("/api/matches/" + match + "/throws/" + n);
  if (!r.ok) { $("msg").textContent = "Throw " + n + " of match " + match + " not found"; return; }
  const d = await r.json();
  render(d);
  // An official logged in on this browser may correct it from the console.
  const sess = await fetch("/console/session").catch(() => null);
  if (sess && sess.ok) {
    const c = $("correct");
    c.href = "/console?match=" + encodeURIComponent(match) + "&throw=" + n;
    c.classList.remove("hidden");
    CSRF = (await sess.json().catch(() => ({}))).csrf || "";
    wallButtons(CSRF, Number(match), n);
    renderSnapshots(d);
  }
  await renderHouse(d, state);
  document.body.dataset.ready = "1";
}
main();
