// The wall and the console together in headless chromium
// (tests/e2e/browser_challenge.sh):
//   node challenge.js CHROMIUM BASE OUTDIR PIN SECONDS MODE
// MODE "show" (SECONDS long, longer than any check): the console (390x844,
// logged in through its form) lists the open duty with a Done button:
// tapped, the duty leaves the wall (1920x1080); the replay page's "Show on
// wall" puts the challenge replay on the wall (the table drawing, the
// verdict with how sure it is, the score), "Take off the wall" removes it.
// MODE "leaves" (SECONDS short): after "Show on wall" the replay appears
// and leaves by itself, no sooner than SECONDS: the wall records both
// moments itself (a MutationObserver), so no check races the clock.
// Every wait is a bounded poll on what the page shows; screenshots go to
// OUTDIR.
"use strict";
const { launch, slow } = require("./cdp_pipe");

const [chromium, base, outdir, pin, seconds, mode] = process.argv.slice(2);
const { send, die, evaluate, waitFor: waitFor0, screenshot: screenshot0, open } = launch(chromium, outdir);
// Three tabs: the one shot comes to the front first (a hidden tab's
// capture can wait on a frame that is not drawn).
const screenshot = async (s, file) => { await send("Page.bringToFront", {}, s); await screenshot0(s, file); };
const waitFor = async (s, e, w, what, ms) => { const t = Date.now(); await waitFor0(s, e, w, what, ms); if (process.env.DYEREF_TRACE) console.error("passed", what, Date.now() - t); };

async function size(s, w, h) {
  await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: w < 800 }, s);
}
// A real tap (mouse press and release where the element is, after scrolling
// it into view): the button must be on top there.
async function tap(s, sel, what) {
  await waitFor(s, `(() => { const e = document.querySelector(${JSON.stringify(sel)}); if (!e) return false;
    e.scrollIntoView({ block: "center" }); const b = e.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return b.width > 0 && !!hit && (hit === e || e.contains(hit)); })()`, true, what + ": on the page, uncovered");
  const b = await evaluate(s, `(() => { const b = document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()`);
  for (const type of ["mousePressed", "mouseReleased"])
    await send("Input.dispatchMouseEvent", { type, x: b.x, y: b.y, button: "left", clickCount: 1 }, s);
}
const wallText = "document.body.innerText";
const KILL = "Cy: kill n' fill";

async function consoleLogin(con) {
  await size(con, 390, 844);
  await send("Page.navigate", { url: base + "/console" }, con);
  await waitFor(con, "document.body.dataset.ready === '1'", true, "console loaded");
  await evaluate(con, `(() => { document.getElementById("pin").value = ${JSON.stringify(pin)};
    document.getElementById("official").value = "Kim"; return true; })()`);
  await tap(con, "#login-form button[type=submit]", "Log in");
  await waitFor(con, "document.getElementById('desk').classList.contains('hidden')", false, "logged in");
}
async function openWall() {
  const wall = await open(base + "/");
  await size(wall, 1920, 1080);
  await send("Page.navigate", { url: base + "/" }, wall);
  await waitFor(wall, "document.body.dataset.ready === '1'", true, "the wall loaded");
  return wall;
}
async function openReplay() {
  const rp = await open(base + "/replay/1?match=1");
  await size(rp, 1920, 1080);
  await send("Page.navigate", { url: base + "/replay/1?match=1" }, rp);
  await waitFor(rp, "document.body.dataset.ready === '1' && !document.getElementById('show-wall').classList.contains('hidden')",
    true, "Show on wall beside Correct this throw");
  return rp;
}

