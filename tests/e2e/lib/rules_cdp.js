// /rules?match=N in headless chromium: the match's house rules on top, the
// ones that differ from the book marked there and at their rule in the
// book; at 390x844 the page has no horizontal scroll. Match 1 is played
// to 5 with no kill n' fill (kill_every 0), everything else as the book.
//   node rules_cdp.js CHROMIUM BASE OUTDIR
"use strict";
const { launch, slow } = require("./cdp_pipe.js");

const [chromium, base, outdir] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);

async function main() {
  setTimeout(() => die("timed out"), slow(30000)).unref();
  const s = await open("about:blank");
  await send("Emulation.setDeviceMetricsOverride", { width: 390, height: 844, deviceScaleFactor: 1, mobile: true }, s);
  await send("Page.navigate", { url: base + "/rules?match=1" }, s);
  await waitFor(s, "!!document.getElementById('house')", true, "the house rules box");
  const m = await evaluate(s, `(() => ({
    differs: [...document.querySelectorAll('#house li.house-differs')].map((e) => e.dataset.key),
    items: document.querySelectorAll('#house li').length,
    marked: [...document.querySelectorAll('#doc li.house-differs, #doc p.house-differs')]
      .filter((e) => !e.closest('#house')).map((e) => e.querySelector('b').textContent),
    note: (document.querySelector('#doc .house-note') || {}).textContent || "",
    sw: document.documentElement.scrollWidth, w: innerWidth,
  }))()`);
  console.log("rules?match=1: " + JSON.stringify(m));
  if (m.items !== 10) die("the box lists " + m.items + " house rules, not 10");
  if (m.differs.join(",") !== "target_points,kill_every") die("marked as differing: " + m.differs);
  if (m.marked.join(",") !== "BD-W1,BD-W2") die("marked in the book: " + m.marked);
  if (!m.note.includes("target_points = 5 (the book: 10)")) die("the note at BD-W1: " + m.note);
  if (m.w !== 390 || m.sw > m.w) die("wider than the 390 px phone: " + m.sw + " in " + m.w);
  await screenshot(s, "rules-house.png");
  // A match with no Beer Die house rules says so.
  await send("Page.navigate", { url: base + "/rules?match=77" }, s);
  await waitFor(s, "(document.getElementById('house') || {}).textContent",
    "Match 77 has no Beer Die house rules to show.", "a missing match");
  console.log("ok");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
