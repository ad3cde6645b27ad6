// Drives headless chromium over the DevTools protocol (cdp_pipe.js). Opens
// the scoreboard, has a throw judged through the console API, waits for the
// score to change on the page (it arrives over server-sent events), then
// opens /replay/1, the console (a call, a doubtful ruling confirmed from its
// review banner), and a dice game started and played from the console, and
// the replay of match NOTE_MATCH's first throw, whose ruling has a note (a
// measured toss too low), the fullest board a Beer Die match gives (a
// doubtful winning sink at 8-0), which must fit the screen, and last a match
// won under its own house rules, whose BD-W1 text must state them.
// Screenshots go to OUTDIR.
//   node cdp.js CHROMIUM BASE OUTDIR PIN NOTE_MATCH
"use strict";
const { launch, request, sleep, slow, consoleLogin } = require("./cdp_pipe.js");

const [chromium, base, outdir, pin, noteMatch] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);

// A console command with the session's cookie and CSRF token (main logs in).
let post = null;
async function command(body) {
  const r = await post(body);
  if (r.status !== 200) die("command " + JSON.stringify(body) + ": " + r.status + " " + JSON.stringify(r.body));
  return r;
}

// The dice sheet on the wall screen, read from 5 m: on a 40" 1080p screen
// (50 cm tall) a letter needs some 2.4 cm (an em of 4.8 % of the screen's
// height, 52 px) to be read at that distance. Every cell's type is at
// least that, and the whole sheet is on the screen, above the health strip.
const SHEET_MIN_EM = 0.048;
async function sheetReadable(session, what) {
  const m = await evaluate(session, `(() => {
    const cells = [...document.querySelectorAll('#sheet-tables td, #sheet-tables th')];
    const sizes = cells.map((c) => parseFloat(getComputedStyle(c).fontSize));
    const r = document.getElementById('sheet-tables').getBoundingClientRect();
    const foot = document.getElementById('health').getBoundingClientRect();
    return { n: cells.length, min: Math.min(...sizes), h: innerHeight, w: innerWidth,
      right: r.right, bottom: r.bottom, foot: foot.top,
      blocks: document.body.dataset.sheetBlocks };
  })()`);
  const em = m.min / m.h;
  console.log(`dice sheet ${what}: ${m.n} cells, smallest type ${m.min.toFixed(1)} px = ` +
    `${(100 * em).toFixed(2)} % of the height, ${m.blocks} block(s)`);
  if (!(m.n > 30)) die(what + ": the sheet has " + m.n + " cells");
  if (!(em >= SHEET_MIN_EM)) die(what + ": sheet type " + m.min + " px is under " +
    (100 * SHEET_MIN_EM) + " % of a " + m.h + " px screen");
  if (m.right > m.w + 0.5 || m.bottom > m.foot + 0.5)
    die(what + ": the sheet runs off the screen (" + JSON.stringify(m) + ")");
}

