// The replay page's face buttons in headless chromium (tests/e2e/browser_faces.sh):
//   node faces.js CHROMIUM BASE OUTDIR PIN THROW READ_FACE FACE
// THROW: a simulated throw whose die came to rest, its face read as
// READ_FACE. On a phone (390x844): without a session no buttons, the die
// "not checked"; an official logged in sees "Yes, it's a READ_FACE" and
// faces 1-6, each at least a thumb's size (44 px), taps FACE with a touch
// and the page says it is saved and shows it; a reload shows it still.
// Shown on the wall (1920x1080), the challenge draws the die's crop from
// the picture asked for by id. Screenshots to OUTDIR.
"use strict";
const { launch, slow } = require("./cdp_pipe");

const [chromium, base, outdir, pin, throwNo, readFace, face] = process.argv.slice(2);
const { send, die, evaluate, waitFor, screenshot, open, browserLogin } = launch(chromium, outdir);

async function openReplay(s) {
  await send("Page.navigate", { url: base + "/replay/" + throwNo + "?match=1" }, s);
  await waitFor(s, "location.pathname === '/replay/" + throwNo + "' && document.body.dataset.ready === '1'", true, "replay loaded");
}
async function shot(s, file) {
  await evaluate(s, "document.getElementById('snapshots').scrollIntoView(); true");
  await screenshot(s, file);
}
// A finger's tap at sel's centre (scrolled into view), which must be sel
// itself there, not something over it.
async function tap(s, sel) {
  const r = await evaluate(s, `(() => {
    const e = document.querySelector(${JSON.stringify(sel)});
    if (!e) return null;
    e.scrollIntoView({ block: "center" });
    const b = e.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
    const hit = document.elementFromPoint(x, y);
    return { x, y, mine: !!hit && (hit === e || e.contains(hit)) };
  })()`);
  if (!r || !r.mine) die(sel + ": nothing to tap there (" + JSON.stringify(r) + ")");
  await send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: r.x, y: r.y }] }, s);
  await send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }, s);
}

async function main() {
  setTimeout(() => die("timed out"), slow(30000)).unref();
  const s = await open("about:blank");
  await send("Emulation.setDeviceMetricsOverride", { width: 390, height: 844, deviceScaleFactor: 1, mobile: true }, s);
  await send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 }, s);
  await openReplay(s);
  await waitFor(s, "document.querySelector('.snap-label') && document.querySelector('.snap-label').textContent",
    "Not checked by an official yet", "an unchecked die says so");
  await waitFor(s, "document.querySelectorAll('.face-pick').length", 0, "no face buttons without an official");
  // The official logs in on this browser.
  await browserLogin(s, base, pin, "Kim");
  await openReplay(s);
  await waitFor(s, "document.querySelectorAll('.face-pick .face-btn').length", 6, "faces 1-6 for the official");
  await waitFor(s, "document.querySelector('.face-yes').textContent", "Yes, it\u2019s a " + readFace, "the face read, to confirm");
  // A thumb's target: 44 px each way at least, and nothing wider than the phone.
  await waitFor(s, "[...document.querySelectorAll('.face-pick button')].every((b) => { const r = b.getBoundingClientRect();" +
    " return r.width >= 44 && r.height >= 44; })", true, "buttons a thumb can hit (44 px)");
  await waitFor(s, "innerWidth + 'x' + innerHeight", "390x844", "the phone's viewport");
  await waitFor(s, "document.documentElement.scrollWidth <= innerWidth", true, "no horizontal overflow at 390x844");
  await shot(s, "faces-390-before.png");
  await tap(s, ".face-btn[aria-label='face " + face + "']");
  await waitFor(s, "document.querySelector('.face-pick .msg').textContent",
    "Saved: a " + face + ". Thank you: the camera learns from it.", "the tap saved");
  await waitFor(s, "/^Checked: " + face + " \\(the camera read " + readFace + "\\), by Kim, /.test(document.querySelector('.snap-label').textContent)",
    true, "the label shown with who");
  await waitFor(s, "document.querySelector('.face-btn.on') && document.querySelector('.face-btn.on').textContent", face, "the face set marked");
  await shot(s, "faces-390-after.png");
  // Stored, not only drawn: a reload shows it.
  await openReplay(s);
  await waitFor(s, "/^Checked: " + face + " /.test(document.querySelector('.snap-label').textContent)", true, "the label after a reload");
  // The same die on the wall as a challenge replay (1920x1080): its crop
  // drawn from the picture asked for by id, which pruning an earlier
  // picture of the throw does not move.
  await tap(s, "#show-wall");
  await waitFor(s, "document.getElementById('msg').textContent", "Throw " + throwNo + " is on the wall.", "Show on wall's answer");
  const wall = await open("about:blank");
  await send("Emulation.setDeviceMetricsOverride", { width: 1920, height: 1080, deviceScaleFactor: 1, mobile: false }, wall);
  await send("Page.navigate", { url: base + "/" }, wall);
  await waitFor(wall, "(() => { const f = document.querySelector('#challenge .ch-cam'); return !!f && f.dataset.loaded === '1'; })()",
    true, "the challenge's camera crop drawn");
  await waitFor(wall, "performance.getEntriesByType('resource').some((e) => /\\/throws\\/" + throwNo +
    "\\/snapshots\\/1\\.jpg\\?id=[0-9]+$/.test(e.name))", true, "the wall's picture asked for by its id");
  await waitFor(wall, "document.querySelector('#challenge .ch-cam figcaption').textContent", "Camera: face " + readFace,
    "the face the camera read under the crop");
  await screenshot(wall, "faces-wall-challenge-1920.png");
  await send("Browser.close").catch(() => {});
  console.log("ok: no buttons for the public, thumb-sized faces for the official, a tap stored and shown, the crop on the wall");
  process.exit(0);
}
main().catch((e) => die(e.stack || String(e)));
