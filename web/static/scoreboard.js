"use strict";
// The wall screen: state arrives over server-sent events after each ruling.
// A dice game's score sheet (rows of boxes, a column per player), read from
// 5 m: drawn at the largest type that fits the screen, either as one table
// or with its rows in two tables side by side (Yatzy's 18 rows read far
// better in two blocks of 9), whichever gives the bigger type.
let sheetShown = null, sheetData = null, sheetTurn = null;
function sheetTable(players, rows) {
  const t = el("table", "sheet-table");
  const head = el("tr"); head.appendChild(el("th", null, ""));
  for (const p of players) head.appendChild(el("th", "player" + (p === sheetTurn ? " turn" : ""), p));
  t.appendChild(head);
  for (const row of rows) {
    const tr = el("tr"); tr.appendChild(el("th", null, row.name.replace(/_/g, " ")));
    row.cells.forEach((c, i) => tr.appendChild(el("td", players[i] === sheetTurn ? "turn" : null, c === null ? "" : String(c))));
    t.appendChild(tr);
  }
  return t;
}
// Where a two-block sheet breaks: after Yatzy's bonus row, else halfway.
function sheetSplit(rows) {
  const b = rows.findIndex((r) => r.name === "bonus");
  return b > 0 && b < rows.length - 1 ? b + 1 : Math.ceil(rows.length / 2);
}
// Font size (px) at which `content` fits inside `box`; content's own sizes
// are all in em, so it scales with the font but for its 1 px borders.
function fitFont(box, content) {
  const w = box.clientWidth, h = box.clientHeight;
  let size = 40;
  for (let i = 0; i < 4; i++) {
    content.style.fontSize = size + "px";
    const k = Math.min(w / content.offsetWidth, h / content.offsetHeight);
    size = Math.max(6, Math.min(size * k, h / 2));
  }
  content.style.fontSize = size + "px";
  while (size > 6 && (content.offsetWidth > w || content.offsetHeight > h)) {
    size *= 0.97;
    content.style.fontSize = size + "px";
  }
  return size;
}
function layoutSheet() {
  const sh = sheetData, body = $("sheet-body");
  if (!sh || $("sheet").classList.contains("hidden")) return;
  const content = $("sheet-tables");
  let best = null;
  for (const blocks of sh.rows.length > 6 ? [1, 2] : [1]) {
    clear(content);
    const cut = blocks === 1 ? sh.rows.length : sheetSplit(sh.rows);
    content.appendChild(sheetTable(sh.players, sh.rows.slice(0, cut)));
    if (cut < sh.rows.length) content.appendChild(sheetTable(sh.players, sh.rows.slice(cut)));
    const size = fitFont(body, content);
    if (!best || size > best.size) best = { blocks, size };
  }
  if (best.blocks !== content.children.length) {
    clear(content);
    const cut = best.blocks === 1 ? sh.rows.length : sheetSplit(sh.rows);
    content.appendChild(sheetTable(sh.players, sh.rows.slice(0, cut)));
    if (cut < sh.rows.length) content.appendChild(sheetTable(sh.players, sh.rows.slice(cut)));
    fitFont(body, content);
  }
  document.body.dataset.sheetBlocks = String(best.blocks);
}
// The status's type (everything in it is in em, 1vh by default) shrinks
// until the health strip below it is on screen: the score digits give way
// first (app.css), then this, so every duty stays in view however long the
// lists. Not below a fifth of the default.
function fitStatus() {
  const st = $("status"), foot = $("health");
  const full = innerHeight / 100;
  let size = full;
  st.style.fontSize = "";
  while (size > full / 5 && foot.getBoundingClientRect().bottom > innerHeight + 0.5) {
    size *= 0.95;
    st.style.fontSize = size + "px";
  }
}
window.addEventListener("resize", () => { layoutSheet(); fitStatus(); });
function renderSheet(dm) {
  const box = $("sheet");
  if (!dm) { box.classList.add("hidden"); $("score-area").classList.remove("hidden"); sheetShown = null; return; }
  $("score-area").classList.add("hidden");
  box.classList.remove("hidden");
  // The state carries the sheet (redrawn on each turn's push); older
  // daemons only named the match: fetch it then.
  const key = dm.match + ":" + (dm.sheet ? JSON.stringify(dm.sheet) : "");
  if (sheetShown === key) return;
  sheetShown = key;
  const got = dm.sheet ? Promise.resolve(dm.sheet) : fetch("/api/matches/" + dm.match + "/sheet").then((r) => r.json());
  got.then((sh) => {
    // Who won (Horse: who lost and buys) is the title, large; else whose roll.
    $("sheet-title").textContent = sh.over && sh.winner ? sh.winner + " wins " + dm.game + "!"
      : sh.over && sh.loser ? sh.loser + " loses " + dm.game + " and buys!"
      : dm.game + " (match " + dm.match + ")" + (sh.turn ? ": " + sh.turn + " to roll" : "");
    $("sheet-title").classList.toggle("over", !!sh.over);
    $("sheet-last").textContent = sh.last && sh.last.text ? "Last: " + sh.last.text : "";
    sheetTurn = sh.over ? null : sh.turn || null;
    sheetData = sh;
    layoutSheet();
  }).catch(() => {});
}
// BD-W1 with the house rules: a team is at game point when one more point
// wins it (target reached with the lead the house asks for); the match is
// the one game, so it is match point too.
function pointFor(state) {
  const h = state.house || {}, target = h.target_points || 10, by = h.win_by || 2;
  const at = [];
  for (const [t, o] of [["A", "B"], ["B", "A"]]) {
    const s = state.score[t] + 1;
    if (s >= target && s - state.score[o] >= by) at.push(t);
  }
  return at;
}
function targetWords(h) {
  if (!h) return "";
  let s = "to " + (h.target_points || 10) + ", win by " + (h.win_by || 2);
  if (h.fifa_cannot_end_game) s += ", FIFA can't win";
  if (h.popout_is_sink) s += ", in-and-out is a sink";
  return s;
}
// An official's change, announced as what it is.
function eventAnnounce(ev, state) {
  if (!ev) return "";
  const now = "now " + ev.score.A + "-" + ev.score.B;
  const by = ev.official ? " by " + ev.official : " by the official";
  const pre = ev.review ? "Review of throw " + ev.throw + ": " : "Throw " + ev.throw + " ";
  if (ev.kind === "correct")
    return pre + "corrected" + by + ": " + now + (ev.before ? " (was " + ev.before.A + "-" + ev.before.B + ")" : "");
  if (ev.kind === "undo") return "Throw " + ev.throw + " taken back" + by + ": " + now;
  if (ev.kind === "confirm") return pre + (ev.review ? "" : "") + "confirmed" + by + ": stays " + ev.score.A + "-" + ev.score.B;
  return "";
}
function setColors(colors) {
  const c = colors || { A: "orange", B: "blue" };
  for (const t of ["A", "B"]) {
    document.body.style.setProperty("--c" + t.toLowerCase(), PALETTE[c[t]] || PALETTE[t === "A" ? "orange" : "blue"]);
    document.body.dataset["color" + t] = c[t];
  }
}
// Open duties, one line a player or team, newest first ("Cy: kill n'
// fill x3, follow your partner"): a match's duties pile up until marked
// done, and one line each would push the score off the wall.
function dutyLines(list, names) {
  const by = new Map();
  for (const d of list) {
    const who = d.player || teamName(names, d.team);
    if (!by.has(who)) by.set(who, new Map());
    const m = by.get(who);
    m.set(d.duty, (m.get(d.duty) || 0) + 1);
  }
  return [...by].map(([who, m]) => who + ": " +
    [...m].map(([k, n]) => (DUTY_WORDS[k] || k) + (n > 1 ? " \u00d7" + n : "")).join(", "));
}
// The win screen stays until the next match starts: an ended match's
// state (match null) keeps it up.
let won = null;
function renderWin(state) {
  const w = $("win");
  // A dice game's win is on its sheet (renderSheet): its state's "over"
  // and "winner" (a player) are not a Beer Die team's.
  if (state.dice_match) won = null;
  else if (state.match !== null && state.match !== undefined && !state.over) won = null;
  else if (state.over) won = state;
  // Loaded between matches: the last one's win, until the next starts.
  else if (!won && state.previous && state.previous.winner) won = state.previous;
  if (!won) { w.classList.add("hidden"); return; }
  setColors(won.colors);
  $("win-text").textContent = teamName(won.team_names, won.winner, true) + " win!";
  $("win-text").style.color = "var(--c" + won.winner.toLowerCase() + ")";
  $("win-score").textContent = won.score.A + " - " + won.score.B;
  const ul = $("win-duties"); clear(ul);
  for (const t of dutyLines((won.duties || []).filter((d) => !d.throw || d.done === false), won.team_names))
    ul.appendChild(el("li", "duty", t));
  w.classList.remove("hidden");
}
function renderStrip(state) {
  const ol = $("strip"); clear(ol);
  for (const h of (state.history || []).slice(-8)) {
    const li = el("li");
    const team = state.players.A.includes(h.thrower) ? "a" : "b";
    li.appendChild(el("span", "no", String(h.throw)));
    li.appendChild(el("span", "who t" + team, h.thrower));
    const pts = h.undone ? "taken back" : h.retoss ? "re-toss" :
      ["A", "B"].filter((t) => h.points[t]).map((t) => "+" + h.points[t] + " " + teamName(state.team_names, t, true)).join(" ") || "no point";
    li.appendChild(el("span", "pts", pts));
    if (h.corrected && !h.undone) li.appendChild(el("span", "mark", "corrected"));
    ol.appendChild(li);
  }
}
function render(state) {
  document.body.dataset.ready = "1";
  heard();
  window.dispatchEvent(new CustomEvent("dyeref-state", { detail: state }));
  renderSheet(state.dice_match || null);
  renderWin(state);
  if (state.health) for (const k of ["sensors", "camera", "store"]) {
    const h = state.health[k]; const e = $("h-" + k);
    // Messages from a device often name it already ("camera: no camera found").
    const name = k === "store" ? "log" : k;
    e.textContent = h.text.startsWith(k + ":") ? h.text : name + ": " + h.text;
    e.title = e.textContent;	/* whole, where the strip cuts it short */
    e.classList.toggle("bad", !h.ok);
    e.classList.toggle("ok", !!h.ok);
  }
  // A bar with several tables: each wall says which one it is ([table] name).
  const table = state.table && state.table.name ? state.table.name : "";
  document.title = table ? table + " - dyeref scoreboard" : "dyeref scoreboard";
  if (state.match === null || state.match === undefined || state.dice_match) {
    $("next").textContent = state.dice_match ? "" : "No match under way";
    $("next").style.color = "";
    $("last").textContent = ""; $("target").textContent = state.dice_match ? "" : table; $("point").textContent = "";
    clear($("rules")); clear($("duties")); clear($("strip"));
    $("review").classList.add("hidden"); $("announce").classList.add("hidden");
    fitStatus();
    return;
  }
  setColors(state.colors);
  const throwing = !state.over && state.next ? state.next.team : null;
  for (const t of ["A", "B"]) {
    $("name-" + t).textContent = teamName(state.team_names, t, true);
    $("players-" + t).textContent = state.players[t].join(" & ");
    $("score-" + t).textContent = state.score[t];
    $("team-" + t).classList.toggle("winner", state.over && state.winner === t);
    $("team-" + t).classList.toggle("throwing", throwing === t);
  }
  const nx = $("next");
  if (state.over) { nx.textContent = teamName(state.team_names, state.winner, true) + " win!"; nx.style.color = "var(--c" + state.winner.toLowerCase() + ")"; }
  else if (state.next) {
    clear(nx);
    nx.appendChild(el("span", "thrower", state.next.player));
    nx.appendChild(document.createTextNode(" to throw" + (state.in_flight ? ": in the air" : "")));
    nx.style.color = "var(--c" + state.next.team.toLowerCase() + ")";
  }
  $("target").textContent = (table ? table + " - " : "") + "Match " + state.match + ": " + targetWords(state.house);
  const gp = state.over ? [] : pointFor(state);
  $("point").textContent = gp.map((t) => "Match point: " + teamName(state.team_names, t, true)).join(" - ");
  $("last").textContent = state.last ? "Throw " + state.last.throw + " by " + state.last.thrower + ": " + throwWords(state.last, state.team_names) : "";
  // The rules that decided, by ID only, small; none for a throw taken back.
  $("rules").textContent = state.last && !state.last.undone && state.last.rules ? state.last.rules.map((r) => r.id).join(" ") : "";
  renderStrip(state);
  const duties = $("duties"); clear(duties);
  // Every duty not marked done (the daemon's "done"; older states have
  // none: then the last throw's and the final ones).
  const open = (state.duties || []).filter((d) => d.done === false);
  const list = open.length || (state.duties || []).some((d) => "done" in d) ? open
    : [...((state.last && state.last.duties) || []), ...(state.over ? (state.duties || []).filter((d) => !d.throw) : [])];
  for (const t of dutyLines(list, state.team_names)) duties.appendChild(el("li", "duty", t));
  const an = $("announce"), words = eventAnnounce(state.event, state);
  an.textContent = words;
  an.classList.toggle("hidden", !words);
  an.dataset.kind = state.event ? state.event.kind : "";
  const rv = $("review");
  if (state.review) {
    rv.textContent = "UNDER REVIEW: throw " + state.review.throw + " - " + state.review.why +
      (state.review.counted ? " (counted, may be corrected)" : " (waiting for the official)") +
      (state.review.awaiting > 1 ? ", " + (state.review.awaiting - 1) + " more after it" : "");
    rv.classList.remove("hidden");
  } else rv.classList.add("hidden");
  if (state.throws > 0) $("replay-link").href = "/replay/" + state.throws;
  fitStatus();
}
// Offline: a stream error, or 5 s without a state or the daemon's ping
// (every 2 s), dims the board and says since when; the health items are
// then unknown, not green.
let lastHeard = Date.now(), streamDown = false;
function heard() {
  lastHeard = Date.now();
  if (document.body.classList.contains("offline")) {
    document.body.classList.remove("offline");
    $("offline").classList.add("hidden");
  }
  $("h-live").textContent = "live"; $("h-live").classList.remove("bad"); $("h-live").classList.add("ok");
}
function checkOnline() {
  if (!streamDown && Date.now() - lastHeard < 5000) return;
  if (document.body.classList.contains("offline")) return;
  const t = new Date(lastHeard);
  const hm = String(t.getHours()).padStart(2, "0") + ":" + String(t.getMinutes()).padStart(2, "0");
  document.body.classList.add("offline");
  $("offline").textContent = "Scoreboard offline since " + hm;
  $("offline").classList.remove("hidden");
  $("h-live").textContent = "offline"; $("h-live").classList.add("bad"); $("h-live").classList.remove("ok");
  for (const k of ["sensors", "camera", "store"]) {
    const e = $("h-" + k);
    e.classList.remove("ok", "bad");
    e.textContent = (k === "store" ? "log" : k) + ": ?";
  }
}
setInterval(checkOnline, 500);
fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
openEvents({
  state: (e) => { streamDown = false; render(JSON.parse(e.data)); },
  ping: () => { streamDown = false; heard(); },
  onopen: () => { streamDown = false; },
  onerror: () => { streamDown = true; checkOnline(); },
});

// The strip's links appear while a mouse moves, for 10 s after it stops.
let pointerTimer = 0;
document.addEventListener("mousemove", () => {
  document.body.classList.add("pointer");
  clearTimeout(pointerTimer);
  pointerTimer = setTimeout(() => document.body.classList.remove("pointer"), 10000);
});
