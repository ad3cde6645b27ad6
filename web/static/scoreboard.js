"use strict";
// The wall screen: state arrives over server-sent events after each ruling.
// A dice game's score sheet (rows of boxes, a column per player), read from
// 5 m: drawn at the largest type that fits the screen, either as one table
// or with its rows in two tables side by side (Yatzy's 18 rows read far
// better in two blocks of 9), whichever gives the bigger type.
let sheetShown = null, sheetData = null;
function sheetTable(players, rows) {
  const t = el("table", "sheet-table");
  const head = el("tr"); head.appendChild(el("th", null, ""));
  for (const p of players) head.appendChild(el("th", "player", p));
  t.appendChild(head);
  for (const row of rows) {
    const tr = el("tr"); tr.appendChild(el("th", null, row.name.replace(/_/g, " ")));
    for (const c of row.cells) tr.appendChild(el("td", null, c === null ? "" : String(c)));
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
// lists. Not below a fifth of the default (a 0.8vh duty): past that no
// screen reads it anyway.
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
    $("sheet-title").textContent = dm.game + " (match " + dm.match + ")" +
      (sh.over && sh.winner ? ": " + sh.winner + " wins" : "") + (sh.over && sh.loser ? ": " + sh.loser + " buys" : "") +
      (!sh.over && sh.turn ? ": " + sh.turn + " to roll" : "");
    sheetData = sh;
    layoutSheet();
  }).catch(() => {});
}
function render(state) {
  document.body.dataset.ready = "1";
  window.dispatchEvent(new CustomEvent("dyeref-state", { detail: state }));
  renderSheet(state.dice_match || null);
  if (state.health) for (const k of ["sensors", "camera", "store"]) {
    const h = state.health[k]; const e = $("h-" + k);
    // Messages from a device often name it already ("camera: no camera found").
    e.textContent = h.text.startsWith(k + ":") ? h.text : k + ": " + h.text;
    e.classList.toggle("bad", !h.ok);
  }
  if (state.match === null || state.match === undefined || state.dice_match) {
    $("next").textContent = state.dice_match ? "" : "No match under way";
    $("last").textContent = "";
    clear($("rules")); clear($("duties"));
    $("review").classList.add("hidden");
    fitStatus();
    return;
  }
  for (const t of ["A", "B"]) {
    $("name-" + t).textContent = teamName(state.team_names, t, true);
    $("players-" + t).textContent = state.players[t].join(" & ");
    $("score-" + t).textContent = state.score[t];
    $("team-" + t).classList.toggle("winner", state.over && state.winner === t);
    $("team-" + t).classList.toggle("throwing", !!state.next && state.next.team === t);
  }
  if (state.over) $("next").textContent = teamName(state.team_names, state.winner, true) + " win!";
  else if (state.next) $("next").textContent = state.next.player + " to throw" + (state.in_flight ? " - in the air" : "");
  $("last").textContent = rulingWords(state.last, state.team_names);
  const rules = $("rules"); clear(rules);
  if (state.last && state.last.rules)
    for (const r of state.last.rules) {
      const li = el("li");
      li.appendChild(el("b", null, r.id + " "));
      li.appendChild(document.createTextNode(r.text));
      rules.appendChild(li);
    }
  const duties = $("duties"); clear(duties);
  // The last throw's duties, then the match's final ones, less those the
  // official marked done (H-wall lists every open duty instead).
  const open = (state.duties || []).filter((d) => !d.done);
  for (const d of open) if (d.throw && d.throw === state.throws) duties.appendChild(el("li", "duty", dutyText(d, state.team_names)));
  if (state.over) for (const d of open) if (!d.throw) duties.appendChild(el("li", "duty", dutyText(d, state.team_names)));
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
function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("state", (e) => render(JSON.parse(e.data)));
  es.onopen = () => { $("h-live").textContent = "live"; $("h-live").classList.remove("bad"); };
  es.onerror = () => { $("h-live").textContent = "reconnecting"; $("h-live").classList.add("bad"); };
}
fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
connect();
