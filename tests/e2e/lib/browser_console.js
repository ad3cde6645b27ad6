// The official's phone console in headless chromium at 390x844 (cdp_pipe.js),
// driven by taps as a thumb would: log in with a name; open throw 2 from the
// list and correct a one-handed catch to two hands (taps counted), the wall
// scoreboard (a second tab) showing the new score over SSE within 1 s;
// confirm a review from its box, then a 409 beside Confirm; undo; a start
// refused while a match is under way, then a match with two house rules;
// a Yatzy game whose zero question is answered, whose wrong turn is
// corrected and whose last turn is undone; a Horse turn with kept dice; a
// Dreiermann turn with a share. Every step asserts what the
// page shows; every page has no horizontal overflow; every answer is on
// screen beside the control that caused it. Screenshots go to OUTDIR.
//   node browser_console.js CHROMIUM BASE OUTDIR PIN [bench]
// With "bench" it prints one line of JSON: the correction's taps and times.
"use strict";
const { launch, request, sleep, slow } = require("./cdp_pipe.js");

const [chromium, base, outdir, pin, mode] = process.argv.slice(2);
const bench = mode === "bench";
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);
const W = 390, H = 844;
const log = (s) => { if (!bench) console.log(s); };
// DYEREF_KEEP_GOING=1: a failed check of what the page shows is listed and
// the run goes on, to see every gap at once; it still fails at the end.
const keepGoing = process.env.DYEREF_KEEP_GOING === "1";
const missed = [];
function miss(why) {
  if (!keepGoing) die(why);
  console.error("MISSED: " + why);
  missed.push(why);
}

let auth = null;
async function command(body) {
  const r = await request("POST", base + "/console/api/command", JSON.stringify(body),
    { "Content-Type": "application/json", Cookie: auth.cookie, "X-CSRF-Token": auth.csrf });
  if (r.status !== 200) die("command " + JSON.stringify(body) + ": " + r.status + " " + r.body);
  return JSON.parse(r.body);
}
async function api(path) { return JSON.parse((await request("GET", base + path)).body); }

async function phone(s) {
  await send("Emulation.setDeviceMetricsOverride", { width: W, height: H, deviceScaleFactor: 1, mobile: true }, s);
}
// A tap as a thumb makes it: the element scrolled into view if it is not,
// then a real pointer press and release at its centre (Input events, not
// el.click()), so what is covered or off screen cannot be tapped.
let taps = 0;
async function tap(s, sel, what) {
  // Until the point is the element's own (nothing covers it, the page
  // has stopped moving).
  const end = Date.now() + slow(2000);
  let r;
  do {
    r = await evaluate(s, `(() => {
      const e = document.querySelector(${JSON.stringify(sel)});
      if (!e) return null;
      let b = e.getBoundingClientRect();
      if (b.top < 0 || b.bottom > innerHeight) { e.scrollIntoView({ block: "center" }); b = e.getBoundingClientRect(); }
      const x = b.left + b.width / 2, y = b.top + b.height / 2, hit = document.elementFromPoint(x, y);
      return { x, y, w: b.width, h: b.height, mine: !!hit && (hit === e || e.contains(hit)) };
    })()`);
    if (r && r.w && r.mine) break;
    await sleep(50);
  } while (Date.now() < end);
  if (r && r.w && !r.mine) { miss((what || sel) + ": covered at its centre"); return; }
  if (!r || !r.w) { miss((what || sel) + ": nothing to tap (" + JSON.stringify(r) + ")"); return; }
  for (const type of ["mousePressed", "mouseReleased"])
    await send("Input.dispatchMouseEvent", { type, x: r.x, y: r.y, button: "left", clickCount: 1 }, s);
  taps++;
}
async function typeInto(s, sel, text) {
  const ok = await evaluate(s, `(() => { const e = document.querySelector(${JSON.stringify(sel)}); if (!e) return false; e.value = ${JSON.stringify(text)};
    e.dispatchEvent(new Event("input", { bubbles: true })); e.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`);
  if (!ok) miss(sel + ": not on the page");
}
// As cdp_pipe's waitFor, a miss under DYEREF_KEEP_GOING.
async function check(s, expr, want, what, ms = 5000) {
  const end = Date.now() + slow(ms);
  let last;
  while (Date.now() < end) {
    last = await evaluate(s, expr).catch(() => undefined);
    if (last === want) return;
    await sleep(50);
  }
  miss(what + ": wanted " + JSON.stringify(want) + ", page shows " + JSON.stringify(last));
}
const text = (id) => "(document.getElementById(" + JSON.stringify(id) + ") || {}).textContent";
// Waits until #id's text passes test (a JS expression of t), else fails
// with what the page shows.
async function until(s, id, test, what, ms = 5000) {
  const expr = "(() => { const t = " + text(id) + " || ''; return (" + test + ") ? 'yes' : t; })()";
  const end = Date.now() + slow(ms);
  let last;
  while (Date.now() < end) {
    last = await evaluate(s, expr).catch(() => undefined);
    if (last === "yes") return;
    await sleep(50);
  }
  miss(what + ": #" + id + " shows " + JSON.stringify(last));
}
// No horizontal scroll at 390 px.
async function noOverflow(s, what) {
  const m = await evaluate(s, "({ sw: document.documentElement.scrollWidth, w: innerWidth })");
  if (m.sw > m.w) die(what + ": the page is " + m.sw + " px wide on a " + m.w + " px screen");
}
// The answer and the control that caused it, both on screen at once.
async function besideControl(s, ctrl, msg, what) {
  const m = await evaluate(s, `(() => {
    const box = (q) => { const e = document.querySelector(q); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, h: r.height }; };
    return { c: box(${JSON.stringify(ctrl)}), m: box(${JSON.stringify(msg)}), h: innerHeight };
  })()`);
  if (!m.c || !m.m || !m.m.h) { miss(what + ": control or message missing: " + JSON.stringify(m)); return; }
  for (const b of [m.c, m.m])
    if (b.top < -0.5 || b.bottom > m.h + 0.5) { miss(what + ": off the screen: " + JSON.stringify(m)); return; }
}

