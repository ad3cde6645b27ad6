// The history pages: /matches, /matches/N, /players, /players/NAME, from
// the JSON behind each (/api/matches?page=P, /api/matches/N/throws and
// /log, /api/players[/NAME]).
"use strict";

// A 503 is the daemon reading a large history in slices: ask again (a
// minute at most), saying so.
function hget(url, tries) {
  tries = tries || 0;
  return fetch(url, { cache: "no-store" }).then(r => {
    if (r.status === 503 && tries < 60) {
      const msg = document.getElementById("msg");
      if (msg) msg.textContent = "Reading the stored matches\u2026";
      return new Promise(ok => setTimeout(ok, 1000)).then(() => hget(url, tries + 1));
    }
    if (!r.ok) return r.json().catch(() => ({})).then(j => { throw new Error(j.error || (url + ": " + r.status)); });
    const msg = document.getElementById("msg");
    if (msg && tries) msg.textContent = "";
    return (r.headers.get("Content-Type") || "").startsWith("application/json") ? r.json() : r.text();
  });
}
function hel(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function link(href, text, cls) { const a = hel("a", cls, text); a.href = href; return a; }
function playerLink(name) { return link("/players/" + encodeURIComponent(name), name, "player-link"); }
function when(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  const p = n => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + " " + p(d.getHours()) + ":" + p(d.getMinutes());
}
// A table that turns into labelled rows on a phone (history.css).
function table(cols, rows) {
  const t = hel("table", "hist-table"), head = hel("tr");
  cols.forEach(c => head.appendChild(hel("th", null, c)));
  const th = hel("thead"); th.appendChild(head); t.appendChild(th);
  const tb = hel("tbody");
  rows.forEach(r => {
    const tr = hel("tr");
    r.forEach((v, i) => {
      const td = hel("td");
      td.dataset.label = cols[i];
      if (v instanceof Node) td.appendChild(v); else td.textContent = v === undefined || v === null ? "" : String(v);
      if (!td.textContent) td.classList.add("empty");	/* a phone shows no label without a value */
      tr.appendChild(td);
    });
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  return t;
}
function teamLine(m, t) {
  const s = hel("span", "hist-team");
  const name = m.teams && m.teams[t] ? m.teams[t] : t;
  s.appendChild(hel("b", null, name));
  if (m.players && m.players[t]) s.appendChild(document.createTextNode(" (" + m.players[t].join(" & ") + ")"));
  return s;
}

function showMatches(body, title) {
  const q = new URLSearchParams(location.search);
  const page = Number(q.get("page") || "1");
  return hget("/api/matches?page=" + (page > 0 ? Math.floor(page) : 1)).then(d => {
    title.textContent = "Matches";
    body.appendChild(hel("p", "hist-sum", d.total + " matches, newest first; page " + d.page + " of " + d.pages));
    const rows = d.matches.map(m => {
      const teams = hel("span");
      if (m.game === "beerdie") {
        teams.appendChild(teamLine(m, "A")); teams.appendChild(document.createTextNode(" v ")); teams.appendChild(teamLine(m, "B"));
      } else teams.textContent = m.game;
      const sc = m.score && m.score.A !== undefined ? m.score.A + "-" + m.score.B : "";
      const win = m.winner ? (m.teams && m.teams[m.winner] ? m.teams[m.winner] : m.winner) : (m.ended ? "none" : "under way");
      return [link("/matches/" + m.match, "Match " + m.match, "match-link"), when(m.start_wall_ms), m.game, teams, sc, win];
    });
    body.appendChild(table(["Match", "Date", "Game", "Teams", "Score", "Winner"], rows));
    const nav = hel("nav", "row hist-pages");
    if (d.page > 1) nav.appendChild(link("/matches?page=" + (d.page - 1), "\u2190 newer"));
    if (d.page < d.pages) nav.appendChild(link("/matches?page=" + (d.page + 1), "older \u2192", "older"));
    body.appendChild(nav);
  });
}

function correctionWords(line, names) {
  const a = line.audit || {};
  let s = line.undo ? "Throw " + line.throw + " taken back" : "Throw " + line.throw + " corrected";
  if (a.official) s += " by " + a.official;
  if (a.wall_ms) s += " at " + when(a.wall_ms);
  if (a.reason) s += ": " + a.reason;
  return s;
}

function showMatch(body, title, n) {
  title.textContent = "Match " + n;
  return hget("/api/matches/" + n + "/throws").then(d => {
    const names = d.team_names || {};
    const pl = d.players || {};
    const head = hel("section", "hist-head");
    ["A", "B"].forEach(t => {
      const p = hel("p");
      p.appendChild(hel("b", null, (names[t] || t) + ": "));
      (pl[t] || []).forEach((nm, i) => { if (i) p.appendChild(document.createTextNode(", ")); p.appendChild(playerLink(nm)); });
      head.appendChild(p);
    });
    const last = d.throws.length ? d.throws[d.throws.length - 1].score : { A: 0, B: 0 };
    head.appendChild(hel("p", "hist-score", "Score " + last.A + "-" + last.B + ", " + d.throws.length + " throws"));
    head.appendChild(link("/matches/" + n + ".csv", "Download the throws as CSV", "csv-link"));
    body.appendChild(head);
    const rows = d.throws.map(t => {
      let words = t.words;
      try { if (typeof rulingWords === "function") words = rulingWords(t.ruling, names) || words; } catch (e) { /* the plain words stand */ }
      const flags = [t.corrected ? "corrected" : "", t.undone ? "taken back" : "", t.review ? "review" : ""].filter(x => x).join(", ");
      return [t.throw, playerLink(t.thrower_name), words, (t.ruling.why || []).join(" "), t.score.A + "-" + t.score.B, flags,
              link("/replay/" + t.throw + "?match=" + n, "replay", "replay-link")];
    });
    body.appendChild(table(["Throw", "Thrower", "Ruling", "Rules", "Score", "Notes", "Replay"], rows));
    return hget("/api/matches/" + n + "/log").then(text => {
      const corr = String(text).split("\n").filter(l => l).map(l => JSON.parse(l)).filter(l => l.type === "correct");
      const sec = hel("section", "hist-corrections");
      sec.appendChild(hel("h2", null, "Corrections"));
      if (!corr.length) sec.appendChild(hel("p", null, "None."));
      corr.forEach(c => sec.appendChild(hel("p", null, correctionWords(c, names))));
      body.appendChild(sec);
    });
  }, err => hget("/api/matches/" + n + "/sheet").then(s => showSheet(body, s), () => { throw err; }));
}

function showSheet(body, s) {
  const sec = hel("section", "hist-sheet");
  sec.appendChild(hel("h2", null, "Score sheet (" + (s.game || "dice") + ")"));
  const players = s.players || [];
  const rows = (s.rows || []).map(r => [r.name].concat((r.cells || []).map(c => c === null ? "" : c)));
  sec.appendChild(table(["Box"].concat(players), rows));
  if (s.winner) sec.appendChild(hel("p", "hist-score", "Winner: " + s.winner));
  if (s.loser) sec.appendChild(hel("p", "hist-score", "Loser: " + s.loser));
  body.appendChild(sec);
  const moves = hel("section", "hist-turns");
  moves.appendChild(hel("h2", null, "Moves"));
  (s.turns || []).forEach(t => moves.appendChild(hel("p", t.undone ? "undone" : null,
    "Turn " + t.turn + ": " + (t.text || t.kind) + (t.undone ? " (undone)" : "") + (t.corrected ? " (corrected)" : ""))));
  body.appendChild(moves);
}

const FIGS = [["matches", "Matches"], ["won", "Won"], ["points", "Points"], ["sinks", "Sinks"], ["cup_hits", "Cup hits"],
              ["catches", "Catches"], ["drops", "Drops"], ["fives", "Fives on the table"], ["kill_n_fills", "Kill n' fills drunk"]];

function showPlayers(body, title) {
  title.textContent = "Players";
  return hget("/api/players").then(d => {
    body.appendChild(hel("p", "hist-sum", d.players.length + " players across the stored Beer Die matches."));
    body.appendChild(link("/players.csv", "Download the table as CSV", "csv-link"));
    body.appendChild(table(["Player"].concat(FIGS.map(f => f[1])),
      d.players.map(p => [playerLink(p.name)].concat(FIGS.map(f => p[f[0]])))));
  });
}

function showPlayer(body, title, name) {
  title.textContent = name;
  return hget("/api/players/" + encodeURIComponent(name)).then(p => {
    const dl = hel("dl", "hist-figs");
    FIGS.forEach(f => { dl.appendChild(hel("dt", null, f[1])); dl.appendChild(hel("dd", null, p[f[0]])); });
    body.appendChild(dl);
    const played = p.played || [];
    const sec = hel("section", "hist-played");
    sec.appendChild(hel("h2", null, played.length < p.matches ? "The last " + played.length + " of " + p.matches + " matches" : "Matches"));
    sec.appendChild(table(["Match", "Date", "Team", "Against", "Score", "Result"], played.map(m => {
      const own = m.score[m.team], other = m.score[m.team === "A" ? "B" : "A"];
      return [link("/matches/" + m.match, "Match " + m.match, "match-link"), when(m.start_wall_ms), m.team_name || m.team,
              m.against, own + "-" + other, m.won === null ? "not over" : m.won ? "won" : "lost"];
    })));
    body.appendChild(sec);
  });
}

function start() {
  const root = document.getElementById("history"), body = document.getElementById("body");
  const title = document.getElementById("title"), msg = document.getElementById("msg");
  const path = location.pathname;
  let done;
  // One page for the four (web/route.c routes them all to history.html).
  if (path === "/matches") done = showMatches(body, title);
  else if (path.startsWith("/matches/")) done = showMatch(body, title, Number(path.split("/")[2]));
  else if (path === "/players") done = showPlayers(body, title);
  else {
    let name = "";
    try { name = decodeURIComponent(path.slice("/players/".length)); } catch (e) { name = ""; }
    done = showPlayer(body, title, name);
  }
  done.then(() => { document.title = "dyeref: " + title.textContent; root.dataset.ready = "1"; }, e => { msg.textContent = e.message; root.dataset.ready = "error"; });
}
document.addEventListener("DOMContentLoaded", start);
