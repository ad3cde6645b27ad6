// The wall (/) and the console (/console) reopen their event stream after
// an answer that is not one (429 past the per-address cap): see
// browser_reconnect.sh.
//   node reconnect.js CHROMIUM BASE OUTDIR
"use strict";
const http = require("http");
const { launch, slow } = require("./cdp_pipe.js");

const [chromium, base, outdir] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open } = launch(chromium, outdir);

// GET /api/events on a socket of its own: resolves with the status, the
// request kept open (a stream holds its slot while it is).
function stream() {
  return new Promise((resolve, reject) => {
    const req = http.get(base + "/api/events", { agent: false }, (res) => {
      res.on("data", () => {});
      resolve({ status: res.statusCode, req });
    });
    req.on("error", reject);
  });
}

async function main() {
  setTimeout(() => die("timed out"), slow(120000)).unref();
  // Fill this address's streams until the server refuses one (bounded).
  const held = [];
  for (let i = 0; i < 64; i++) {
    const s = await stream();
    if (s.status === 429) { s.req.destroy(); break; }
    if (s.status !== 200) die("stream " + i + " -> " + s.status);
    held.push(s);
  }
  if (held.length === 0 || held.length === 64) die("no 429 after " + held.length + " streams");
  console.log("streams of one address before 429: " + held.length);

  const wall = await open(base + "/");
  await send("Emulation.setDeviceMetricsOverride", { width: 1920, height: 1080, deviceScaleFactor: 1, mobile: false }, wall);
  await waitFor(wall, "document.body.dataset.ready", "1", "wall loaded");
  // Refused: no pings, so the wall says it is offline.
  await waitFor(wall, "document.body.classList.contains('offline')", true, "wall offline while refused", 20000);
  await screenshot(wall, "reconnect-refused.png");
  // The console's state comes from its stream alone: refused, none yet.
  const desk = await open(base + "/console");
  await waitFor(desk, "document.body.dataset.ready", "1", "console loaded");
  const summary = "document.getElementById('summary').textContent";
  if ((await evaluate(desk, summary)) !== "-") die("the console had a state while its stream was refused");

  for (const s of held) s.req.destroy();
  // Both come back by themselves: the wall live again, the console's
  // stream delivering state (its score box filled from an event).
  await waitFor(wall, "document.body.classList.contains('offline') + ' ' + document.getElementById('h-live').textContent",
    "false live", "wall live again after the streams were freed", 60000);
  await screenshot(wall, "reconnect-live.png");
  await waitFor(desk, summary, "No match under way.", "the console's stream reopened", 60000);
  await send("Browser.close").catch(() => {});
  console.log("ok: the wall and the console reconnected after a 429");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
