"use strict";
// The official's console: every change needs the session cookie (set by the
// login) and the CSRF token the login returned, in X-CSRF-Token. Each
// action's answer goes to the message line under the control that caused
// it (MSGS), in words, and stays there until the next action.
let csrf = null, state = null;
const MSGS = ["msg", "login-msg", "review-msg", "correct-msg", "json-msg", "throws-msg", "duties-msg", "tp-msg", "undo-msg",
  "calls-msg", "dturn-msg", "dundo-msg", "dmove-msg", "dstart-msg", "house-msg", "start-msg"];
// The review box stays up with its answer after a confirm, though the
// review is over: the official must see what the tap did.
let reviewHeld = false;
function clearMsgs() { for (const id of MSGS) { const m = $(id); clear(m); m.classList.remove("ok", "bad"); } reviewHeld = false; }
function say(where, text, ok) {
  const m = $(where);
  clear(m);
  m.textContent = text;
  m.classList.toggle("ok", ok === true);
  m.classList.toggle("bad", ok === false);
  const r = m.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) m.scrollIntoView({ block: "nearest" });
  return m;
}
// The daemon's "field: why" as it is (it names the field), without the
// HTTP code; a lost session in words.
function errorWords(status, j) {
  if (status === 403) return "You are logged out (the session ended): log in again.";
  return (j && j.error) || ("the daemon answered " + status);
}
// One console command. Returns { ok, status, j }; an error is said at
// `where` unless `quiet`.
async function send(body, where, quiet) {
  let r, j = {};
  try {
    r = await fetch("/console/api/command", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    j = await r.json().catch(() => ({}));
  } catch (e) { say(where, "The daemon cannot be reached: " + e.message, false); return { ok: false, status: 0, j }; }
  if (!r.ok && !quiet) say(where, errorWords(r.status, j), false);
  if (r.status === 403) showLogin();
  return { ok: r.ok, status: r.status, j };
}
// As send, after clearing every earlier answer: a new action.
async function post(body, where = "msg") { clearMsgs(); const a = await send(body, where); return a.ok ? a.j : null; }
function score(sc) { return sc ? sc.A + "-" + sc.B : ""; }
// "now 1 to Orange, 3-1" from a Beer Die command's result.
function resultWords(res) {
  if (!res || !res.ruling) return res && res.score ? "score " + score(res.score) : "";
  return "now " + pointsWords(res.ruling, res.team_names || (state && state.team_names)) +
    (res.score ? ", " + score(res.score) : "");
}

function showLogin() {
  $("login").classList.remove("hidden"); $("desk").classList.add("hidden");
  $("who").classList.add("hidden"); $("logout").classList.add("hidden");
}
function showDesk(official) {
  $("login").classList.add("hidden"); $("desk").classList.remove("hidden");
  $("who").textContent = official ? "Official: " + official : "Logged in";
  $("who").classList.remove("hidden"); $("logout").classList.remove("hidden");
  loadStatus(); loadHouse();
  listSeen = "";
  if (state) render(state);
  openAsked();
}
// /console?match=N&throw=K (the replay's link) opens that throw once the
// desk and the daemon's state are both there.
let askedOpen = (() => {
  const q = new URLSearchParams(location.search);
  const t = parseInt(q.get("throw"), 10), m = parseInt(q.get("match"), 10);
  return t > 0 ? { t, m: m > 0 ? m : null } : null;
})();
function openAsked() {
  if (!askedOpen || !state || $("desk").classList.contains("hidden")) return;
  const a = askedOpen; askedOpen = null;
  openThrow(a.t, a.m);
}
// The health items whole, with the paths and remedies (the chip, the
// camera's id, the event log's file): the console's alone, as the wall's
// strip is public and says only what is wrong. Fetched again whenever a
// state's public health changes.
let healthSeen = "";
function showHealth(j) {
  for (const k of ["sensors", "camera"]) {
    const h = j[k], e = $(k + "-health");
    e.textContent = h.detail.startsWith(k + ":") ? h.detail : k + ": " + h.detail;
    e.classList.toggle("bad", !h.ok);
  }
  $("store").textContent = "Event log " + j.db_path + ": " + j.store.detail;
  $("store").classList.toggle("bad", !j.store.ok);
}
function loadStatus() {
  fetch("/console/api/status", { credentials: "same-origin" }).then((r) => r.ok ? r.json() : null)
    .then((j) => { if (j) showHealth(j); }).catch(() => {});
}

// ---- the state, as the daemon pushes it ----------------------------------
let listSeen = "";
function render(s) {
  state = s;
  openAsked();
  const seen = JSON.stringify(s.health || null);
  if (seen !== healthSeen) { healthSeen = seen; loadStatus(); }
  const by = $("by"), keep = by.value; clear(by);
  SEATS.forEach((seat) => {
    const o = el("option", null, s.players ? seatName(s.players, seat) + " (" + seat + ")" : seat); o.value = seat; by.appendChild(o);
  });
  if (keep) by.value = keep;
  const live = s.match !== null && s.match !== undefined, dice = live && s.dice_match;
  $("dice-play").classList.toggle("hidden", !dice);
  $("throws-box").classList.toggle("hidden", !live || !!dice);
  $("calls").classList.toggle("hidden", !live || !!dice);
  if (s.match === null || s.match === undefined) {
    $("summary").textContent = "No match under way.";
    showReview(null);
    return;
  }
  if (dice) {
    const sh = s.dice_match.sheet || {};
    $("summary").textContent = "Dice match " + s.match + " (" + s.game + ")" +
      (s.over ? ": game over, End to close it" : sh.turn ? ": " + sh.turn + " to roll" : "");
    showReview(null);
    renderDice(sh);
    return;
  }
  $("summary").textContent = "Match " + s.match + ": A " + s.score.A + " - " + s.score.B + " B, " +
    s.throws + " throws. " + (s.next ? s.next.player + " to throw. " : "") + rulingWords(s.last, s.team_names);
  showReview(s.review);
  renderDuties(s);
  const key = JSON.stringify([s.match, s.throws, s.score, s.last, s.review, s.history && s.history.length]);
  if (key !== listSeen && !$("desk").classList.contains("hidden")) { listSeen = key; loadThrows(); }
}

// ---- duties -------------------------------------------------------------------
// Every duty of the match, open ones first, each with its player and a
// thumb-sized Done; a done one says so, by whom, with Undo. The daemon's
// ids say which: a duty a correction took away is no longer listed.
function dutyWhere(d) { return d.throw ? "throw " + d.throw : "end of the match"; }
function renderDuties(s) {
  const box = $("duties"), list = (s && s.duties) || [];
  $("duties-box").classList.toggle("hidden", !list.length);
  clear(box);
  const open = list.filter((d) => !d.done), done = list.filter((d) => d.done);
  for (const d of open.concat(done)) {
    const li = el("li", "duty-item" + (d.done ? " done" : ""));
    li.dataset.duty = d.id;
    const what = el("span", "what");
    what.appendChild(el("span", "txt", dutyText(d, s.team_names)));
    what.appendChild(el("small", null, " " + dutyWhere(d) + (d.done ? ", done" + (d.done_by ? " (" + d.done_by + ")" : "") : "")));
    li.appendChild(what);
    const b = el("button", d.done ? "small undo-duty" : "primary done-duty", d.done ? "Undo" : "Done");
    b.addEventListener("click", async () => {
      clearMsgs();
      const a = await send({ cmd: "duty_done", duty: d.id, done: !d.done }, "duties-msg");
      if (a.ok) say("duties-msg", (d.player || teamName(s.team_names, d.team)) + ": " +
        (DUTY_WORDS[d.duty] || d.duty) + (d.done ? " is open again." : " done."), true);
    });
    li.appendChild(b);
    box.appendChild(li);
  }
}

// ---- the review box ---------------------------------------------------------
function showReview(rv) {
  const box = $("review-box");
  if (!rv) {
    if (!reviewHeld) box.classList.add("hidden");
    else $("review-text").textContent = $("review-text").textContent.replace(/ under review.*/, ": no longer under review");
    $("confirm").disabled = true;
    return;
  }
  $("confirm").disabled = false;
  box.classList.remove("hidden");
  $("review-text").textContent = "Throw " + rv.throw + " under review" +
    (rv.awaiting > 1 ? " (" + (rv.awaiting - 1) + " more after it)" : "");
  const r = rv.ruling || (throwsList && throwsList.find((t) => t.throw === rv.throw) || {}).ruling;
  $("review-ruling").textContent = r ? "Proposed: " + pointsWords(r, state.team_names) +
    (r.thrower ? " (thrown by " + r.thrower + ")" : "") : "Proposed ruling: not given by the daemon";
  $("review-why").textContent = "Why: " + rv.why;
  $("review-conf").textContent = "Confidence: " + (typeof rv.confidence === "number" ? rv.confidence.toFixed(2) : "not given");
  $("review-replay").href = "/replay/" + rv.throw + "?match=" + state.match;
  $("review-replay").classList.toggle("hidden", rv.counted === false || rv.counted === undefined && !rv.ruling);
  // A held ruling is no stored throw yet: nothing to show on the wall.
  $("review-wall").classList.toggle("hidden", rv.counted === false);
}

// ---- the match's throws --------------------------------------------------------
let throwsList = null;
async function loadThrows() {
  if (!state || !state.match || state.dice_match) return;
  const m = state.match;
  const r = await fetch("/api/matches/" + m + "/throws").catch(() => null);
  let j;
  if (r && r.ok) j = await r.json();
  else {
    // A daemon without the list: the state's own history of the match
    // (no undone or held marks there).
    j = { players: state.players, team_names: state.team_names,
      throws: (state.history || []).map((h) => ({ throw: h.throw, thrower_name: h.thrower, score: h.score,
        review: h.review, confirmed: h.confirmed, corrected: h.corrected,
        ruling: { throw: h.throw, thrower: h.thrower, points: h.points } })) };
  }
  if (!state || state.match !== m) return;
  throwsList = j.throws || [];
  const ol = $("throws"); clear(ol);
  if (!throwsList.length) ol.appendChild(el("li", "empty", "No throws yet."));
  for (const t of throwsList.slice().reverse()) {
    const li = el("li");
    const b = el("button", "throw-item");
    b.dataset.throw = t.throw;
    b.appendChild(el("span", "no", "#" + t.throw));
    b.appendChild(el("span", "who", t.thrower_name || seatName(j.players, t.thrower)));
    b.appendChild(el("span", "what", t.undone ? "undone" : pointsWords(t.ruling, j.team_names)));
    if (t.score) b.appendChild(el("span", "sc", score(t.score)));
    for (const [k, w] of [["review", t.confirmed ? null : "review"], ["confirmed", "confirmed"], ["corrected", "corrected"], ["undone", "undone"], ["held", "held"]])
      if (t[k] && w) b.appendChild(el("span", "badge " + k, w));
    b.addEventListener("click", () => { clearMsgs(); openThrow(t.throw); });
    li.appendChild(b); ol.appendChild(li);
  }
  if (state.review) showReview(state.review);
}

// ---- one throw, opened: its ruling, evidence and the thumb form ------------
// form: what the thumb form says; built from the throw's judged events and
// turned back into events at Save (formEvents).
let opened = null, form = null;
function blankForm(n) {
  return { n, thrower: null, thrower0: null, landings: [], end: "floor", catchBy: null, hands: 1, trapped: false, over: false,
    sinkCup: null, face: null, dyeUp: true, low: false, lowBy: null, kick: false, kickBy: null, part: "foot", cannot: [] };
}
function formFrom(d) {
  const f = blankForm(d.throw), p = d.players;
  const judged = d.judged || {};
  // The thrower as judged (the throwing order's, BD-T3, unless one was
  // given); sent only when the official changes it.
  f.thrower = f.thrower0 = seatOf(p, judged.thrower || (d.ruling && d.ruling.thrower));
  f.dyeUp = judged.dye_up !== false;
  let ended = false;
  f.end = "none";
  for (const e of judged.events || []) {
    if (ended && e.at !== "low_call") f.cannot.push(eventWords(e, p) + " after the end");
    switch (e.at) {
    case "low_call": f.low = true; f.lowBy = seatOf(p, e.by); break;
    case "kick": f.kick = true; f.kickBy = seatOf(p, e.by); f.part = e.part === "thigh" ? "thigh" : "foot"; break;
    case "table": f.landings.push(e.x !== undefined ? { at: "table", half: e.half, x: e.x, y: e.y } : { at: "table", half: e.half }); break;
    case "mine": f.landings.push({ at: "mine" }); break;
    case "cup":
      if (e.sink) { f.end = "sink"; f.sinkCup = seatOf(p, e.owner); ended = true; }
      else { f.landings.push(e.popout ? { at: "cup", owner: seatOf(p, e.owner), popout: true } : { at: "cup", owner: seatOf(p, e.owner) }); }
      break;
    case "catch":
      f.end = "catch"; f.catchBy = seatOf(p, e.by); f.hands = e.hands === 2 ? 2 : 1;
      f.trapped = !!e.trapped; f.over = !!e.over_table; ended = true; break;
    case "floor": f.end = "floor"; ended = true; break;
    case "rest": f.end = "rest"; f.face = e.face; ended = true; break;
    default: f.cannot.push(eventWords(e, p));
    }
  }
  return f;
}
function formEvents(f) {
  const ev = [];
  if (f.low) ev.push(f.lowBy ? { at: "low_call", by: f.lowBy } : { at: "low_call" });
  if (f.kick) ev.push({ at: "kick", by: f.kickBy, part: f.part });
  for (const l of f.landings) ev.push(l);
  if (f.end === "floor") ev.push({ at: "floor" });
  else if (f.end === "catch") {
    const c = { at: "catch", by: f.catchBy, hands: f.hands };
    if (f.trapped) c.trapped = true;
    if (f.over) c.over_table = true;
    ev.push(c);
  } else if (f.end === "sink") ev.push({ at: "cup", owner: f.sinkCup, sink: true });
  else if (f.end === "rest") ev.push({ at: "rest", face: f.face });
  return ev;
}
// " by Kim at 21:04 (reason)" from a stored audit.
function auditWords(a) {
  if (!a || typeof a !== "object") return "";
  const t = a.wall_ms ? new Date(a.wall_ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  return (a.official ? " by " + a.official : "") + (t ? " at " + t : "") + (a.reason ? " (" + a.reason + ")" : "");
}
function evidenceWords(d) {
  const evs = (d.judged && d.judged.events) || [];
  if (!evs.length) return "Evidence: none stored.";
  return "Evidence: " + evs.map((e) => eventWords(e, d.players) +
    (e.source || e.confidence !== undefined ? " [" + (e.source || "") + (e.confidence !== undefined ? " " + e.confidence : "") + "]" : "")).join(", then ");
}
async function openThrow(n, match, keepScroll) {
  if (!state || (!state.match && !match)) { say("throws-msg", "No match under way: nothing to open.", false); return; }
  const m = match || state.match;
  const r = await fetch("/api/matches/" + m + "/throws/" + n).catch(() => null);
  if (!r || !r.ok) { say("throws-msg", "Throw " + n + " of match " + m + ": not found.", false); return; }
  const d = await r.json();
  opened = d;
  form = formFrom(d);
  const p = $("throw-panel");
  p.classList.remove("hidden");
  const under = state.review && state.review.throw === n && state.match === m;
  const names = d.team_names;
  $("tp-title").textContent = "Throw " + n + (m !== state.match ? " of match " + m : "") +
    (d.ruling ? " by " + d.ruling.thrower : "");
  $("tp-ruling").textContent = d.ruling ? "Ruling: " + pointsWords(d.ruling, names) + (d.ruling.note ? " - " + d.ruling.note : "") +
    (d.ruling.score ? ", " + score(d.ruling.score) : "") : "Ruling: none";
  $("tp-evidence").textContent = evidenceWords(d);
  const confs = ((d.judged && d.judged.events) || []).filter((e) => typeof e.confidence === "number").map((e) => e.confidence);
  $("tp-conf").textContent = under && typeof state.review.confidence === "number"
    ? "Confidence: " + state.review.confidence.toFixed(2) + " (under review: " + state.review.why + ")"
    : typeof d.confidence === "number" ? "Confidence: " + d.confidence.toFixed(2) + " (the least sure of the evidence)"
    : confs.length ? "Confidence: " + Math.min(...confs).toFixed(2) + " (the least sure of the evidence)" : "Confidence: entered by hand, certain";
  const badges = [];
  if (d.review_why) badges.push("Doubtful: " + d.review_why);
  if (d.confirmed && !(d.confirmations || []).length) badges.push("Confirmed");
  if (d.corrections && d.corrections.length) {
    const k = d.corrections.length, au = d.corrections[k - 1].audit;
    badges.push("Corrected" + (k > 1 ? " " + k + " times" : "") + (au ? auditWords(au) : ""));
  }
  if (d.undo) badges.push("Undone" + auditWords(d.undo));
  for (const c of d.confirmations || []) badges.push("Confirmed" + auditWords(c));
  $("tp-badges").textContent = badges.join(". ");
  $("tp-replay").href = "/replay/" + n + "?match=" + m;
  $("tp-replay").classList.remove("hidden");
  $("tp-wall").classList.remove("hidden");
  $("correct").classList.remove("hidden");
  const note = [];
  if (m !== state.match) note.push("This throw is of match " + m + ", not the one under way: it cannot be corrected here.");
  if (form.cannot.length) note.push("The form cannot say all of this throw (" + form.cannot.join(", ") + "): use the JSON box below.");
  $("tp-note").textContent = note.join(" ");
  $("tp-note").classList.toggle("hidden", !note.length);
  $("correct").disabled = m !== state.match;
  $("json-box").open = form.cannot.length > 0;
  // The JSON box with the same events in the same identities (seats).
  $("corr-no").value = n;
  $("corr-events").value = JSON.stringify(formEvents(form).length && !form.cannot.length ? formEvents(form)
    : ((d.judged && d.judged.events) || []).map((e) => { const c = Object.assign({}, e); delete c.t_ns; return c; }));
  $("corr-dyeup").checked = form.dyeUp;
  drawForm();
  const h = $("tp-title");
  if (!keepScroll && h.getBoundingClientRect().top < 0 || h.getBoundingClientRect().top > innerHeight / 2) h.scrollIntoView({ block: "start" });
}
// A blank form for a ruling still held (no stored throw to load), or for
// a throw entered by hand (n null).
function openHeld(n) {
  opened = { throw: n, players: state.players, team_names: state.team_names };
  form = blankForm(n);
  $("throw-panel").classList.remove("hidden");
  $("tp-title").textContent = n ? "Throw " + n + " (held, not yet counted)" : "A throw entered by hand";
  $("tp-replay").classList.add("hidden");
  $("tp-wall").classList.add("hidden");
  $("correct").classList.toggle("hidden", !n);
  $("tp-ruling").textContent = state.review && state.review.ruling ? "Proposed: " + pointsWords(state.review.ruling, state.team_names) : "";
  $("tp-evidence").textContent = "Say what happened with the form, then Save correction.";
  $("tp-conf").textContent = ""; $("tp-badges").textContent = "";
  $("tp-note").classList.add("hidden");
  $("correct").disabled = false;
  $("corr-no").value = n;
  drawForm();
  $("tp-title").scrollIntoView({ block: "start" });
}

const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}
// The table to tap: A's end on the left as on the replay. Each part is a
// target; a tap adds a landing in the order tapped.
const LINE_HALF_M = 0.05;	/* half the tap target's width for the line, metres */
function drawTable() {
  const g = $("f-table"); clear(g);
  const t = (opened && opened.table) || { length_m: 2.44, width_m: 1.22, cup_radius_m: 0.06,
    cups: [{ x: 0.2, y: 0.2 }, { x: 0.2, y: 1.02 }, { x: 2.24, y: 0.2 }, { x: 2.24, y: 1.02 }],
    mine: { x: 1.22, y: 0.61 }, mine_radius_m: 0.04 };
  const mid = t.length_m / 2;
  const part = (attrs, label, ev, cls) => {
    const e = svgEl(attrs.r ? "circle" : "rect", attrs, g);
    e.setAttribute("class", "tap " + cls);
    e.dataset.land = JSON.stringify(ev);
    e.setAttribute("aria-label", label);
    e.addEventListener("click", (x) => { x.stopPropagation(); tapLanding(ev); });
    return e;
  };
  part({ x: 0, y: 0, width: mid - LINE_HALF_M, height: t.width_m }, "A's half", { at: "table", half: "A" }, "half");
  part({ x: mid + LINE_HALF_M, y: 0, width: mid - LINE_HALF_M, height: t.width_m }, "B's half", { at: "table", half: "B" }, "half");
  part({ x: mid - LINE_HALF_M, y: 0, width: 2 * LINE_HALF_M, height: t.width_m }, "the line", { at: "table", half: "line" }, "line");
  const txt = (x, y, s, size) => svgEl("text", { x, y, "font-size": size || 0.09, fill: "#fff", "text-anchor": "middle", "pointer-events": "none" }, g, s);
  txt(mid / 2, t.width_m / 2 + 0.03, "A's half", 0.1);
  txt(mid * 1.5, t.width_m / 2 + 0.03, "B's half", 0.1);
  t.cups.forEach((c, i) => {
    const seat = SEATS[i];
    part({ cx: c.x, cy: c.y, r: Math.max(t.cup_radius_m, 0.14) }, seatName(opened && opened.players, seat) + "'s cup",
      { at: "cup", owner: seat }, "cup " + (i < 2 ? "cup-a" : "cup-b"));
    txt(c.x, c.y + 0.03, seatName(opened && opened.players, seat).slice(0, 6), 0.07);
  });
  part({ cx: t.mine.x, cy: t.mine.y, r: Math.max(t.mine_radius_m, 0.11) }, "the mine", { at: "mine" }, "mine");
  txt(t.mine.x, t.mine.y + 0.03, "mine", 0.06);
}
function tapLanding(ev) { clearMsgs(); form.landings.push(Object.assign({}, ev)); drawForm(); }
function seatButtons(box, pick, chosen, onPick) {
  clear(box);
  for (const seat of SEATS.filter(pick)) {
    const b = el("button", seat === chosen ? "on" : "", seatName(opened.players, seat));
    b.dataset.seat = seat;
    b.addEventListener("click", () => { clearMsgs(); onPick(seat); drawForm(); });
    box.appendChild(b);
  }
}
function drawForm() {
  const f = form;
  drawTable();
  seatButtons($("f-thrower"), () => true, f.thrower, (s) => { f.thrower = f.thrower === s ? null : s; });
  const ls = $("f-landings"); clear(ls);
  if (!f.landings.length) ls.appendChild(el("span", "dim", "No landing: tap the table."));
  f.landings.forEach((l, i) => {
    const b = el("button", "chip", (i + 1) + ". " + eventWords(l, opened.players) + " \u00d7");
    b.setAttribute("aria-label", "remove landing " + (i + 1));
    b.dataset.remove = i;
    b.addEventListener("click", () => { clearMsgs(); f.landings.splice(i, 1); drawForm(); });
    ls.appendChild(b);
  });
  document.querySelectorAll("[data-end]").forEach((b) => b.classList.toggle("on", b.dataset.end === f.end));
  $("f-catch").classList.toggle("hidden", f.end !== "catch");
  $("f-sink").classList.toggle("hidden", f.end !== "sink");
  $("f-rest").classList.toggle("hidden", f.end !== "rest");
  seatButtons($("f-catch-by"), () => true, f.catchBy, (s) => { f.catchBy = s; });
  document.querySelectorAll("[data-hands]").forEach((b) => b.classList.toggle("on", Number(b.dataset.hands) === f.hands));
  $("f-trapped").classList.toggle("on", f.trapped);
  $("f-over").classList.toggle("on", f.over);
  seatButtons($("f-sink-cup"), () => true, f.sinkCup, (s) => { f.sinkCup = s; });
  [...$("f-sink-cup").children].forEach((b) => { b.textContent += "'s cup"; });
  document.querySelectorAll("[data-face]").forEach((b) => b.classList.toggle("on", Number(b.dataset.face) === f.face));
  $("f-dyeup").classList.toggle("on", f.dyeUp);
  $("f-low").classList.toggle("on", f.low);
  $("f-kick").classList.toggle("on", f.kick);
  $("f-kick-sub").classList.toggle("hidden", !f.kick);
  seatButtons($("f-kick-by"), () => true, f.kickBy, (s) => { f.kickBy = s; });
  document.querySelectorAll("[data-part]").forEach((b) => b.classList.toggle("on", b.dataset.part === f.part));
  const said = formEvents(f).map((e) => eventWords(e, opened.players)).join(", then ");
  $("f-said").textContent = "The form says: " + (said || "nothing happened") + (f.dyeUp ? "" : "; no dye up");
}
// What the form lacks before it can be sent, in words; null when complete.
function formMissing(f) {
  if (f.end === "catch" && !f.catchBy) return "Caught by whom? Tap a player.";
  if (f.end === "sink" && !f.sinkCup) return "Sunk in whose cup? Tap one.";
  if (f.end === "rest" && !f.face) return "At rest showing what? Tap a face.";
  if (f.kick && !f.kickBy) return "Kicked by whom? Tap a player.";
  return null;
}
function wireForm() {
  document.querySelectorAll("[data-end]").forEach((b) => b.addEventListener("click", () => { clearMsgs(); form.end = b.dataset.end; drawForm(); }));
  document.querySelectorAll("[data-hands]").forEach((b) => b.addEventListener("click", () => { clearMsgs(); form.hands = Number(b.dataset.hands); drawForm(); }));
  document.querySelectorAll("[data-face]").forEach((b) => b.addEventListener("click", () => { clearMsgs(); form.face = Number(b.dataset.face); drawForm(); }));
  document.querySelectorAll("[data-part]").forEach((b) => b.addEventListener("click", () => { clearMsgs(); form.part = b.dataset.part; drawForm(); }));
  for (const [id, k] of [["f-trapped", "trapped"], ["f-over", "over"], ["f-dyeup", "dyeUp"], ["f-low", "low"], ["f-kick", "kick"]])
    $(id).addEventListener("click", () => { clearMsgs(); form[k] = !form[k]; drawForm(); });
  $("correct").addEventListener("click", async () => {
    clearMsgs();
    const miss = formMissing(form);
    if (miss) { say("correct-msg", miss, false); return; }
    const body = { cmd: "correct", throw: form.n, dye_up: form.dyeUp, events: formEvents(form) };
    if (form.thrower && form.thrower !== form.thrower0) body.thrower = form.thrower;
    const a = await send(body, "correct-msg");
    if (!a.ok) return;
    const res = a.j.result;
    say("correct-msg", "Throw " + ((res && res.throw) || form.n) + " corrected" + (res ? ": " + resultWords(res) : ""), true);
    refreshOpened();
  });
  $("enter").addEventListener("click", async () => {
    clearMsgs();
    const miss = formMissing(form);
    if (miss) { say("correct-msg", miss, false); return; }
    const body = { cmd: "throw", dye_up: form.dyeUp, events: formEvents(form) };
    if (form.thrower) body.thrower = form.thrower;
    const a = await send(body, "correct-msg");
    if (!a.ok) return;
    const res = a.j.result;
    say("correct-msg", "Throw " + (res && res.throw ? res.throw + " " : "") + "entered" + (res ? ": " + resultWords(res) : ""), true);
  });
}
// The opened throw read again after a change, its message kept.
async function refreshOpened() {
  if (!opened || !opened.throw || !state || !state.match) return;
  const keep = [...MSGS].map((id) => [id, $(id).textContent, $(id).className]);
  await openThrow(opened.throw, null, true);
  for (const [id, t, c] of keep) { $(id).textContent = t; $(id).className = c; }
  const m = $("correct-msg").getBoundingClientRect();
  if (m.bottom > innerHeight || m.top < 0) $("correct-msg").scrollIntoView({ block: "nearest" });
}

// ---- the JSON box -------------------------------------------------------------
function eventsFromBox() {
  try { const ev = JSON.parse($("corr-events").value); if (!Array.isArray(ev)) throw 0; return ev; }
  catch (e) { say("json-msg", "events: not a JSON array", false); return null; }
}
async function loadJson(n) {
  if (!state || !state.match) { say("json-msg", "No match under way.", false); return; }
  const r = await fetch("/api/matches/" + state.match + "/throws/" + n);
  if (!r.ok) { say("json-msg", "Throw " + n + ": not found.", false); return; }
  const j = await r.json();
  const evs = (j.judged.events || []).map((e) => {
    const c = Object.assign({}, e); delete c.t_ns;
    // One identity everywhere: the seat, as the form sends it.
    for (const k of ["by", "owner"]) if (c[k] !== undefined) c[k] = seatOf(j.players, c[k]) || c[k];
    return c;
  });
  $("corr-events").value = JSON.stringify(evs);
  $("corr-dyeup").checked = j.judged.dye_up !== false;
  say("json-msg", "Throw " + n + " loaded: edit it, then Save as JSON.", true);
}

// ---- dice games -----------------------------------------------------------------
const YATZY_ROWS_NOT_BOXES = ["upper", "bonus", "yatzy_bonus", "total"];
let diceSheet = null, diceFix = null;	/* the sheet shown; the turn being corrected */
let diceMatch = null;	/* the dice match the inputs are for */
function diceGame(sh) { return (sh && sh.game) || (state && state.game) || ""; }
function renderDice(sh) {
  if (diceMatch !== state.match) { diceMatch = state.match; diceFix = null; diceSheet = sh; resetDiceInputs(); endFix(); }
  diceSheet = sh;
  const game = diceGame(sh), yatzy = game.startsWith("yatzy");
  // What the next move takes (the sheet's input), else read off the sheet.
  const input = sh.input || {};
  const choosing = input.move ? input.move === "choose" : game === "dreiermann" && !sh.dreiermann;
  const rolloff = input.move === "rolloff" && !diceFix;
  // A complete game stays open until End: its turns can still be corrected.
  const over = !!sh.over && !choosing;
  $("dice-who").textContent = choosing ? "Choosing the Dreiermann: " + sh.turn + " rolls" :
    (over ? "Game over" + (sh.winner ? " (" + sh.winner + " wins)" : sh.loser ? " (" + sh.loser + " loses)" : "") +
      ": End to close, or correct a turn" :
      (sh.turn ? sh.turn + " to roll" : "")) + (game === "dreiermann" && sh.dreiermann ? " (Dreiermann: " + sh.dreiermann + (sh.double ? ", double" : "") + ")" : "") +
    (game === "horse" && sh.mark ? " (mark " + sh.mark + " by " + sh.mark_player + ")" : "");
  showDiceEnd(over);
  // Over, there is no next move: the inputs are for a correction only.
  const entry = !over || !!diceFix;
  $("drolls").parentElement.classList.toggle("hidden", !entry);
  $("dtap").classList.toggle("hidden", !entry);
  $("d-box-row").classList.toggle("hidden", !yatzy || !entry);
  $("d-keep-row").classList.toggle("hidden", game !== "horse" || !entry);
  $("dchoose").classList.toggle("hidden", !choosing || !!diceFix);
  $("drolloff").classList.toggle("hidden", !rolloff);
  if (rolloff) $("drolloff").textContent = "Roll-off: a die each for " + (input.players || []).join(", ");
  $("dturn").classList.toggle("hidden", (choosing || rolloff && !input.or_turn || over) && !diceFix);
  // The boxes of the game played, as its sheet lists them: the player's
  // free ones for a new turn, all of them to correct one.
  let boxes = sh.boxes || (yatzy ? (sh.rows || []).map((r) => r.name).filter((n) => !YATZY_ROWS_NOT_BOXES.includes(n)) : []);
  if (!diceFix && Array.isArray(input.free)) boxes = boxes.filter((b) => input.free.includes(b));
  const sel = $("dbox"), keep = sel.value;
  if (sel.dataset.boxes !== boxes.join()) {
    clear(sel);
    const o = el("option", null, "(the referee picks)"); o.value = ""; sel.appendChild(o);
    for (const b of boxes) { const x = el("option", null, b.replace(/_/g, " ")); x.value = b; sel.appendChild(x); }
    sel.dataset.boxes = boxes.join();
    sel.value = boxes.includes(keep) ? keep : "";
  }
  drawShares();
  const ol = $("dturns"); clear(ol);
  const turns = sh.turns;
  if (!turns) ol.appendChild(el("li", "empty", "The daemon gives no list of turns."));
  else if (!turns.length) ol.appendChild(el("li", "empty", "No turns yet."));
  for (const t of (turns || []).slice().reverse()) {
    const li = el("li", "turn");
    const txt = "Turn " + t.turn + ": " + (t.kind === "rolloff" ? "roll-off " : rollsText(t.rolls) + ": ") +
      (t.text || (t.player + (t.box ? " \u2192 " + t.box.replace(/_/g, " ") : "") + (t.points !== undefined && t.points !== null ? " " + t.points : "")));
    li.appendChild(el("span", "what", txt));
    if (t.undone) li.appendChild(el("span", "badge undone", "undone"));
    if (t.corrected) li.appendChild(el("span", "badge corrected", "corrected"));
    if (!t.undone && t.kind !== "rolloff") {
      const b = el("button", "small", "Correct");
      b.dataset.turn = t.turn;
      b.addEventListener("click", () => startFix(t));
      li.appendChild(b);
    }
    ol.appendChild(li);
  }
  const players = (sh.players || []).join(", ");
  if (players && !$("dplayers").value) $("dplayers").placeholder = players;
}
// The End button of a complete dice game, under whose-turn line (made
// here: the page has none of its own); its answer beside it.
function showDiceEnd(over) {
  let row = $("dend-row");
  if (!row) {
    row = el("div", "row hidden"); row.id = "dend-row";
    const b = el("button", "danger", "End game"); b.id = "dend";
    const m = el("div", "msg"); m.id = "dend-msg";
    b.addEventListener("click", async () => {
      clearMsgs();
      const j = await post({ cmd: "end" }, "dend-msg");
      if (j) say("dstart-msg", "Dice match " + ((j.result && j.result.match) || "") + " ended.", true);
    });
    row.appendChild(b);
    $("dice-who").after(row, m);
  }
  row.classList.toggle("hidden", !over);
}
// [[1,1,2,5,6],{"dice":[4,4],"share":{..}}] -> "11256 44"
function rollsText(rolls) {
  if (rolls && !Array.isArray(rolls)) return Object.values(rolls).join(" ");
  return (rolls || []).map((r) => (Array.isArray(r) ? r : r.dice || []).join("")).join(" ");
}
// "11256 134" -> [[1,1,2,5,6],[1,3,4]]: each roll's dice, later rolls only
// the dice rolled again (docs/dice-games.md); the engine checks the rest.
function rollsFromBox(where) {
  const groups = $("drolls").value.trim().split(/\s+/).filter((g) => g);
  if (!groups.length || groups.some((g) => !/^[1-6]+$/.test(g))) { say(where, "rolls: dice 1-6, a space between rolls", false); return null; }
  return groups.map((g) => g.split("").map(Number));
}
// Dreiermann (DM-7): a share line for every double among the rolls typed.
let shareVals = {};	/* roll index -> { player: points } */
function drawShares() {
  const box = $("d-shares");
  if (diceGame(diceSheet) !== "dreiermann") { clear(box); return; }
  const groups = $("drolls").value.trim().split(/\s+/).filter((g) => /^[1-6]{2}$/.test(g));
  const sig = groups.join(" ");
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig; clear(box);
  const all = $("drolls").value.trim().split(/\s+/).filter((g) => g);
  all.forEach((g, i) => {
    if (!/^[1-6]{2}$/.test(g) || g[0] !== g[1]) return;
    const row = el("div", "row share");
    row.appendChild(el("span", null, "Roll " + (i + 1) + " (" + g[0] + "-" + g[1] + "): shares " + g[0] + " as"));
    for (const p of diceSheet.players || []) {
      const lab = el("label", null, p + " ");
      const inp = el("input"); inp.type = "number"; inp.min = "0"; inp.max = "12"; inp.size = 2; inp.inputMode = "numeric";
      inp.dataset.share = i; inp.dataset.player = p;
      inp.value = (shareVals[i] && shareVals[i][p]) || "";
      inp.addEventListener("input", () => { (shareVals[i] = shareVals[i] || {})[p] = parseInt(inp.value, 10) || 0; });
      lab.appendChild(inp); row.appendChild(lab);
    }
    box.appendChild(row);
  });
}
function moveFromInputs(where) {
  const rolls = rollsFromBox(where);
  if (!rolls) return null;
  const game = diceGame(diceSheet);
  const move = { type: "turn", rolls };
  if (game.startsWith("yatzy") && $("dbox").value) move.box = $("dbox").value;
  if (game === "horse" && $("dkeep").value.trim()) {
    const k = $("dkeep").value.trim().split(/\s+/);
    if (k.some((g) => !/^[1-6]*$/.test(g))) { say(where, "kept: dice 1-6, a space between rolls", false); return null; }
    move.keep = k.map((g) => g.split("").map(Number));
  }
  if (game === "dreiermann") {
    move.rolls = rolls.map((r, i) => {
      const sh = shareVals[i] || {};
      const share = {};
      for (const p in sh) if (sh[p] > 0) share[p] = sh[p];
      return r.length === 2 && r[0] === r[1] && Object.keys(share).length ? { dice: r, share } : r;
    });
  }
  if (diceFix && diceFix.kind === "choose") return { type: "choose", player: diceFix.player, roll: rolls[0] };
  if (diceFix && diceFix.player) move.player = diceFix.player;
  return move;
}
function resetDiceInputs() {
  $("drolls").value = ""; $("dkeep").value = ""; shareVals = {}; $("d-shares").dataset.sig = "x";
  if (diceSheet) drawShares();
}
// What a dice command wrote and for whom: the sheet's own words for its
// last line ("Turn 4 corrected. Wrote 18 in sixes for bob"), from the
// reply's sheet or, without one, the match's; else the reply's fields.
async function diceAnswer(res, what) {
  if (res && res.text) return res.text + ".";
  let sh = res && res.sheet;
  if (!sh || !sh.last) {
    const r = await fetch("/api/matches/" + state.match + "/sheet").catch(() => null);
    sh = r && r.ok ? await r.json().catch(() => null) : null;
  }
  if (sh && sh.last && sh.last.text) return sh.last.text + ".";
  return diceWords(res, what);
}
function diceWords(res, what) {
  if (!res || res.turn === undefined) return (what || "Entered") + " (the daemon says no more).";
  let s = (what ? what + ": " : "") + "turn " + res.turn + ", " + res.player;
  if (res.box) s += ": " + (res.wrote === false ? "nothing written in " : "wrote " + res.points + " in ") + res.box.replace(/_/g, " ");
  else if (res.points !== undefined) s += ": " + res.points + " point" + (res.points === 1 ? "" : "s");
  if (res.penalties && Object.keys(res.penalties).length)
    s += " (" + Object.entries(res.penalties).map(([p, n]) => p + " " + n).join(", ") + ")";
  if (res.hand) s += ", hand " + res.hand;
  return s.charAt(0).toUpperCase() + s.slice(1);
}
// A dice move; a box that would score 0 asks first (409, ask): the
// question and a "Write 0" button beside the control, which sends it again
// with accept_zero.
async function diceSend(body, where, what) {
  clearMsgs();
  const a = await send(body, where, true);
  if (a.ok) { say(where, await diceAnswer(a.j.result, what), true); resetDiceInputs(); endFix(); return; }
  if (a.status === 409 && a.j.ask) {
    const m = say(where, a.j.error + " ", null);
    const yes = el("button", "primary", "Write 0"); yes.id = "write0";
    const no = el("button", null, "No, change it"); no.id = "nowrite0";
    yes.addEventListener("click", () => diceSend(Object.assign({}, body, { accept_zero: true }), where, what));
    no.addEventListener("click", () => { clearMsgs(); say(where, "Nothing written: change the rolls or the box.", null); });
    m.appendChild(yes); m.appendChild(no);
    return;
  }
  say(where, errorWords(a.status, a.j), false);
}
function startFix(t) {
  clearMsgs();
  diceFix = t;
  const mv = t.move || {};
  const rolls = mv.type === "choose" ? [mv.roll || []] : mv.rolls || t.rolls;
  $("drolls").value = rollsText(rolls);
  shareVals = {};
  (Array.isArray(rolls) ? rolls : []).forEach((r, i) => { if (!Array.isArray(r) && r.share) shareVals[i] = Object.assign({}, r.share); });
  // A share at the turn's top level (one double in the turn) goes to it.
  if (mv.share && Array.isArray(rolls)) rolls.forEach((r, i) => { const d = Array.isArray(r) ? r : r.dice || []; if (d.length === 2 && d[0] === d[1]) shareVals[i] = Object.assign({}, mv.share); });
  if (mv.keep) $("dkeep").value = mv.keep.map((k) => k.join("")).join(" ");
  $("d-shares").dataset.sig = "x";
  renderDice(diceSheet);
  if (t.box) $("dbox").value = t.box;
  $("d-correcting").textContent = "Correcting turn " + t.turn + " (" + t.player + "): change the rolls" +
    (t.box ? " or the box" : "") + ", then Save correction. Later turns are judged again.";
  $("d-correcting").classList.remove("hidden");
  $("dturn").textContent = "Save correction of turn " + t.turn;
  $("dcancel").classList.remove("hidden");
  $("dturn").classList.remove("hidden");
  drawShares();
  $("d-correcting").scrollIntoView({ block: "start" });
}
function endFix() {
  diceFix = null;
  $("d-correcting").classList.add("hidden");
  $("dturn").textContent = "Enter turn";
  $("dcancel").classList.add("hidden");
  if (diceSheet) renderDice(diceSheet);
}
function wireDice() {
  $("dstart").addEventListener("click", async () => {
    const players = $("dplayers").value.split(",").map((p) => p.trim()).filter((p) => p);
    const game = $("dgame").value;
    const j = await post({ cmd: "start", game, players }, "dstart-msg");
    if (j) say("dstart-msg", "Dice match " + ((j.result && j.result.match) || "") + " started: " + game + " for " + players.join(", ") + ".", true);
  });
  document.querySelectorAll("[data-die]").forEach((b) => b.addEventListener("click", () => { $("drolls").value += b.dataset.die; drawShares(); }));
  $("drolls").addEventListener("input", drawShares);
  $("dnext").addEventListener("click", () => { $("drolls").value = $("drolls").value.trimEnd() + " "; });
  $("dclear").addEventListener("click", () => { resetDiceInputs(); });
  $("dturn").addEventListener("click", () => {
    clearMsgs();
    const move = moveFromInputs("dturn-msg");
    if (!move) return;
    if (diceFix) diceSend({ cmd: "correct", turn: diceFix.turn, move }, "dturn-msg", "Corrected");
    else diceSend({ cmd: "dice", move }, "dturn-msg", "");
  });
  $("dchoose").addEventListener("click", () => {
    clearMsgs();
    const rolls = rollsFromBox("dturn-msg");
    if (!rolls) return;
    if (rolls.length !== 1 || rolls[0].length !== 2) { say("dturn-msg", "roll: one roll of two dice", false); return; }
    diceSend({ cmd: "dice", move: { type: "choose", roll: rolls[0] } }, "dturn-msg", "Choosing roll");
  });
  $("drolloff").addEventListener("click", () => {
    clearMsgs();
    const who = (diceSheet.input && diceSheet.input.players) || [];
    const dice = $("drolls").value.replace(/\s+/g, "");
    if (dice.length !== who.length || !/^[1-6]+$/.test(dice)) { say("dturn-msg", "roll-off: one die 1-6 each for " + who.join(", "), false); return; }
    const rolls = {};
    who.forEach((p, i) => { rolls[p] = Number(dice[i]); });
    diceSend({ cmd: "dice", move: { type: "rolloff", rolls } }, "dturn-msg", "Roll-off");
  });
  $("dcancel").addEventListener("click", () => { clearMsgs(); resetDiceInputs(); endFix(); });
  $("dundo").addEventListener("click", async () => {
    clearMsgs();
    const a = await send({ cmd: "undo" }, "dundo-msg");
    if (a.ok) say("dundo-msg", await diceAnswer(a.j.result, "Undone"), true);
  });
  $("dmovebtn").addEventListener("click", () => {
    let move;
    try { move = JSON.parse($("dmove").value); } catch (e) { clearMsgs(); say("dmove-msg", "move: not JSON", false); return; }
    diceSend({ cmd: "dice", move }, "dmove-msg", "");
  });
}

// ---- house rules and the new match -------------------------------------------
let houseRules = null;
async function loadHouse() {
  if (houseRules) return;
  const r = await fetch("/api/house").catch(() => null);
  if (!r || !r.ok) { $("house-msg").textContent = "The daemon does not list its house rules (" + (r ? r.status : "unreachable") + "): the book's rules apply."; return; }
  houseRules = (await r.json()).rules || [];
  const box = $("house"); clear(box);
  for (const h of houseRules) {
    const row = el("div", "house-rule");
    const lab = el("label");
    let inp;
    if (h.type === "bool") {
      inp = el("input"); inp.type = "checkbox"; inp.checked = !!h.default;
    } else if (h.type === "enum") {
      inp = el("select");
      for (const v of h.values || []) { const o = el("option", null, v); o.value = v; inp.appendChild(o); }
      inp.value = h.default;
    } else {
      inp = el("input"); inp.type = "number"; inp.size = 5;
      if (h.min !== undefined) inp.min = h.min;
      if (h.max !== undefined) inp.max = h.max;
      inp.step = h.type === "int" ? "1" : "any";
      inp.value = h.default;
    }
    inp.dataset.house = h.key;
    inp.addEventListener("change", houseChanged);
    lab.appendChild(el("span", "key", h.key.replace(/_/g, " ") + " "));
    lab.appendChild(inp);
    row.appendChild(lab);
    row.appendChild(el("div", "dim", (h.text || "") + " (default " + String(h.default) + ")"));
    box.appendChild(row);
  }
}
// Only the rules changed from their defaults go to START.
function houseValues() {
  const out = {};
  for (const h of houseRules || []) {
    const inp = document.querySelector("[data-house='" + h.key + "']");
    let v;
    if (h.type === "bool") v = inp.checked;
    else if (h.type === "enum") v = inp.value;
    else { v = h.type === "int" ? parseInt(inp.value, 10) : parseFloat(inp.value); if (isNaN(v)) continue; }
    if (v !== h.default) out[h.key] = v;
  }
  return out;
}
function houseChanged() {
  const n = Object.keys(houseValues()).length;
  $("house-changed").textContent = n ? "(" + n + " changed)" : "";
}

function wire() {
  // The opened throw as a challenge replay on the wall, for [web]
  // challenge_s (the daemon's clock) or until the wall is dismissed.
  $("tp-wall").addEventListener("click", async () => {
    if (!opened || !opened.match || !opened.throw) return;
    const j = await post({ cmd: "show_on_wall", match: opened.match, throw: opened.throw }, "tp-msg");
    if (j) say("tp-msg", "Throw " + opened.throw + " is on the wall.", true);
  });
  $("review-wall").addEventListener("click", async () => {
    if (!state || !state.review) return;
    const n = state.review.throw;
    const j = await post({ cmd: "show_on_wall", match: state.match, throw: n }, "review-msg");
    if (j) { reviewHeld = true; say("review-msg", "Throw " + n + " is on the wall.", true); }
  });
  wireDice();
  wireForm();
  $("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    clearMsgs();
    const name = $("official").value.trim();
    const r = await fetch("/console/login", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "pin=" + encodeURIComponent($("pin").value) + (name ? "&name=" + encodeURIComponent(name) : "") }).catch(() => null);
    const j = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) { say("login-msg", r ? (r.status === 403 ? "Wrong PIN." : errorWords(r.status, j)) : "The daemon cannot be reached.", false); return; }
    csrf = j.csrf; $("pin").value = "";
    showDesk(j.official);
  });
  document.querySelectorAll("[data-call]").forEach((b) => b.addEventListener("click", async () => {
    const body = CALLS[b.dataset.call]($("by").value);
    const j = await post(body, "calls-msg");
    if (j) say("calls-msg", "Called: " + (body.event ? eventWords(body.event, state.players) : "dye-up missed") + ".", true);
  }));
  // The number the box shows: throw 0 means only a held ruling (review =
  // wait), and a page behind the daemon must not confirm a ruling not read.
  $("confirm").addEventListener("click", async () => {
    if (!state || !state.review) return;
    const n = state.review.throw;
    clearMsgs();
    reviewHeld = true;
    const a = await send({ cmd: "confirm", throw: n }, "review-msg");
    if (a.ok) say("review-msg", "Throw " + ((a.j.result && a.j.result.throw) || n) + " confirmed" +
      (a.j.result ? ": " + resultWords(a.j.result) : "") + ".", true);
  });
  $("load-review").addEventListener("click", () => {
    if (!state || !state.review) return;
    clearMsgs();
    if (state.review.counted) openThrow(state.review.throw);
    else openHeld(state.review.throw);
  });
  $("load").addEventListener("click", () => { clearMsgs(); loadJson(parseInt($("corr-no").value, 10)); });
  $("correct-json").addEventListener("click", async () => {
    clearMsgs();
    const events = eventsFromBox(); if (!events) return;
    const n = parseInt($("corr-no").value, 10);
    const a = await send({ cmd: "correct", throw: isNaN(n) ? 0 : n, dye_up: $("corr-dyeup").checked, events }, "json-msg");
    if (a.ok) say("json-msg", "Throw " + n + " corrected" + (a.j.result ? ": " + resultWords(a.j.result) : "") + ".", true);
  });
  $("tp-close").addEventListener("click", () => { clearMsgs(); opened = null; $("throw-panel").classList.add("hidden"); });
  $("by-hand").addEventListener("click", () => {
    clearMsgs();
    if (!state || !state.match) { say("undo-msg", "No match under way: start one first.", false); return; }
    openHeld(null);
  });
  $("undo").addEventListener("click", async () => {
    clearMsgs();
    const a = await send({ cmd: "undo" }, "undo-msg");
    if (a.ok) say("undo-msg", "Throw " + ((a.j.result && a.j.result.throw) || "") + " undone: it is a re-toss" +
      (a.j.result && a.j.result.score ? ", " + score(a.j.result.score) : "") + ".", true);
  });
  $("start").addEventListener("click", async () => {
    const v = (id) => $(id).value.trim() || $(id).placeholder;
    const house = houseValues();
    const body = { cmd: "start", teams: { A: [v("a1"), v("a2")], B: [v("b1"), v("b2")] },
      team_names: [$("ta").value.trim(), $("tb").value.trim()], first: $("first").value, house,
      colors: { A: $("ca").value, B: $("cb").value } };
    const j = await post(body, "start-msg");
    if (!j) return;
    const n = Object.keys(house);
    say("start-msg", "Match " + ((j.result && j.result.match) || "") + " started: " + (body.team_names[0] || "team A") + " v " +
      (body.team_names[1] || "team B") + (n.length ? ", house rules " + n.map((k) => k + " " + house[k]).join(", ") : ", the book's rules") + ".", true);
  });
  $("end").addEventListener("click", async () => {
    if (!confirm("End the match?")) return;
    const j = await post({ cmd: "end" }, "start-msg");
    if (j) say("start-msg", "Match " + ((j.result && j.result.match) || "") + " ended" +
      (j.result && j.result.score ? " at " + score(j.result.score) : "") + ".", true);
  });
  $("logout").addEventListener("click", async () => {
    await fetch("/console/logout", { method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } });
    csrf = null; clearMsgs(); showLogin();
  });
}
const CALLS = {
  low: (by) => ({ cmd: "call", event: { at: "low_call", by } }),
  catch1: (by) => ({ cmd: "call", event: { at: "catch", by, hands: 1 } }),
  catch2: (by) => ({ cmd: "call", event: { at: "catch", by, hands: 2 } }),
  trapped: (by) => ({ cmd: "call", event: { at: "catch", by, hands: 1, trapped: true } }),
  over: (by) => ({ cmd: "call", event: { at: "catch", by, hands: 1, over_table: true } }),
  kick: (by) => ({ cmd: "call", event: { at: "kick", by, part: "foot" } }),
  thigh: (by) => ({ cmd: "call", event: { at: "kick", by, part: "thigh" } }),
  dyeup: () => ({ cmd: "dye_up_missed" }),
  retoss: () => ({ cmd: "call", event: { at: "retoss" } }),
};
wire();
// Tests (and impatient officials) must not submit the PIN before the
// handler above is attached: a native submit would reload the page.
document.body.dataset.ready = "1";
fetch("/console/session", { credentials: "same-origin" }).then((r) => r.ok ? r.json() : null)
  .then((j) => { if (j) { csrf = j.csrf; showDesk(j.official); } });
const es = openEvents({ state: (e) => render(JSON.parse(e.data)) });
