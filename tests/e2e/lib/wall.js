// The wall screen (/) at 1920x1080, driven over the DevTools protocol
// (cdp_pipe.js): see browser_wall.sh. Screenshots go to OUTDIR.
//   node wall.js CHROMIUM BASE OUTDIR PIN DAEMON_PID
"use strict";
const { launch, request, sleep, slow, consoleLogin } = require("./cdp_pipe.js");

const [chromium, base, outdir, pin, daemonPid] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);
let post = null;
async function command(body) {
  const r = await post(body);
  if (r.status !== 200) die("command " + JSON.stringify(body) + ": " + r.status + " " + JSON.stringify(r.body));
  return r.body;
}
const state = async () => JSON.parse((await request("GET", base + "/api/state")).body);
const text = (id) => "document.getElementById('" + id + "').textContent";
async function viewport(s, w, h) {
  await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: false }, s);
  await waitFor(s, "innerWidth + 'x' + innerHeight", w + "x" + h, "viewport " + w + "x" + h);
  await sleep(slow(200));
}

// Every piece of text on screen (a text node's parent, visible, not inside
// a hidden box) with its computed size: none under 40 px at 1080.
const SIZES = `(() => {
  const fs = (id) => parseFloat(getComputedStyle(document.getElementById(id)).fontSize);
  const small = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode());) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.bottom < 0 || r.top > innerHeight) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < 40) small.push(n.textContent.trim() + " " + size);
  }
  return { score: fs('score-A'), next: fs('next'), last: fs('last'), small };
})()`;
// Nothing runs off the screen: every visible element of the board within
// the viewport, the health strip's bottom on it.
const OVERFLOW = `(() => {
  const out = [];
  for (const e of document.querySelectorAll('#info, #score-area, #status, #status *, #health, #health *, .team-name, .score span')) {
    if (!e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    if (r.right > innerWidth + 1 || r.left < -1 || r.bottom > innerHeight + 1 || r.top < -1)
      out.push((e.id || e.className || e.tagName) + " " + Math.round(r.left) + "," + Math.round(r.top) + "-" + Math.round(r.right) + "," + Math.round(r.bottom));
  }
  return out.concat(document.documentElement.scrollWidth > innerWidth ? ["scrollWidth " + document.documentElement.scrollWidth] : []);
})()`;

// The sink goes into a cup of the team that does not throw.
async function sinkThrow() {
  const st = await state();
  const owner = st.next.team === "A" ? "b1" : "a1";
  await command({ cmd: "throw", events: [{ at: "table", half: st.next.team === "A" ? "B" : "A" }, { at: "cup", owner, sink: true }] });
  return { st, owner: st.players[owner[0].toUpperCase()][Number(owner[1]) - 1] };
}

