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
// The ruling in words, as the referee would say it; names as for teamName.
function rulingWords(r, names) {
  if (!r) return "";
  const pts = [];
  for (const t of ["A", "B"]) if (r.points && r.points[t]) pts.push(r.points[t] + " to " + teamName(names, t));
  let s = "Throw " + r.throw + " by " + r.thrower + ": ";
  if (r.retoss) s += "re-toss";
  else if (pts.length) s += pts.join(", ");
  else s += r.dead ? "dead, no points" : "no points";
  // Where a measurement decided (BD-P5 under low_call=auto) the ruling says
  // why in words: players see the measured height, not only "dead".
  if (r.note) s += " - " + r.note;
  if (r.over) s += ". Game over";
  return s;
}