// The most a Beer Die board holds: the review banner, the winner, the last
// ruling with 5 rules (BD-P8, BD-P11, BD-W2, BD-D1, BD-W1) and every duty
// of the match still open (the wall groups them: one line for Cy, one for
// Di, one for the losing team, BD-W3 and BD-W4 at 10-0). Every duty and the
// health strip must lie on the screen, at 1920x1080 and 1280x720, the score
// still a readable size (it gives way first).
const SINK_B1 = { cmd: "throw", events: [{ at: "table", half: "B" }, { at: "cup", owner: "b1", sink: true }] };
const SHORT_B = { cmd: "throw", events: [{ at: "table", half: "B" }, { at: "floor" }] };
async function boardOnScreen(session, what) {
  const m = await evaluate(session, `(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, text: e.textContent }; };
    return { h: innerHeight, health: box(document.getElementById('health')),
      duties: [...document.querySelectorAll('#duties li')].map(box),
      rules: document.getElementById('rules').textContent.split(' ').filter(Boolean).map(() => box(document.getElementById('rules'))),
      score: parseFloat(getComputedStyle(document.getElementById('score-A')).fontSize) };
  })()`);
  console.log(`fullest board ${what}: ${m.rules.length} rules, ${m.duties.length} duties, ` +
    `score type ${m.score.toFixed(0)} px, health strip ${m.health.top.toFixed(0)}-${m.health.bottom.toFixed(0)} of ${m.h}`);
  if (m.duties.length !== 3 || m.rules.length !== 5) die(what + ": expected 5 rules and 3 duty lines, got " + JSON.stringify(m));
  for (const e of [...m.rules, ...m.duties, m.health])
    if (e.top < -0.5 || e.bottom > m.h + 0.5) die(what + ": off the screen: " + JSON.stringify(e) + " (height " + m.h + ")");
  if (!(m.score >= 0.1 * m.h)) die(what + ": the score's type is " + m.score + " px");
}
async function fullestBoard(s) {
  await command({ cmd: "end" });
  await command({ cmd: "start", teams: { A: ["Ann", "Bo"], B: ["Cy", "Di"] },
    team_names: ["The Orange Crushers", "Blue Thunder"] });
  for (const t of [SINK_B1, SINK_B1, SHORT_B, SHORT_B, SINK_B1, SINK_B1, SHORT_B, SHORT_B]) await command(t);
  await send("Page.navigate", { url: base + "/" }, s);
  await waitFor(s, "location.pathname === '/' && document.body.dataset.ready === '1'", true, "scoreboard for the fullest board");
  await waitFor(s, "document.getElementById('score-A').textContent", "8", "8-0 before the winning sink");
  await command({ cmd: "throw", events: [{ at: "table", half: "B", source: "piezo", confidence: 0.5 },
    { at: "cup", owner: "b1", sink: true }] });
  await waitFor(s, "document.getElementById('score-A').textContent", "10", "the doubtful winning sink");
  await waitFor(s, "document.getElementById('review').classList.contains('hidden')", false, "review banner");
  // The teams by their names, in the ruling and the duties alike.
  await waitFor(s, "document.getElementById('last').textContent.startsWith('Throw 9 by Ann: Sink in Cy\\'s cup! 2 to The Orange Crushers')",
    true, "the ruling names the team");
  await waitFor(s, "[...document.querySelectorAll('#duties li')].map((e) => e.textContent).join('; ')",
    "Blue Thunder: naked lap, finish the winners' cups; Cy: kill n' fill \u00d75, follow your partner \u00d74; Di: kill n' fill \u00d72",
    "the duties name the team, one line each");
  for (const [w, h] of [[1920, 1080], [1280, 720]]) {
    await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: false }, s);
    await waitFor(s, "innerHeight", h, "viewport " + w + "x" + h);
    await sleep(slow(300));
    await boardOnScreen(s, w + "x" + h);
    await screenshot(s, "scoreboard-full-" + h + ".png");
  }
  await send("Emulation.clearDeviceMetricsOverride", {}, s);
}

// A match under its own house rules (to 3, won by 1) is won 3-0: BD-W1's
// text on the board states those, not the default 10 and 2.
async function houseRulesBoard(s) {
  const point = { cmd: "throw", events: [{ at: "table", half: "B" }, { at: "floor" }] };
  await command({ cmd: "end" });
  await command({ cmd: "start", teams: { A: ["Ann", "Bo"], B: ["Cy", "Di"] }, house: { target_points: 3, win_by: 1 } });
  for (const t of [point, point, SHORT_B, SHORT_B, point]) await command(t);
  await waitFor(s, "document.getElementById('score-A').textContent", "3", "3-0 under the house rules");
  // The rules by ID beside the ruling; the match's own target above.
  await waitFor(s, "document.getElementById('rules').textContent", "BD-P1 BD-W1", "the rules' IDs");
  await waitFor(s, "document.getElementById('target').textContent.includes('to 3, win by 1')", true, "the house rules' target");
  // No team names given: "Team A", "Team B".
  await waitFor(s, "document.getElementById('last').textContent", "Throw 5 by Ann: Off the table to the floor: 1 to Team A",
    "the ruling without names");
  await waitFor(s, "document.getElementById('duties').textContent.startsWith('team B: naked lap, finish the winners\\' cups')", true,
    "the duties without names");
  await screenshot(s, "scoreboard-house.png");
}

