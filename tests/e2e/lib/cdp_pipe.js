// Headless chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: fd 3 in, fd 4 out, NUL-separated JSON), with
// node's built-ins only: what the browser tests (cdp.js, board_strip.js)
// share. launch() starts the browser; its die() kills it and exits 1.
// Every time budget goes through slow(ms): ms times DYEREF_TEST_SLOWDOWN
// (default 1, as in lib/slow.sh), for slow or busy machines.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const http = require("http");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const slowdown = Number(process.env.DYEREF_TEST_SLOWDOWN || "1");
const slow = (ms) => Math.ceil(ms * (slowdown > 0 ? slowdown : 1));

function request(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let data = "";
      res.on("data", (d) => { data += d; });
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

// A browser at 1920x1080 whose screenshots go to outdir.
function launch(chromium, outdir) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "dyeref-chromium-"));
  const browser = spawn(chromium, [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--remote-debugging-pipe",
    "--user-data-dir=" + profile, "--window-size=1920,1080", "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  browser.stdio[2].on("data", (d) => { stderr += d; });

  let nextId = 1, buf = "";
  const waiting = new Map();
  browser.stdio[4].on("data", (chunk) => {
    buf += chunk.toString("utf8");
    let i;
    while ((i = buf.indexOf("\0")) >= 0) {
      const msg = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (msg.id && waiting.has(msg.id)) {
        const { resolve, reject } = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
      }
    }
  });
  function send(method, params = {}, sessionId) {
    const id = nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    browser.stdio[3].write(JSON.stringify(msg) + "\0");
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  }
  function die(why) {
    console.error("FAIL: " + why);
    if (stderr) console.error(stderr.split("\n").slice(-10).join("\n"));
    browser.kill("SIGKILL");
    process.exit(1);
  }
  async function evaluate(session, expr) {
    const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true }, session);
    return r.result.value;
  }
  async function waitFor(session, expr, want, what, ms = 15000) {
    const until = Date.now() + slow(ms);
    let last;
    while (Date.now() < until) {
      last = await evaluate(session, expr).catch(() => undefined);
      if (last === want) return;
      await sleep(100);
    }
    die(what + ": wanted " + JSON.stringify(want) + ", page shows " + JSON.stringify(last));
  }
  async function screenshot(session, file) {
    const r = await send("Page.captureScreenshot", { format: "png" }, session);
    fs.writeFileSync(path.join(outdir, file), Buffer.from(r.data, "base64"));
  }
  // A new tab on url, attached: its session.
  async function open(url) {
    const { targetId } = await send("Target.createTarget", { url });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    await send("Page.enable", {}, sessionId);
    return sessionId;
  }
  // The official logs in on this browser as name: the session cookie is
  // the tab's from then on.
  async function browserLogin(session, base, pin, name) {
    await send("Page.navigate", { url: base + "/console" }, session);
    await waitFor(session, "document.readyState", "complete", "console loaded");
    await evaluate(session, "window.loginStatus = 0; fetch('/console/login', { method: 'POST', headers: { 'Content-Type': " +
      "'application/x-www-form-urlencoded' }, body: 'pin=" + pin + "&name=" + name + "' })" +
      ".then((r) => fetch('/console/session')).then((r) => { window.loginStatus = r.status; }); true");
    await waitFor(session, "window.loginStatus", 200, "a session in the browser after login");
  }
  return { send, die, evaluate, waitFor, screenshot, open, browserLogin };
}

// The console's API as an official: consoleLogin(base, pin) logs in and
// gives post(body), which sends a command with the session's cookie and
// CSRF token and answers {status, body} (body parsed when JSON);
// post.cookie is the session's, for the console's GETs.
async function consoleLogin(base, pin) {
  const login = await request("POST", base + "/console/login", "pin=" + pin,
    { "Content-Type": "application/x-www-form-urlencoded" });
  if (login.status !== 200) throw new Error("login " + login.status);
  const auth = { cookie: login.headers["set-cookie"][0].split(";")[0], csrf: JSON.parse(login.body).csrf };
  const post = async (body) => {
    const r = await request("POST", base + "/console/api/command", JSON.stringify(body),
      { "Content-Type": "application/json", Cookie: auth.cookie, "X-CSRF-Token": auth.csrf });
    let j = r.body;
    try { j = JSON.parse(r.body); } catch (e) { /* not JSON: as it came */ }
    return { status: r.status, body: j };
  };
  post.cookie = auth.cookie;
  return post;
}

module.exports = { launch, request, sleep, slow, consoleLogin };