// Another official ends the match; the page has redrawn before the next
// tap (a tap aimed at a page about to move lands elsewhere).
async function endMatch(s) {
  await command({ cmd: "end" });
  await until(s, "summary", "t === 'No match under way.'", "the match ended");
}
// A tap whose answer must appear under its control, on screen with it.
async function act(s, ctrl, msgId, test, what) {
  await tap(s, ctrl, what);
  await until(s, msgId, test, what + ": the answer");
  await besideControl(s, ctrl, "#" + msgId, what + ": the answer");
}

async function main() {
  setTimeout(() => die("timed out"), slow(bench ? 30000 : keepGoing ? 180000 : 45000)).unref();
  const login = await request("POST", base + "/console/login", "pin=" + pin, { "Content-Type": "application/x-www-form-urlencoded" });
  if (login.status !== 200) die("login " + login.status);
  auth = { cookie: login.headers["set-cookie"][0].split(";")[0], csrf: JSON.parse(login.body).csrf };
  // Throw 1 (Ann) 1 to Orange; throw 2 (Bo) caught one-handed by Cy: no
  // point; throw 3 (Cy) 1 to Blue. 1-1.
  await command({ cmd: "start", teams: { A: ["Ann", "Bo"], B: ["Cy", "Di"] }, team_names: ["Orange", "Blue"] });
  await command({ cmd: "throw", events: [{ at: "table", half: "B", x: 1.9, y: 0.4 }, { at: "floor" }] });
  await command({ cmd: "throw", events: [{ at: "table", half: "B", x: 1.8, y: 0.7 }, { at: "catch", by: "b1", hands: 1 }] });
  await command({ cmd: "throw", events: [{ at: "table", half: "A" }, { at: "floor" }] });

  // The wall: a second tab, watching its score (the time it changes,
  // on the page's clock, which both tabs share).
  const wall = await open(base + "/");
  await waitFor(wall, "document.body.dataset.ready", "1", "scoreboard loaded");
  await waitFor(wall, text("score-A"), "1", "wall at 1-1");
  await evaluate(wall, `new MutationObserver(() => { if (document.getElementById("score-A").textContent === "2")
    window.changedAt = window.changedAt || Date.now(); }).observe(document.getElementById("score-A"), { childList: true, subtree: true, characterData: true }); true`);

  const s = await open("about:blank");
  await phone(s);
  await send("Page.navigate", { url: base + "/console" }, s);
  await waitFor(s, "location.pathname === '/console' && document.body.dataset.ready === '1'", true, "console loaded");
  if (!bench) { await noOverflow(s, "logged out"); await screenshot(s, "console-login.png"); }

  // A wrong PIN is said under the button; then the PIN and the official's
  // name, and the page says who is logged in.
  await typeInto(s, "#pin", "999999");
  await act(s, "#login-form button[type=submit]", "login-msg", "t === 'Wrong PIN.'", "Log in with a wrong PIN");
  await typeInto(s, "#pin", pin);
  await typeInto(s, "#official", "Kim");
  await tap(s, "#login-form button[type=submit]", "Log in");
  await until(s, "who", "t === 'Official: Kim'", "who is logged in");
  await until(s, "throws", "t.startsWith('#3')", "the throws, newest first");
  await until(s, "throws", "t.includes('Cy') && t.includes('1 to Blue')", "throw 3 in the list");
  if (!bench) { await noOverflow(s, "logged in"); await screenshot(s, "console-desk.png"); }

  // Throw 2 was caught with two hands, not one: open it from the list,
  // two hands, Save. The page's clock times each tap.
  await evaluate(s, `window.tapsAt = []; document.addEventListener("pointerdown", () => tapsAt.push(Date.now()), true);
    window.openedAt = 0; new MutationObserver(() => { if (!openedAt && document.getElementById("tp-title").textContent.startsWith("Throw 2"))
      openedAt = Date.now(); }).observe(document.getElementById("throw-panel"), { childList: true, subtree: true, characterData: true, attributes: true }); true`);
  taps = 0;
  await tap(s, "#throws button[data-throw='2']", "throw 2 in the list");
  await until(s, "tp-title", "t === 'Throw 2 by Bo'", "throw 2 opened");
  await until(s, "tp-evidence", "t.includes('caught by Cy, one hand')", "throw 2's evidence in words");
  await waitFor(s, "document.querySelector('#f-hands [data-hands=\"1\"]').classList.contains('on') && " +
    "document.querySelector('#f-catch-by .on') && document.querySelector('#f-catch-by .on').textContent", "Cy", "the form pre-filled: Cy, one hand");
  await waitFor(s, "document.getElementById('tp-replay').getAttribute('href')", "/replay/2?match=1", "the replay link");
  if (!bench) await screenshot(s, "console-throw-opened.png");
  await tap(s, "#f-hands [data-hands='2']", "two hands");
  await until(s, "f-said", "t.includes('caught by Cy, two hands')", "the form says two hands");
  await tap(s, "#correct", "Save correction");
  const saveTaps = taps;
  await until(s, "correct-msg", "t === 'Throw 2 corrected: now 1 to Orange, 2-1'", "the answer beside Save");
  await waitFor(wall, "window.changedAt > 0", true, "the wall's score after the correction", 3000);
  const t = await evaluate(s, "({ taps: tapsAt, opened: openedAt })");
  const changed = await evaluate(wall, "window.changedAt");
  const save = t.taps[t.taps.length - 1];
  // The system's own time: the open (tap to the throw shown) and Save to
  // the wall's new score; between them the thumb's time, not the system's.
  const own = (t.opened - t.taps[0]) + (changed - save);
  const fig = { taps: saveTaps, open_ms: t.opened - t.taps[0], save_to_wall_ms: changed - save, own_ms: own, total_ms: changed - t.taps[0] };
  if (bench) {
    console.log(JSON.stringify(fig));
    await send("Browser.close").catch(() => {});
    process.exit(0);
  }
  log("correction: " + JSON.stringify(fig));
  if (saveTaps > 4) die("the correction took " + saveTaps + " taps (at most 4)");
  if (changed - save > slow(1000)) die("the wall changed " + (changed - save) + " ms after Save (1 s at most)");
  await besideControl(s, "#correct", "#correct-msg", "the correction's answer");
  await noOverflow(s, "a throw opened");
  await screenshot(s, "console-corrected.png");
  await until(s, "throws", "t.includes('corrected')", "throw 2 badged corrected");
  await until(s, "tp-badges", "t.startsWith('Corrected by Kim at ')", "who corrected it, and when");
  // The JSON box speaks seats, as the form does, and Load says so beside it.
  await tap(s, "#json-box summary", "As JSON");
  await act(s, "#load", "json-msg", "t.startsWith('Throw 2 loaded')", "Load");
  await check(s, "document.getElementById('corr-events').value.includes('\"by\":\"b1\",\"hands\":2')", true, "the box in seats");
  await tap(s, "#json-box summary", "As JSON, folded");

  // A doubtful throw (Di onto A's half, 0.5 sure): its review box.
  await command({ cmd: "throw", events: [{ at: "table", half: "A", confidence: 0.5 }, { at: "floor" }] });
  await until(s, "review-text", "t.startsWith('Throw 4 under review')", "the review box");
  await until(s, "review-ruling", "t.includes('1 to Blue')", "the proposed ruling");
  await until(s, "review-why", "t.length > 'Why: '.length", "the reason");
  await until(s, "review-conf", "/Confidence: 0\\.\\d\\d/.test(t)", "the confidence");
  await waitFor(s, "document.getElementById('review-replay').getAttribute('href')", "/replay/4?match=1", "the review's replay link");
  await noOverflow(s, "review box");
  await evaluate(s, "document.getElementById('review-box').scrollIntoView({ block: 'start' }); true");
  await screenshot(s, "console-review.png");
  await act(s, "#confirm", "review-msg", "t.startsWith('Throw 4 confirmed')", "Confirm");
  await screenshot(s, "console-confirmed.png");
  if ((await api("/api/matches/1/throws/4")).confirmed !== true) die("throw 4 not confirmed");
  // A page behind the daemon (its stream stopped) confirms a review another
  // official has settled by a correction: the 409 beside Confirm.
  await command({ cmd: "throw", events: [{ at: "table", half: "B", confidence: 0.5 }, { at: "floor" }] });
  await until(s, "review-text", "t.startsWith('Throw 5 under review')", "throw 5 under review");
  await evaluate(s, "es.close(); true");
  await command({ cmd: "correct", throw: 5, events: [{ at: "table", half: "B" }, { at: "floor" }] });
  await act(s, "#confirm", "review-msg", "t === 'throw 5 is not under review'", "Confirm on a stale page");
  await send("Page.reload", {}, s);
  await waitFor(s, "document.body.dataset.ready", "1", "console reloaded");
  await until(s, "who", "t === 'Official: Kim'", "the session keeps the name");
  await until(s, "summary", "t.includes('5 throws')", "the summary after reload");

  // Undo the last throw.
  await act(s, "#undo", "undo-msg", "t.startsWith('Throw 5 undone')", "Undo last throw");
  await until(s, "throws", "t.startsWith('#5') && t.includes('undone')", "throw 5 badged undone");

  // A throw entered by hand on a blank form: B's half on the drawing, Floor.
  await tap(s, "#by-hand", "Enter a throw by hand");
  await until(s, "tp-title", "t === 'A throw entered by hand'", "a blank form");
  await tap(s, "#f-table [aria-label=\"B's half\"]", "B's half on the drawing");
  await tap(s, "[data-end=floor]", "Floor");
  await until(s, "f-said", "t === \"The form says: B's half, then the floor\"", "the form's words");
  await act(s, "#enter", "correct-msg", "t.startsWith('Throw 6 entered: now 1 to Orange')", "Enter as a new throw");

  // A start while the match is under way is refused, beside Start.
  await act(s, "#start", "start-msg", "t.includes('a match is under way: end it first')", "Start match");
  await evaluate(s, "window.confirm = () => true; true");
  await tap(s, "#end", "End match");
  await until(s, "start-msg", "t.startsWith('Match 1 ended')", "match ended");
  // A new match with two house rules from GET /api/house.
  await tap(s, "#house-box summary", "House rules");
  await check(s, "document.querySelectorAll('[data-house]').length >= 9", true, "every house rule offered");
  await until(s, "house", "t.includes('(default 10)')", "the defaults shown");
  await typeInto(s, "[data-house=target_points]", "7");
  await typeInto(s, "[data-house=win_by]", "1");
  for (const [id, v] of [["a1", "Ann"], ["a2", "Bo"], ["b1", "Cy"], ["b2", "Di"], ["ta", "Orange"], ["tb", "Blue"]]) await typeInto(s, "#" + id, v);
  await noOverflow(s, "house rules open");
  await screenshot(s, "console-house.png");
  await tap(s, "#start", "Start match");
  await until(s, "start-msg", "t.includes('started') && t.includes('target_points 7') && t.includes('win_by 1')", "started with house rules");
  const st = await api("/api/state");
  if (st.house.target_points !== 7 || st.house.win_by !== 1 || st.house.kill_every !== 5)
    miss("house rules not as set: " + JSON.stringify(st.house));

  // Yatzy: ann's 4-4-4-1-3 in full house scores 0: the page asks; Write 0.
  // Then bob; then ann's turn corrected to three of a kind.
  await endMatch(s);
  await typeInto(s, "#dgame", "yatzy");
  await typeInto(s, "#dplayers", "ann, bob");
  await tap(s, "#dstart", "Start dice game");
  await until(s, "dstart-msg", "t.startsWith('Dice match')", "dice game started");
  await until(s, "dice-who", "t.startsWith('ann to roll')", "ann to roll");
  await check(s, "[...document.querySelectorAll('#dbox option')].map((o) => o.value).join(' ')",
    " ones twos threes fours fives sixes one_pair two_pairs three_of_a_kind four_of_a_kind small_straight large_straight full_house chance yatzy",
    "Yatzy's boxes from its sheet");
  for (const d of [4, 4, 4, 1, 3]) await tap(s, "#dtap [data-die='" + d + "']", "die " + d);
  await typeInto(s, "#dbox", "full_house");
  await tap(s, "#dturn", "Enter turn");
  await until(s, "dturn-msg", "t.includes('full_house with 4-4-4-1-3 scores 0: write 0?')", "the zero question");
  await besideControl(s, "#dturn", "#write0", "the zero question");
  await screenshot(s, "console-zero.png");
  await tap(s, "#write0", "Write 0");
  await until(s, "dturn-msg", "t === 'Wrote 0 in full_house for ann.'", "what was written and for whom");
  for (const d of [1, 2, 3, 4, 6]) await tap(s, "#dtap [data-die='" + d + "']", "die " + d);
  await typeInto(s, "#dbox", "chance");
  await tap(s, "#dturn", "Enter turn");
  await until(s, "dturn-msg", "t === 'Wrote 16 in chance for bob.'", "bob's chance");
  await tap(s, "#dturns [data-turn='1']", "Correct turn 1");
  await until(s, "d-correcting", "t.startsWith('Correcting turn 1 (ann)')", "correcting turn 1");
  await typeInto(s, "#dbox", "three_of_a_kind");
  await act(s, "#dturn", "dturn-msg", "t === 'Turn 1 corrected. Wrote 12 in three_of_a_kind for ann.'", "Save correction of turn 1");
  await until(s, "dturns", "t.includes('corrected')", "turn 1 badged corrected");
  const sheet = (await api("/api/state")).dice_match.sheet;
  const row = (n) => sheet.rows.find((r) => r.name === n).cells;
  if (row("three_of_a_kind")[0] !== 12 || row("full_house")[0] !== null || row("chance")[1] !== 16)
    miss("the sheet after the correction: " + JSON.stringify(sheet.rows));
  await noOverflow(s, "dice game");
  await screenshot(s, "console-yatzy.png");
  await act(s, "#dundo", "dundo-msg", "t === 'Turn 2 undone. It was: Wrote 16 in chance for bob.'", "Undo last turn");
  await until(s, "dturns", "t.startsWith('Turn 2') && t.includes('undone')", "turn 2 badged undone");
  await until(s, "dice-who", "t.startsWith('bob to roll')", "bob rolls again");

  // Horse: a turn with its kept dice (or the roll-off, HO-1).
  await endMatch(s);
  await typeInto(s, "#dgame", "horse");
  await typeInto(s, "#dplayers", "ann, bob");
  await tap(s, "#dstart", "Start Horse");
  await until(s, "drolloff", "t === 'Roll-off: a die each for ann, bob'", "the roll-off offered");
  await typeInto(s, "#drolls", "55234 156 1");
  await typeInto(s, "#dkeep", "55 5551");
  await act(s, "#dturn", "dturn-msg", "t === 'ann: 55/3, the mark to beat.'", "Horse turn");

  // Dreiermann: ann chooses herself (a 3); bob's turn 2-5, 4-4 shared to
  // cid, 1-5.
  await endMatch(s);
  await typeInto(s, "#dgame", "dreiermann");
  await typeInto(s, "#dplayers", "ann, bob, cid");
  await tap(s, "#dstart", "Start Dreiermann");
  await until(s, "dice-who", "t.startsWith('Choosing the Dreiermann: ann rolls')", "choosing");
  await waitFor(s, "document.getElementById('d-box-row').classList.contains('hidden')", true, "no Yatzy boxes in Dreiermann");
  for (const d of [3, 5]) await tap(s, "#dtap [data-die='" + d + "']", "die " + d);
  await tap(s, "#dchoose", "Choosing roll");
  await until(s, "dice-who", "t.includes('bob to roll') && t.includes('Dreiermann: ann')", "ann is the Dreiermann");
  for (const k of ["2", "5", "next", "4", "4", "next", "1", "5"])
    await tap(s, k === "next" ? "#dnext" : "#dtap [data-die='" + k + "']", "die " + k);
  await check(s, "document.querySelectorAll('#d-shares input').length", 3, "a share line for the double");
  await typeInto(s, "#d-shares input[data-player=cid]", "4");
  await screenshot(s, "console-dreiermann-share.png");
  await tap(s, "#dturn", "Enter turn");
  await until(s, "dturn-msg", "t.startsWith(\"bob's turn: \")", "bob's turn written");
  const dm = (await api("/api/state")).dice_match.sheet.rows.find((r) => r.name === "sips").cells;
  if (dm.join() !== "0,1,5") miss("Dreiermann sips " + dm.join());
  await besideControl(s, "#dturn", "#dturn-msg", "the Dreiermann turn's answer");
  await noOverflow(s, "Dreiermann");
  await screenshot(s, "console-dreiermann.png");

  // A whole Yatzy game: its last turn completes it, the game stays open.
  // The page says so; bob's last full house, corrected to 3-3-2-2-1, asks
  // about its 0 (Write 0); undo reopens it, the turn again closes it; End.
  await endMatch(s);
  await command({ cmd: "start", game: "yatzy", players: ["ann", "bob"] });
  const full = require("fs").readFileSync(require("path").join(__dirname, "../../data/dice/yatzy-full.jsonl"), "utf8")
    .split("\n").filter((l) => l.trim()).slice(1);
  for (const l of full) await command({ cmd: "dice", move: JSON.parse(l), accept_zero: true });
  await until(s, "dice-who", "t === 'Game over (ann wins): End to close, or correct a turn'", "game over, still open");
  await check(s, "document.getElementById('dturn').classList.contains('hidden')", true, "no turn to enter once over");
  await screenshot(s, "console-yatzy-over.png");
  await tap(s, "#dturns [data-turn='30']", "Correct turn 30");
  await until(s, "d-correcting", "t.startsWith('Correcting turn 30 (bob)')", "correcting the last turn");
  await typeInto(s, "#drolls", "33221 1");
  await tap(s, "#dturn", "Save correction of turn 30");
  await until(s, "dturn-msg", "t.includes('full_house with 3-3-2-2-1 scores 0: write 0?')", "the correction's zero question");
  await tap(s, "#write0", "Write 0");
  await until(s, "dturn-msg", "t === 'Turn 30 corrected. Wrote 0 in full_house for bob.'", "the corrected last turn");
  await until(s, "dice-who", "t.startsWith('Game over (ann wins)')", "over after the correction");
  await act(s, "#dundo", "dundo-msg", "t.startsWith('Turn 30 undone.')", "Undo last turn");
  await until(s, "dice-who", "t.startsWith('bob to roll')", "the undo reopens the game");
  await command({ cmd: "dice", move: JSON.parse(full[full.length - 1]), accept_zero: true });
  await until(s, "dice-who", "t.startsWith('Game over (ann wins)')", "over again");
  await noOverflow(s, "a complete dice game");
  await tap(s, "#dend", "End game");
  await until(s, "summary", "t === 'No match under way.'", "End closes the game");

  // /console?match=1&throw=2 (the replay's link) opens that throw.
  await send("Page.navigate", { url: base + "/console?match=1&throw=2" }, s);
  await until(s, "tp-title", "t.startsWith('Throw 2 of match 1')", "the link opens throw 2");
  await noOverflow(s, "a linked throw");

  // Logged out again.
  await tap(s, "#logout", "Log out");
  await waitFor(s, "document.getElementById('login').classList.contains('hidden')", false, "logged out");
  await noOverflow(s, "logged out again");
  await send("Browser.close").catch(() => {});
  if (missed.length) die(missed.length + " check(s) missed");
  console.log("ok: login as Kim, throw 2 corrected in " + saveTaps + " taps (" + JSON.stringify(fig) +
    "), a review confirmed and a 409, undo, a start refused, house rules, Yatzy zero, correction and undo, " +
    "a Horse turn with kept dice, a Dreiermann share, a complete Yatzy corrected, undone and ended");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