async function main() {
  setTimeout(() => die("timed out"), slow(60000)).unref();
  const s = await open(base + "/");
  await waitFor(s, "document.body.dataset.ready", "1", "scoreboard loaded");
  await waitFor(s, "document.getElementById('score-A').textContent", "0", "score before the throw");
  await waitFor(s, "document.getElementById('h-live').textContent", "live", "event stream open");
  await screenshot(s, "scoreboard-before.png");

  // An official enters a throw: B's half, then the floor (BD-P1).
  post = await consoleLogin(base, pin).catch((e) => die(String(e)));
  await command({ cmd: "throw", events: [{ at: "table", half: "B", x: 1.9, y: 0.4 }, { at: "floor" }] });

  await waitFor(s, "document.getElementById('score-A').textContent", "1", "score after the throw");
  await waitFor(s, "document.getElementById('rules').textContent", "BD-P1", "rule shown");
  await screenshot(s, "scoreboard.png");
  // The board is public: its health strip says what is wrong, never a
  // device or a file; the console has those (/console/api/status).
  const status = JSON.parse((await request("GET", base + "/console/api/status", null,
    { Cookie: post.cookie })).body);
  const board = await evaluate(s, "document.body.innerText");
  for (const secret of [status.db_path, "gpiochip", "/dev/"])
    if (board.includes(secret)) die("the board shows " + secret + ": " + board);

  await send("Page.navigate", { url: base + "/replay/1" }, s);
  await waitFor(s, "location.pathname === '/replay/1' && document.body.dataset.ready === '1'", true, "replay loaded");
  await waitFor(s, "document.getElementById('title').textContent", "Match 1, throw 1", "replay title");
  await waitFor(s, "document.querySelectorAll('#drawing circle').length > 5", true, "table drawing");
  // The teams by the names the match was started with (Orange, Blue).
  await waitFor(s, "document.getElementById('ruling').textContent.includes('1 to Orange')", true, "replay ruling");
  await screenshot(s, "replay.png");

  // The console page: PIN through its form, then a call from a button.
  await send("Page.navigate", { url: base + "/console" }, s);
  await waitFor(s, "location.pathname === '/console' && document.body.dataset.ready === '1'", true, "console loaded");
  await evaluate(s, "document.getElementById('pin').value = " + JSON.stringify(pin) +
    "; document.getElementById('login-form').requestSubmit(); true");
  await waitFor(s, "document.getElementById('desk').classList.contains('hidden')", false, "console desk after login");
  await waitFor(s, "document.getElementById('summary').textContent.startsWith('Match 1: A 1 - 0 B')", true, "console summary");
  // The event log's path is the console's (the wall's strip says only "ok").
  await waitFor(s, "/^Event log \\/.*dyeref\\.db: ok$/.test(document.getElementById('store').textContent)", true,
    "the event log's path on the console");
  // So are the sensors' and the camera's whole messages (here: the chip
  // that is not on this machine, libcamera's words).
  for (const k of ["sensors", "camera"])
    await waitFor(s, "document.getElementById('" + k + "-health').textContent.includes(" +
      JSON.stringify(status[k].detail) + ")", true, k + "'s whole message on the console");
  await evaluate(s, "document.querySelector('[data-call=retoss]').click(); true");
  await waitFor(s, "document.getElementById('summary').textContent.includes('2 throws')", true, "re-toss from the console");
  await screenshot(s, "console.png");
  // A doubtful ruling counted at once (review = count, the default): the
  // console's Confirm button confirms the throw its banner names.
  await evaluate(s, "post({ cmd: 'throw', events: [{ at: 'table', half: 'B', confidence: 0.5 }, { at: 'floor' }] }); true");
  await waitFor(s, "!document.getElementById('review-box').classList.contains('hidden') && " +
    "document.getElementById('review-text').textContent.startsWith('Throw 3 under review')", true, "review banner on the console");
  await evaluate(s, "document.getElementById('confirm').click(); true");
  await waitFor(s, "document.getElementById('review-msg').textContent.startsWith('Throw 3 confirmed')", true,
    "the answer beside Confirm");
  const t3 = JSON.parse((await request("GET", base + "/api/matches/1/throws/3")).body);
  if (t3.confirmed !== true) die("throw 3 not confirmed from the console: " + JSON.stringify(t3.confirmed));

  // A dice game from the console's own controls: end the Beer Die match,
  // start Yatzy, tap the dice of ann's turn, write it in "ones" (YZ-4).
  await evaluate(s, "post({ cmd: 'end' }); true");
  await waitFor(s, "document.getElementById('summary').textContent", "No match under way.", "match ended");
  await evaluate(s, "document.getElementById('dgame').value = 'yatzy';" +
    "document.getElementById('dplayers').value = 'ann, bob';" +
    "document.getElementById('dstart').click(); true");
  await waitFor(s, "/^Dice match \\d+ \\(yatzy\\)/.test(document.getElementById('summary').textContent)", true, "dice game started");
  await evaluate(s, "for (const d of [1, 1, 2, 5, 6]) document.querySelector('[data-die=\"' + d + '\"]').click();" +
    "document.getElementById('dbox').value = 'ones'; document.getElementById('dturn').click(); true");
  await waitFor(s, "document.getElementById('summary').textContent.includes('bob to roll')", true, "turn entered by tapping");
  await screenshot(s, "console-dice.png");

  // The wall screen shows the live sheet and redraws it on the next turn.
  await send("Page.navigate", { url: base + "/" }, s);
  await waitFor(s, "location.pathname === '/' && document.body.dataset.ready === '1'", true, "scoreboard reloaded");
  await waitFor(s, "document.getElementById('sheet-tables').textContent.includes('ones2')", true, "ann's ones on the sheet");
  await waitFor(s, "document.getElementById('h-live').textContent", "live", "event stream open again");
  await command({ cmd: "dice", move: { type: "turn", rolls: [[1, 2, 3, 4, 6]], box: "chance" } });
  await waitFor(s, "document.getElementById('sheet-tables').textContent.includes('chance16')", true, "bob's chance live");
  await screenshot(s, "scoreboard-dice.png");
  await sheetReadable(s, "1920x1080");
  // Another screen: the sheet scales with the viewport.
  await send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 720, deviceScaleFactor: 1, mobile: false }, s);
  await waitFor(s, "innerHeight", 720, "viewport 1280x720");
  await sleep(slow(300));
  await sheetReadable(s, "1280x720");
  await screenshot(s, "scoreboard-dice-720.png");

  // A ruling decided by a measurement says so (BD-P5, low_call=auto).
  await send("Emulation.clearDeviceMetricsOverride", {}, s);
  await send("Page.navigate", { url: base + "/replay/1?match=" + noteMatch }, s);
  await waitFor(s, "location.pathname === '/replay/1' && document.body.dataset.ready === '1'", true, "imported replay loaded");
  await waitFor(s, "document.getElementById('ruling').textContent.includes('dead, no points - too low: the measured toss height, 0.50 m')",
    true, "ruling's note shown");

  await fullestBoard(s);
  await houseRulesBoard(s);
  await send("Browser.close").catch(() => {});
  console.log("ok: score 0 -> 1 seen live, replay shown, console login, a call and a review confirmed, a dice game live, " +
    "a ruling's note, the fullest board on screen, BD-W1 under house rules");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
