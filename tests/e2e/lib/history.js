// The history pages in headless chromium (tests/e2e/browser_history.sh):
//   node history.js CHROMIUM BASE OUTDIR
// At 390x844 (a phone) and 1920x1080: /matches, a click to the newest
// match, from its throw list a click to a throw's replay, back, a click
// to a player's page, and /players; no horizontal overflow anywhere;
// and a dice match's sheet; screenshots to OUTDIR.
"use strict";
const { launch, slow } = require("./cdp_pipe");

const [chromium, base, outdir] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);

async function size(s, w, h) {
  await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: w < 800 }, s);
}
const noOverflow = "document.documentElement.scrollWidth <= innerWidth";
const ready = "(() => { const r = document.getElementById('history'); return r ? r.dataset.ready : null; })()";
async function click(s, sel, what) {
  await waitFor(s, "!!document.querySelector(" + JSON.stringify(sel) + ")", true, what + ": the link");
  await evaluate(s, "document.querySelector(" + JSON.stringify(sel) + ").click(); true");
}
async function checkPage(s, w, h, name, what) {
  await waitFor(s, "innerWidth + 'x' + innerHeight", w + "x" + h, "viewport " + w + "x" + h + " (wider: zoomed out)");
  await waitFor(s, noOverflow, true, "no horizontal overflow at " + w + "x" + h + " on " + what);
  await screenshot(s, "history-" + name + "-" + w + ".png");
}

async function run(s, w, h) {
  await size(s, w, h);
  await send("Page.navigate", { url: base + "/matches" }, s);
  await waitFor(s, ready, "1", "/matches loaded");
  await waitFor(s, "document.querySelectorAll('a.match-link').length", 20, "20 matches on the first page");
  await waitFor(s, "document.querySelector('a.match-link').textContent", "Match 26", "newest first (the dice match)");
  await waitFor(s, "document.querySelector('link[rel=icon]').getAttribute('href')", "/favicon.svg", "the icon link");
  await checkPage(s, w, h, "matches", "/matches");
  await click(s, "a.match-link[href='/matches/25']", "a Beer Die match");
  await waitFor(s, "location.pathname + ' ' + " + ready, "/matches/25 1", "the match page after the click");
  await waitFor(s, "document.querySelectorAll('a.replay-link').length > 3", true, "throws with replay links");
  await waitFor(s, "document.querySelector('a.csv-link').getAttribute('href')", "/matches/25.csv", "the CSV link");
  // A label shown with no value beside it ("Notes:" on a phone) reads as missing data.
  await waitFor(s, "[...document.querySelectorAll('.hist-table td')].filter(td => " +
    "td.offsetParent !== null && getComputedStyle(td, '::before').content !== 'none' && " +
    "getComputedStyle(td, '::before').content !== 'normal' && !td.textContent.trim()).length", 0,
    "no label shown without a value at " + w);
  await checkPage(s, w, h, "match", "/matches/25");
  await click(s, "a.replay-link", "a throw's replay");
  await waitFor(s, "location.pathname + location.search + ' ' + document.body.dataset.ready", "/replay/1?match=25 1",
    "the replay of throw 1 of match 25");
  await waitFor(s, "document.getElementById('title').textContent", "Match 25, throw 1", "the replay's title");
  await checkPage(s, w, h, "replay", "the replay");
  await send("Page.navigate", { url: base + "/matches/25" }, s);
  await waitFor(s, ready, "1", "the match page again");
  const name = await evaluate(s, "document.querySelector('.hist-head a.player-link').textContent");
  await click(s, ".hist-head a.player-link", "a player");
  await waitFor(s, "decodeURIComponent(location.pathname) + ' ' + " + ready, "/players/" + name + " 1", "the player's page");
  await waitFor(s, "document.getElementById('title').textContent", name, "the player's name as the title");
  await waitFor(s, "document.querySelectorAll('.hist-figs dt').length", 9, "nine figures");
  // Their matches, each a link, as many as the figures count.
  const played = await evaluate(s, "Number(document.querySelectorAll('.hist-figs dd')[0].textContent)");
  await waitFor(s, "document.querySelectorAll('.hist-played a.match-link').length", Math.min(played, 50), "the player's matches listed");
  await waitFor(s, "/^(won|lost|not over)$/.test(document.querySelector('.hist-played td[data-label=Result]').textContent)", true, "a result in words");
  await checkPage(s, w, h, "player", "a player's page");
  await send("Page.navigate", { url: base + "/players" }, s);
  await waitFor(s, ready, "1", "/players loaded");
  await waitFor(s, "document.querySelectorAll('a.player-link').length", 8, "eight players");
  await checkPage(s, w, h, "players", "/players");
  await send("Page.navigate", { url: base + "/matches/26" }, s);
  await waitFor(s, ready, "1", "the dice match's page");
  await waitFor(s, "document.querySelectorAll('.hist-sheet tbody tr').length >= 15 && " +
    "document.querySelectorAll('.hist-turns p').length > 10", true, "the dice match's sheet and moves");
  await checkPage(s, w, h, "dice", "a dice match's page");
}

async function main() {
  setTimeout(() => die("timed out"), slow(60000)).unref();
  const s = await open("about:blank");
  for (const [w, h] of [[390, 844], [1920, 1080]]) await run(s, w, h);
  await send("Browser.close").catch(() => {});
  console.log("ok: matches -> match -> replay, match -> player, players; no overflow at 390 or 1920");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
