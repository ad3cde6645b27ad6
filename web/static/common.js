"use strict";
// Shared helpers for the dyeref pages: no frameworks, nothing fetched from elsewhere.
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
const DUTY_WORDS = {
  kill_n_fill: "kill n' fill", follow_partner: "follow your partner",
  shotgun: "shotgun the mine", finish_winners_cups: "finish the winners' cups",
  naked_lap: "naked lap",
};
// A team by the name it was given at the start (the state's team_names),
// else "team A" ("Team A" to open a line).
function teamName(names, t, capital) {
  return (names && names[t]) || ((capital ? "Team " : "team ") + t);
}
function dutyText(d, names) {
  const who = d.player || teamName(names, d.team);
  return who + ": " + (DUTY_WORDS[d.duty] || d.duty) + " (" + d.why + ")";
}
// What a ruling gave, in words: "1 to Orange", "dead, no points", "re-toss".
function pointsWords(r, names) {
  if (!r) return "";
  const pts = [];
  for (const t of ["A", "B"]) if (r.points && r.points[t]) pts.push(r.points[t] + " to " + teamName(names, t));
  if (r.retoss) return "re-toss";
  if (pts.length) return pts.join(", ");
  return r.dead ? "dead, no points" : "no points";
}
// The ruling in words, as the referee would say it; names as for teamName.
function rulingWords(r, names) {
  if (!r) return "";
  let s = "Throw " + r.throw + " by " + r.thrower + ": " + pointsWords(r, names);
  // Where a measurement decided (BD-P5 under low_call=auto) the ruling says
  // why in words: players see the measured height, not only "dead".
  if (r.note) s += " - " + r.note;
  if (r.over) s += ". Game over";
  return s;
}
// A seat ("a1".."b2") of a match's players ({"A":[p,p],"B":[p,p]}) from a
// seat, a name (exact, then any case) or an index 0-3, as the API takes
// them; null when none fits.
const SEATS = ["a1", "a2", "b1", "b2"];
function seatOf(players, who) {
  if (who === undefined || who === null) return null;
  if (typeof who === "number") return SEATS[who] || null;
  if (SEATS.includes(who)) return who;
  const names = players ? [...players.A, ...players.B] : [];
  let i = names.indexOf(who);
  if (i < 0) {
    const low = names.map((n) => n.toLowerCase()), w = String(who).toLowerCase();
    if (low.filter((n) => n === w).length === 1) i = low.indexOf(w);
  }
  return i < 0 ? null : SEATS[i];
}
function seatName(players, seat) {
  const i = SEATS.indexOf(seatOf(players, seat));
  if (i < 0) return String(seat);
  return players ? players[i < 2 ? "A" : "B"][i % 2] : seat;
}
// One match-log event in words, players by name: "B's half", "caught by Cy, one hand".
function eventWords(e, players) {
  const who = (p) => seatName(players, p);
  switch (e.at) {
  case "table": return e.half === "line" ? "the line" : e.half ? e.half + "'s half" : "the table";
  case "cup": return who(e.owner) + "'s cup" + (e.sink ? ": sunk" : e.popout ? ": in and out" : "");
  case "mine": return "the mine";
  case "floor": return "the floor";
  case "rest": return "at rest, face " + e.face;
  case "catch": return "caught by " + who(e.by) + ", " + (e.hands === 2 ? "two hands" : "one hand") +
    (e.trapped ? ", trapped" : "") + (e.over_table ? ", over the table" : "");
  case "kick": return "kicked by " + who(e.by) + (e.part ? " (" + e.part + ")" : "");
  case "low_call": return "called low" + (e.by ? " by " + who(e.by) : "");
  case "retoss": return "re-toss";
  default: return e.at;
  }
}
// The team colours START may choose (core's mlog_bd_palette), as the wall
// and console draw them: each reads on the dark background.
const PALETTE = {
  orange: "#ff7a3d", blue: "#3db4ff", green: "#3ddc84", yellow: "#ffd84d",
  red: "#ff5c5c", purple: "#c39bff", pink: "#ff7ac8", white: "#f2f4f7",
};
// What a throw did, in a player's words, from its events and ruling
// (state.last): "Sink in Cy's cup! 2 to Orange: Cy kills and fills",
// "Stopped on the table: no point", "taken back by the official".
function throwWords(r, names) {
  if (!r) return "";
  if (r.undone) return "taken back by the official";
  if (r.retoss) return "re-toss";
  const evs = r.events || [];
  const find = (at) => evs.find((e) => e.at === at);
  const cup = find("cup"), ctch = find("catch"), kick = find("kick"), mine = find("mine");
  const lastEv = evs.length ? evs[evs.length - 1] : null;
  let what;
  if (cup && cup.sink) what = "Sink in " + cup.owner + "'s cup!";
  else if (cup) what = "In and out of " + cup.owner + "'s cup";
  else if (mine) what = "Hit the mine";
  else if (ctch) what = "Caught by " + ctch.by + (ctch.hands === 2 ? ", two hands" : "");
  else if (kick) what = "Kicked by " + kick.by;
  else if (find("low_call")) what = "Called low";
  else if (lastEv && lastEv.at === "floor") what = find("table") ? "Off the table to the floor" : "Straight to the floor";
  else if (find("table") || find("rest")) what = "Stopped on the table";
  else what = "Thrown";
  const pts = [];
  for (const t of ["A", "B"]) if (r.points && r.points[t]) pts.push(r.points[t] + " to " + teamName(names, t, true));
  let s = what + " " + (pts.length ? pts.join(", ") : r.dead ? "dead: no point" : "no point");
  if (!/[!.]$/.test(what)) s = what + ": " + (pts.length ? pts.join(", ") : r.dead ? "dead, no point" : "no point");
  if (r.note) s += " (" + r.note + ")";
  const drinks = (r.duties || []).map((d) => d.duty === "kill_n_fill" ? (d.player || teamName(names, d.team, true)) + " kills and fills"
    : (d.player || teamName(names, d.team, true)) + ": " + (DUTY_WORDS[d.duty] || d.duty));
  if (drinks.length) s += ": " + drinks.join(", ");
  return s;
}
// The event stream, kept open: the browser retries by itself after a drop,
// but gives up for good on an answer that is not a stream (429 past the
// server's caps, a restart's 503); then a new one after a growing, jittered
// wait (2 s doubling to 30 s), so a reconnecting crowd does not come back
// at once. Every stream starts with the whole state: nothing is lost.
// on: { event name: handler }, plus optional onopen and onerror. Gives
// { close() }, which ends it for good.
function openEvents(on) {
  let wait = 2000, es = null, closed = false;
  function open() {
    if (closed) return;
    es = new EventSource("/api/events");
    for (const k of Object.keys(on)) if (k !== "onopen" && k !== "onerror") es.addEventListener(k, on[k]);
    es.onopen = () => { wait = 2000; if (on.onopen) on.onopen(); };
    es.onerror = () => {
      if (on.onerror) on.onerror();
      if (es.readyState !== EventSource.CLOSED) return;
      setTimeout(open, wait / 2 + Math.random() * wait / 2);
      wait = Math.min(wait * 2, 30000);
    };
  }
  open();
  return { close() { closed = true; es.close(); } };
}