async function showMode() {
  const wall = await openWall();
  await waitFor(wall, wallText + ".includes(" + JSON.stringify(KILL) + ")",
    true, "the wall lists throw 1's kill n' fill");
  await screenshot(wall, "wall-duty-open-1920.png");

  // The console on a phone, logged in by its form.
  const con = await open(base + "/console");
  await consoleLogin(con);
  await waitFor(con, "!document.getElementById('duties-box').classList.contains('hidden') && " +
    "document.querySelectorAll('#duties li.duty-item:not(.done) button.done-duty').length", 1, "one open duty with Done");
  await waitFor(con, "document.querySelector('#duties li.duty-item').textContent.startsWith(" + JSON.stringify(KILL) + ")",
    true, "the duty with its player");
  // Thumb-sized: at least 44 px each way.
  await waitFor(con, "(() => { const b = document.querySelector('button.done-duty').getBoundingClientRect();" +
    " return b.width >= 44 && b.height >= 44; })()", true, "Done is thumb-sized");
  await waitFor(con, "document.documentElement.scrollWidth <= innerWidth", true, "no horizontal overflow at 390x844");
  await waitFor(con, "document.querySelector('#duties li.duty-item').getBoundingClientRect().height < 110", true,
    "the duty in the console's own size, not the wall's");
  await evaluate(con, "document.getElementById('duties-box').scrollIntoView(); true");
  await screenshot(con, "console-duties-open-390.png");
  await tap(con, "button.done-duty", "Done");
  await waitFor(con, "document.getElementById('duties-msg').textContent", "Cy: kill n' fill done.", "Done's answer");
  await waitFor(con, "(() => { const li = document.querySelector('#duties li.duty-item');" +
    " return !!li && li.classList.contains('done') && li.textContent.includes('done (Kim)') && !!li.querySelector('button.undo-duty'); })()",
    true, "the duty shown done, by Kim, with Undo");
  await evaluate(con, "document.getElementById('duties-box').scrollIntoView(); true");
  await screenshot(con, "console-duties-done-390.png");
  await waitFor(wall, wallText + ".includes(" + JSON.stringify(KILL) + ")", false, "the duty left the wall");
  await screenshot(wall, "wall-duty-done-1920.png");

  // The replay page of throw 1, logged in (this browser's session).
  const rp = await openReplay();
  await tap(rp, "#show-wall", "Show on wall");
  await waitFor(rp, "document.getElementById('msg').textContent", "Throw 1 is on the wall.", "Show on wall's answer");
  await waitFor(wall, "(() => { const c = document.getElementById('challenge'); return !!c && c.dataset.throw === '1' &&" +
    " document.getElementById('challenge-verdict').textContent; })()", "Blue's half, 97\u00a0% sure",
    "the challenge replay's verdict with its confidence");
  await waitFor(wall, "document.getElementById('challenge-then').textContent", "then in Cy's cup", "what ended it");
  await waitFor(wall, "document.getElementById('challenge-ruling').textContent.includes('Orange 2 \u2013 0 Blue')", true,
    "the ruling and the score");
  // The landing drawn and numbered (an official's entry has no sensor
  // uncertainty to draw: browser_replay.sh checks the shared drawing's).
  await waitFor(wall, "document.querySelectorAll('#challenge svg .landing-ring').length === 1 && " +
    "document.querySelector('#challenge svg .landing-no').textContent", "1", "the landing on the drawing");
  // Readable from 5 m: nothing that carries information under 40 px.
  await waitFor(wall, "[...document.querySelectorAll('#challenge .ch-title, #challenge .ch-left, #challenge .ch-verdict, " +
    "#challenge .ch-ruling')].every((e) => parseFloat(getComputedStyle(e).fontSize) >= 40)", true, "font sizes >= 40 px");
  await waitFor(wall, "(() => { const t = [...document.querySelectorAll('#challenge svg text')];" +
    " return t.length > 0 && t.every((e) => e.getBoundingClientRect().height >= 28); })()", true, "the drawing's labels readable");
  await screenshot(wall, "wall-challenge-1920.png");
  // Dismissed from the replay page.
  await tap(rp, "#dismiss-wall", "Take off the wall");
  await waitFor(rp, "document.getElementById('msg').textContent", "The wall shows the score again.", "dismiss's answer");
  await waitFor(wall, "document.getElementById('challenge') === null", true, "dismissed");
  await waitFor(wall, "document.getElementById('score-A').textContent", "2", "the score again");
  await screenshot(wall, "wall-after-challenge-1920.png");
  // From the console's throw list: the opened throw's "Show on wall".
  await tap(con, "#throws button.throw-item", "throw 1 in the console's list");
  await waitFor(con, "document.getElementById('tp-title').textContent.startsWith('Throw 1')", true, "throw 1 opened");
  await tap(con, "#tp-wall", "the throw panel's Show on wall");
  await waitFor(con, "document.getElementById('tp-msg').textContent", "Throw 1 is on the wall.", "the panel's answer");
  await evaluate(con, "document.getElementById('tp-title').scrollIntoView(); true");
  await screenshot(con, "console-show-on-wall-390.png");
  await waitFor(wall, "!!document.getElementById('challenge') && document.getElementById('challenge').dataset.throw", "1",
    "the console's throw on the wall");
  await tap(rp, "#dismiss-wall", "Take off the wall, again");
  await waitFor(wall, "document.getElementById('challenge') === null", true, "dismissed again");
}

async function leavesMode() {
  const wall = await openWall();
  // The wall notes when the overlay came and went (page time, ms).
  await evaluate(wall, `(() => { window.__ch = {}; new MutationObserver(() => {
    const on = !!document.getElementById("challenge");
    if (on && !window.__ch.on) window.__ch.on = performance.now();
    if (!on && window.__ch.on && !window.__ch.off) window.__ch.off = performance.now();
  }).observe(document.getElementById("challenge-root"), { childList: true, subtree: true }); return true; })()`);
  const con = await open(base + "/console");
  await consoleLogin(con);
  const rp = await openReplay();
  await tap(rp, "#show-wall", "Show on wall");
  await waitFor(rp, "document.getElementById('msg').textContent", "Throw 1 is on the wall.", "Show on wall's answer");
  await waitFor(wall, "!!window.__ch.on", true, "the challenge replay appeared on the wall");
  await waitFor(wall, "!!window.__ch.off && document.getElementById('challenge') === null", true,
    "the challenge replay left after " + seconds + " s", Number(seconds) * 1000 + 15000);
  // Not before its time (the wall saw it a little after the daemon set it:
  // at most that much less).
  const shownMs = await evaluate(wall, "window.__ch.off - window.__ch.on");
  if (!(shownMs >= Number(seconds) * 1000 - 500)) die("the challenge replay left after " + shownMs + " ms, before its " + seconds + " s");
  await waitFor(wall, "document.getElementById('score-A').textContent", "2", "the score again");
  await screenshot(wall, "wall-after-timeout-1920.png");
}

async function main() {
  setTimeout(() => die("timed out"), slow(90000)).unref();
  if (mode === "leaves") await leavesMode(); else await showMode();
  console.log("ok");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
