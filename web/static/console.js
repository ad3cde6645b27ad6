"use strict";
// The official's console: every change needs the session cookie (set by the
// login) and the CSRF token the login returned, in X-CSRF-Token.
let csrf = null, state = null;
function say(t) { $("msg").textContent = t; }
async function post(body) {
  const r = await fetch("/console/api/command", {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  const j = await r.json().catch(() => ({}));
  if (!r.ok) { say((j.error || r.statusText) + " (" + r.status + ")"); if (r.status === 403) showLogin(); return false; }
  say("done");
  return true;
}
function showLogin() { $("login").classList.remove("hidden"); $("desk").classList.add("hidden"); }
function showDesk() { $("login").classList.add("hidden"); $("desk").classList.remove("hidden"); loadStatus(); }
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
function slots() { return ["a1", "a2", "b1", "b2"]; }
function render(s) {
  state = s;
  const seen = JSON.stringify(s.health || null);
  if (seen !== healthSeen) { healthSeen = seen; loadStatus(); }
  const by = $("by"), keep = by.value; clear(by);
  slots().forEach((slot, i) => {
    const name = s.players ? s.players[i < 2 ? "A" : "B"][i % 2] : slot;
    const o = el("option", null, name + " (" + slot + ")"); o.value = slot; by.appendChild(o);
  });
  if (keep) by.value = keep;
  if (s.match === null || s.match === undefined) { $("summary").textContent = "No match under way."; $("review-box").classList.add("hidden"); return; }
  if (s.dice_match) {
    const sh = s.dice_match.sheet || {};
    $("summary").textContent = "Dice match " + s.match + " (" + s.game + ")" + (sh.turn ? ": " + sh.turn + " to roll" : "");
    $("review-box").classList.add("hidden");
    return;
  }
  $("summary").textContent = "Match " + s.match + ": A " + s.score.A + " - " + s.score.B + " B, " +
    s.throws + " throws. " + (s.next ? s.next.player + " to throw. " : "") + rulingWords(s.last, s.team_names);
  const rv = $("review-box");
  if (s.review) {
    $("review-text").textContent = "Throw " + s.review.throw + " under review: " + s.review.why +
      (s.review.awaiting > 1 ? " (" + (s.review.awaiting - 1) + " more after it)" : "");
    rv.classList.remove("hidden");
  } else rv.classList.add("hidden");
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
function eventsFromBox() {
  try { const ev = JSON.parse($("corr-events").value); if (!Array.isArray(ev)) throw 0; return ev; }
  catch (e) { say("events: not a JSON array"); return null; }
}
async function loadThrow(n) {
  if (!state || !state.match) return;
  const r = await fetch("/api/matches/" + state.match + "/throws/" + n);
  if (!r.ok) { say("throw " + n + ": not found"); return; }
  const j = await r.json();
  $("corr-no").value = n;
  const evs = (j.judged.events || []).map((e) => { const c = Object.assign({}, e); delete c.t_ns; return c; });
  $("corr-events").value = JSON.stringify(evs);
  $("corr-dyeup").checked = j.judged.dye_up !== false;
}
// "11256 134" -> [[1,1,2,5,6],[1,3,4]]: each roll's dice, later rolls only
// the dice rolled again (docs/dice-games.md); the engine checks the rest.
function rollsFromBox() {
  const groups = $("drolls").value.trim().split(/\s+/).filter((g) => g);
  if (!groups.length || groups.some((g) => !/^[1-6]+$/.test(g))) { say("rolls: dice 1-6, a space between rolls"); return null; }
  return groups.map((g) => g.split("").map(Number));
}
function wireDice() {
  $("dstart").addEventListener("click", () => {
    const players = $("dplayers").value.split(",").map((p) => p.trim()).filter((p) => p);
    post({ cmd: "start", game: $("dgame").value, players });
  });
  document.querySelectorAll("[data-die]").forEach((b) => b.addEventListener("click", () => { $("drolls").value += b.dataset.die; }));
  $("dnext").addEventListener("click", () => { $("drolls").value = $("drolls").value.trimEnd() + " "; });
  $("dclear").addEventListener("click", () => { $("drolls").value = ""; });
  $("dturn").addEventListener("click", async () => {
    const rolls = rollsFromBox();
    if (!rolls) return;
    const move = { type: "turn", rolls };
    if ($("dbox").value) move.box = $("dbox").value;
    if (await post({ cmd: "dice", move })) $("drolls").value = "";
  });
  $("dmovebtn").addEventListener("click", () => {
    let move;
    try { move = JSON.parse($("dmove").value); } catch (e) { say("move: not JSON"); return; }
    post({ cmd: "dice", move });
  });
}
function wire() {
  wireDice();
  $("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await fetch("/console/login", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "pin=" + encodeURIComponent($("pin").value) });
    const j = await r.json().catch(() => ({}));
    if (!r.ok) { say(j.error || "login failed"); return; }
    csrf = j.csrf; $("pin").value = ""; say("logged in"); showDesk();
  });
  document.querySelectorAll("[data-call]").forEach((b) => b.addEventListener("click", () => post(CALLS[b.dataset.call]($("by").value))));
  // The number the banner shows: throw 0 means only a held ruling (review =
  // wait), and a page behind the daemon must not confirm a ruling not read.
  $("confirm").addEventListener("click", () => {
    if (state && state.review) post({ cmd: "confirm", throw: state.review.throw });
  });
  $("load-review").addEventListener("click", () => {
    if (!state || !state.review) return;
    if (state.review.counted) loadThrow(state.review.throw);
    else { $("corr-no").value = state.review.throw; say("enter the events as they happened, then Save correction"); }
  });
  $("load").addEventListener("click", () => loadThrow(parseInt($("corr-no").value, 10)));
  $("correct").addEventListener("click", () => {
    const events = eventsFromBox(); if (!events) return;
    const n = parseInt($("corr-no").value, 10);
    post({ cmd: "correct", throw: isNaN(n) ? 0 : n, dye_up: $("corr-dyeup").checked, events });
  });
  $("enter").addEventListener("click", () => {
    const events = eventsFromBox(); if (!events) return;
    post({ cmd: "throw", dye_up: $("corr-dyeup").checked, events });
  });
  $("undo").addEventListener("click", () => post({ cmd: "undo" }));
  $("start").addEventListener("click", () => {
    const v = (id) => $(id).value.trim() || $(id).placeholder;
    post({ cmd: "start", teams: { A: [v("a1"), v("a2")], B: [v("b1"), v("b2")] },
      team_names: [$("ta").value.trim(), $("tb").value.trim()], first: $("first").value,
      house: { target_points: parseInt($("target").value, 10) || 10 } });
  });
  $("end").addEventListener("click", () => { if (confirm("End the match?")) post({ cmd: "end" }); });
  $("logout").addEventListener("click", async () => {
    await fetch("/console/logout", { method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } });
    csrf = null; showLogin();
  });
}
wire();
// Tests (and impatient officials) must not submit the PIN before the
// handler above is attached: a native submit would reload the page.
document.body.dataset.ready = "1";
fetch("/console/session", { credentials: "same-origin" }).then((r) => r.ok ? r.json() : null)
  .then((j) => { if (j) { csrf = j.csrf; showDesk(); } });
const es = new EventSource("/api/events");
es.addEventListener("state", (e) => render(JSON.parse(e.data)));
