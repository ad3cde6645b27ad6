// The scoreboard's health strip as a person sees it: opens BASE/ in
// headless chromium (cdp_pipe.js), waits for the page to have the daemon's
// state, prints the strip's ITEM (sensors, camera or store) as
// "ok TEXT" or "bad TEXT" (drawn red), and saves OUTDIR/FILE.
//   node board_strip.js CHROMIUM BASE OUTDIR FILE ITEM
"use strict";
const { launch, slow } = require("./cdp_pipe.js");

const [chromium, base, outdir, file, item] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);

async function main() {
  setTimeout(() => die("timed out"), slow(30000)).unref();
  const s = await open(base + "/");
  await waitFor(s, "document.body.dataset.ready", "1", "scoreboard loaded");
  const e = "document.getElementById('h-" + item + "')";
  const shown = await evaluate(s, `(${e}.classList.contains('bad') ? 'bad ' : 'ok ') + ${e}.textContent`);
  await screenshot(s, file);
  await send("Browser.close").catch(() => {});
  console.log(shown);
  process.exit(0);
}
main().catch((err) => die(err.stack || String(err)));
