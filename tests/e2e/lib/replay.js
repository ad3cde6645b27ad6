// The replay page in headless chromium (tests/e2e/browser_replay.sh):
//   node replay.js CHROMIUM BASE OUTDIR PIN SNAP_THROW HAND_THROW
// SNAP_THROW: a simulated throw whose die came to rest (a snapshot with
// its face read); HAND_THROW: one an official entered and corrected.
// Each at 390x844 (a phone) and 1920x1080; what the page shows is
// asserted, screenshots go to OUTDIR.
"use strict";
const { launch, slow } = require("./cdp_pipe");

const [chromium, base, outdir, pin, snapThrow, handThrow] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open, browserLogin } = launch(chromium, outdir);

// A phone (mobile: the page's viewport meta applies, and a page wider
// than the screen is zoomed out, which innerWidth shows) or a laptop.
async function size(s, w, h) {
  await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: w < 800 }, s);
}
async function sizeShown(s, w, h) {
  await waitFor(s, "innerWidth + 'x' + innerHeight", w + "x" + h, "viewport " + w + "x" + h + " (wider: zoomed out to fit)");
}
async function openReplay(s, k) {
  await send("Page.navigate", { url: base + "/replay/" + k + "?match=1" }, s);
  await waitFor(s, "location.pathname === '/replay/" + k + "' && document.body.dataset.ready === '1'", true, "replay " + k + " loaded");
}
const noOverflow = "document.documentElement.scrollWidth <= innerWidth";
// Scrolls id's section to the top and takes the viewport.
async function shot(s, id, file) {
  await evaluate(s, "document.getElementById('" + id + "').closest('section').scrollIntoView(); true");
  await screenshot(s, file);
}

async function snapshotThrow(s, w, h) {
  await size(s, w, h);
  await openReplay(s, snapThrow);
  await waitFor(s, "document.getElementById('title').textContent", "Match 1, throw " + snapThrow, "title");
  // Every mark drawn has its entry in the legend.
  await waitFor(s, "[...document.querySelectorAll('#legend li')].map((e) => e.textContent).join('|').includes(" +
    "'a landing the ruling used, numbered in order') && document.querySelectorAll('#legend li').length >= 6", true, "legend");
  await waitFor(s, "document.querySelector('#drawing circle[fill=\"#ffcc00\"]') === null || " +
    "[...document.querySelectorAll('#legend li')].some((e) => e.textContent.startsWith('where the table\\'s piezo sensors'))",
    true, "the piezo dots in the legend");
  // The landings numbered 1..n on the drawing and in the list alike.
  await waitFor(s, "(() => { const t = [...document.querySelectorAll('#drawing .landing-no')].map((e) => e.textContent);" +
    " return t.length > 0 && t.every((x, i) => x === String(i + 1)) && " +
    "t.length === document.querySelectorAll('#landings li').length; })()", true, "numbered landings");
  await waitFor(s, "/\\u00b1[0-9.]+ cm/.test(document.getElementById('landings').textContent)", true, "a landing's uncertainty labelled");
  // The camera's picture loaded, the die's crop drawn, the face read.
  await waitFor(s, "(() => { const i = document.querySelector('#snapshots img.snapshot'); return !!i && i.complete && i.naturalWidth > 0; })()",
    true, "snapshot image loaded");
  // Asked for by its id, which pruning an earlier picture does not move.
  await waitFor(s, "/\\/snapshots\\/1\\.jpg\\?id=[0-9]+$/.test(document.querySelector('#snapshots img.snapshot').src)",
    true, "the snapshot asked for by its id");
  await waitFor(s, "/^Face read: [1-6] \\(confidence [0-9.]+\\)$/.test(document.querySelector('.snap-face').textContent)",
    true, "the face read with its confidence");
  await waitFor(s, "!!document.querySelector('.snap-crop') && !!document.querySelector('.snap-ring')", true, "the die's crop and ring");
  await waitFor(s, "document.getElementById('correct').classList.contains('hidden')", true,
    "no Correct link without an official logged in");
  await waitFor(s, "document.getElementById('rules-link').getAttribute('href')", "/rules?match=1", "the rules link");
  await waitFor(s, "document.querySelectorAll('#house li').length >= 5 && " +
    "[...document.querySelectorAll('#house li.differs')].map((e) => e.textContent).join('|')",
    "Points to win the game: 15 (the book: 10)", "the match's house rules, the one unlike the book marked");
  await sizeShown(s, w, h);
  await waitFor(s, noOverflow, true, "no horizontal overflow at " + w + "x" + h);
  await screenshot(s, "replay-" + w + "-top.png");
  await shot(s, "snapshots", "replay-" + w + "-camera.png");
  await shot(s, "legend", "replay-" + w + "-drawing.png");
}

async function handThrowPage(s, w, h) {
  await size(s, w, h);
  await openReplay(s, handThrow);
  // Entered by hand: the console's events are its timeline.
  await waitFor(s, "(() => { const r = [...document.querySelectorAll('#timeline tr')];" +
    " return r.length >= 2 && r.every((x) => x.dataset.source === 'console') && " +
    "document.getElementById('timeline').textContent.includes('catch by Ann, 1 hand'); })()", true, "console events in the timeline");
  await waitFor(s, "/^Correction 1 by Kim, .*: \u201cseen from the A end\u201d: table A's half, floor$/" +
    ".test(document.getElementById('corrections').textContent)", true, "the correction with who, when and why");
  // Logged in (this browser's session): the link to correct it.
  await waitFor(s, "!document.getElementById('correct').classList.contains('hidden') && " +
    "document.getElementById('correct').getAttribute('href')", "/console?match=1&throw=" + handThrow, "Correct this throw");
  await waitFor(s, "document.getElementById('console-link').getAttribute('href')", "/console", "the link back to the console");
  await sizeShown(s, w, h);
  await waitFor(s, noOverflow, true, "no horizontal overflow at " + w + "x" + h + " (hand-entered)");
  await screenshot(s, "replay-" + w + "-hand-top.png");
  await shot(s, "timeline", "replay-" + w + "-hand-timeline.png");
}

async function main() {
  setTimeout(() => die("timed out"), slow(30000)).unref();
  const s = await open("about:blank");
  for (const [w, h] of [[390, 844], [1920, 1080]]) await snapshotThrow(s, w, h);
  // The official logs in on this browser: the session cookie is its.
  await browserLogin(s, base, pin, "Kim");
  for (const [w, h] of [[390, 844], [1920, 1080]]) await handThrowPage(s, w, h);
  await send("Browser.close").catch(() => {});
  console.log("ok: legend, numbered landings, a snapshot with its face, console events, the Correct link, no overflow");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
