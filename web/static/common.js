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