async function main() {
  setTimeout(() => die("timed out"), slow(90000)).unref();
  post = await consoleLogin(base, pin);
  // Colours chosen at START; one outside the palette, or both teams alike, is refused.
  for (const colors of [{ A: "mauve" }, { A: "red", B: "red" }, { B: "orange" }]) {
    const bad = await post({ cmd: "start", teams: { A: ["Ann", "Bo"], B: ["Cy", "Di"] }, colors });
    if (bad.status !== 400) die("colours " + JSON.stringify(colors) + " -> " + bad.status);
  }
  await command({ cmd: "start", teams: { A: ["Ann", "Bo"], B: ["Cy", "Di"] }, team_names: ["Green", "Purple"],
    colors: { A: "green", B: "purple" }, house: { target_points: 5, win_by: 2 } });
  const s = await open(base + "/");
  await viewport(s, 1920, 1080);
  await waitFor(s, "document.body.dataset.ready", "1", "wall loaded");
  await waitFor(s, "document.body.dataset.colorA + ' ' + document.body.dataset.colorB", "green purple", "team colours");
  // The table's [table] name leads the line and names the tab: a bar has several walls.
  await waitFor(s, text("target") + ".startsWith('Table 2 - Match 1: to 5, win by 2')", true, "the table's name and the match's target");
  await waitFor(s, "document.title", "Table 2 - dyeref scoreboard", "the table's name in the title");
  await waitFor(s, "getComputedStyle(document.getElementById('name-A')).color", "rgb(61, 220, 132)", "team A in green");
  await waitFor(s, "getComputedStyle(document.getElementById('name-B')).color", "rgb(195, 155, 255)", "team B in purple");

  // Stopped on the table: no point, rule ID small beside it.
  await command({ cmd: "throw", events: [{ at: "table", half: "B" }, { at: "rest", face: 3 }] });
  await waitFor(s, text("last").slice(0, 0) + text("last") + ".startsWith('Throw 1 by Ann: Stopped on the table: no point')", true, "a throw that stopped on the table");
  await waitFor(s, text("rules") + ".includes('BD-')", true, "the rule's ID");
  await waitFor(s, text("rules") + ".includes('lands on')", false, "no rule text quoted");
  // Whose throw: the thrower's name in the team's colour, a marker by its score.
  const st1 = await state();
  await waitFor(s, "document.querySelector('#next .thrower').textContent", st1.next.player, "whose throw");
  await waitFor(s, "getComputedStyle(document.getElementById('next')).color", st1.next.team === "A" ? "rgb(61, 220, 132)" : "rgb(195, 155, 255)", "the thrower in the team's colour");
  await waitFor(s, "document.getElementById('team-" + st1.next.team + "').classList.contains('throwing')", true, "the marker by the throwing team");

  // A sink, with its kill n' fill in words.
  const { owner } = await sinkThrow();
  await waitFor(s, text("last") + ".includes(\"Sink in " + owner + "'s cup! 2 to \") && " + text("last") + ".includes('" + owner + " kills and fills')", true, "the sink in words");
  await waitFor(s, "document.querySelectorAll('#strip li').length", 2, "the strip of throws");
  const m = await evaluate(s, SIZES);
  console.log("sizes at 1920x1080: score " + m.score + " px, whose throw " + m.next + " px, last ruling " + m.last + " px; small: " + JSON.stringify(m.small));
  if (!(m.score >= 300)) die("the score is " + m.score + " px");
  if (!(m.next >= 64) || !(m.last >= 64)) die("whose throw / last ruling: " + m.next + " / " + m.last + " px");
  if (m.small.length) die("text under 40 px: " + JSON.stringify(m.small));
  const of = await evaluate(s, OVERFLOW);
  if (of.length) die("off the screen at 1920x1080: " + JSON.stringify(of));
  // The health strip on one line at 1920x1080 (it wrapped with its links);
  // the links come while a mouse moves.
  const strip = "(() => { const h = document.getElementById('health'); return h.clientHeight < 2 * parseFloat(getComputedStyle(h).fontSize); })()";
  await waitFor(s, strip, true, "the health strip on one line at 1920x1080");
  await waitFor(s, "document.querySelector('#health a').getClientRects().length", 0, "no links on the wall without a mouse");
  await screenshot(s, "wall-play.png");
  await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 500, y: 500 }, s);
  await waitFor(s, "document.querySelector('#health a').getClientRects().length > 0", true, "the links while a mouse moves");
  await waitFor(s, strip, true, "the health strip on one line with its links");

  // A correction: throw 1 was on the floor after all.
  const before = (await state()).score;
  await command({ cmd: "correct", throw: 1, events: [{ at: "table", half: "B" }, { at: "floor" }] });
  const after = (await state()).score;
  await waitFor(s, text("announce") + ".startsWith('Throw 1 corrected by ')", true, "the correction announced");
  await waitFor(s, text("announce") + ".includes('now " + after.A + "-" + after.B + " (was " + before.A + "-" + before.B + ")')", true, "the correction's new score");
  await screenshot(s, "wall-correction.png");

  // An undo: the last throw taken back, never "a disputed call".
  await command({ cmd: "throw", events: [{ at: "table", half: "A" }, { at: "floor" }] });
  await command({ cmd: "undo" });
  await waitFor(s, text("announce") + ".startsWith('Throw 3 taken back by ')", true, "the undo announced");
  await waitFor(s, text("last") + ".startsWith('Throw 3 by ') && " + text("last") + ".endsWith(': taken back by the official')", true, "the undone throw in words");
  await waitFor(s, "/disputed|BD-P9/.test(document.body.innerText)", false, "no disputed call");
  await screenshot(s, "wall-undo.png");

  // A review: pending, then its outcome.
  await command({ cmd: "throw", events: [{ at: "table", half: "B", source: "piezo", confidence: 0.5 }, { at: "rest", face: 2 }] });
  await waitFor(s, text("review") + ".startsWith('UNDER REVIEW: throw 4')", true, "the review pending");
  await command({ cmd: "confirm" });
  await waitFor(s, text("announce") + ".startsWith('Review of throw 4: confirmed by ')", true, "the review's outcome");
  await waitFor(s, "document.getElementById('review').classList.contains('hidden')", true, "the review banner gone");

  // The other layouts do not overflow.
  await viewport(s, 1280, 720);
  let o = await evaluate(s, OVERFLOW);
  if (o.length) die("off the screen at 1280x720: " + JSON.stringify(o));
  await screenshot(s, "wall-720.png");
  await viewport(s, 1080, 1920);
  o = await evaluate(s, OVERFLOW);
  if (o.length) die("off the screen in portrait: " + JSON.stringify(o));
  await screenshot(s, "wall-portrait.png");
  await viewport(s, 1920, 1080);

  // Match point, then the win screen: the largest text, kept after END
  // until the next match starts.
  for (let i = 0; i < 12 && !(await state()).over; i++) {
    const st = await state();
    const pts = pointFor(st);
    if (pts.length) await waitFor(s, text("point") + ".startsWith('Match point')", true, "match point shown");
    await sinkThrow();
  }
  const won = await state();
  if (!won.over) die("no winner after the sinks: " + JSON.stringify(won.score));
  const wname = won.team_names[won.winner];
  await waitFor(s, text("win-text"), wname + " win!", "the win screen");
  const big = await evaluate(s, `(() => { const w = parseFloat(getComputedStyle(document.getElementById('win-text')).fontSize);
    let most = 0; for (const e of document.querySelectorAll('#win ~ *, #status *, .team-name'))
      if (e.getClientRects().length) most = Math.max(most, parseFloat(getComputedStyle(e).fontSize));
    return { w, most }; })()`);
  if (!(big.w > big.most)) die("the win text is not the largest: " + JSON.stringify(big));
  await screenshot(s, "wall-win.png");
  await command({ cmd: "end" });
  await sleep(slow(300));
  await waitFor(s, "document.getElementById('win').classList.contains('hidden')", false, "the win screen after END");
  // A wall loaded between matches (a reload, a TV switched on) shows it too.
  await send("Page.reload", {}, s);
  await waitFor(s, "document.body.dataset.ready", "1", "wall reloaded");
  await waitFor(s, text("win-text"), wname + " win!", "the win screen after a reload");
  await waitFor(s, text("win-score"), won.score.A + " - " + won.score.B, "the final score after a reload");

  // A dice game: the current player highlighted, the last move in words.
  await command({ cmd: "start", game: "yatzy", players: ["ann", "bob"] });
  await command({ cmd: "dice", move: { type: "turn", rolls: [[1, 1, 2, 5, 6]], box: "ones" } });
  await waitFor(s, "document.getElementById('win').classList.contains('hidden')", true, "the win screen gone at the next match");
  await waitFor(s, text("sheet-last") + ".startsWith('Last: ')", true, "the dice game's last move");
  await waitFor(s, "document.querySelector('#sheet th.turn') && document.querySelector('#sheet th.turn').textContent", "bob", "whose roll, highlighted");
  await screenshot(s, "wall-dice.png");

  // A dice game played to its end: who lost and buys, as the title, large.
  await command({ cmd: "end" });
  const horse = require("fs").readFileSync(__dirname + "/../../data/dice/horse-full.jsonl", "utf8")
    .split("\n").filter((l) => l).map((l) => JSON.parse(l));
  await command({ cmd: "start", game: "horse", players: horse[0].players });
  for (const move of horse.slice(1)) await command({ cmd: "dice", move });
  await waitFor(s, text("sheet-title"), "bob loses horse and buys!", "the dice game's loser on the wall");
  const title = await evaluate(s, "parseFloat(getComputedStyle(document.getElementById('sheet-title')).fontSize)");
  if (!(title >= 90)) die("the dice game's result is " + title + " px at 1080");
  await screenshot(s, "wall-dice-over.png");

  // Offline: the daemon killed, the wall says so within 5 s.
  await waitFor(s, text("h-live"), "live", "live before the kill");
  const t0 = Date.now();
  process.kill(Number(daemonPid), "SIGKILL");
  await waitFor(s, "document.body.classList.contains('offline') && " + text("offline") + ".startsWith('Scoreboard offline since ')", true, "offline", 5000);
  console.log("offline shown " + (Date.now() - t0) + " ms after the kill");
  await waitFor(s, "document.querySelectorAll('#health .h.ok').length", 0, "no health item green when unknown");
  await screenshot(s, "wall-offline.png");
  await send("Browser.close").catch(() => {});
  console.log("ok: sizes, colours, a table stop, a sink, a correction, an undo, a review, match point, the win screen, a dice game, a dice game's loser, offline");
  process.exit(0);
}
function pointFor(st) {
  const h = st.house, at = [];
  for (const [t, o] of [["A", "B"], ["B", "A"]]) if (st.score[t] + 1 >= h.target_points && st.score[t] + 1 - st.score[o] >= h.win_by) at.push(t);
  return at;
}
main().catch((e) => die(e.stack || String(e)));
