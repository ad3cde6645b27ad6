"use strict";
// The challenge replay on the wall (Hawk-Eye's replay on the stadium
// screen): while /api/state's "challenge" names a throw, a full-screen
// overlay inside #challenge-root shows the table drawing with the
// landings and their uncertainty (tabledraw.js), the camera's crop of the
// die when there is a snapshot, the verdict with how sure it is ("Blue's
// half, 97 % sure") and the ruling with the score. The daemon takes it off
// after its time ([web] challenge_s, its clock) or on dismissal; this file
// only follows the state (window "dyeref-state" events, detail the state).
(() => {
  let shown = null;	// "match:throw" on the wall, or null
  let timer = null;	// the countdown's redraw (display only)
  const root = () => document.getElementById("challenge-root");
  const HALVES = (names) => ({ A: teamName(names, "A", true) + "'s half", B: teamName(names, "B", true) + "'s half", line: "on the line" });

  // The verdict: where it landed on the table (the last landing, what a
  // challenge is about) with that landing's confidence (0..1, or null for
  // an official's entry); then what ended the throw, in words.
  function verdict(d) {
    const ev = (d.judged && d.judged.events) || [];
    const players = d.players || {};
    const name = (seat) => {
      const m = /^([ab])([12])$/.exec(seat || "");
      return (m && players[m[1].toUpperCase()] && players[m[1].toUpperCase()][m[2] - 1]) || seat;
    };
    const tables = ev.filter((e) => e.at === "table");
    const land = tables[tables.length - 1];
    const then = [];
    for (const e of ev) {
      if (e.at === "cup") then.push((e.sink ? "in " : "off ") + name(e.owner) + "'s cup");
      else if (e.at === "catch") then.push("caught by " + name(e.by));
      else if (e.at === "floor") then.push("on the floor");
      else if (e.at === "rest") then.push("came to rest");
    }
    const pick = land || ev.find((e) => e.at === "cup" || e.at === "catch" || e.at === "floor");
    let words = land ? HALVES(d.team_names)[land.half] || "on the table" : then.shift() || "no landing recorded";
    words = words.charAt(0).toUpperCase() + words.slice(1);
    let conf = pick && typeof pick.confidence === "number" ? pick.confidence : null;
    if (conf === null && (d.observations || []).length && typeof d.confidence === "number") conf = d.confidence;
    return { words, conf, then: then.length ? "then " + then.join(", then ") : "" };
  }
  function sure(conf) {
    return conf === null ? "entered by the official" : Math.round(conf * 100) + "\u00a0% sure";
  }

  function crop(d) {
    const s = (d.snapshots || []).find((x) => x && x.die && x.width && x.height);
    if (!s) return null;
    const fig = el("figure", "ch-cam");
    const c = el("canvas", "ch-crop");
    c.width = c.height = 360;
    const img = new Image();
    img.addEventListener("load", () => {
      const side = Math.min(4 * s.die.r, img.naturalWidth, img.naturalHeight);
      const x0 = Math.max(0, Math.min(img.naturalWidth - side, s.die.x - side / 2));
      const y0 = Math.max(0, Math.min(img.naturalHeight - side, s.die.y - side / 2));
      const g = c.getContext("2d");
      g.imageSmoothingEnabled = false;
      g.drawImage(img, x0, y0, side, side, 0, 0, c.width, c.height);
      fig.dataset.loaded = "1";
    });
    img.src = "/api/matches/" + d.match + "/throws/" + d.throw + "/snapshots/" + s.index + ".jpg" +
      (s.id ? "?id=" + s.id : "");
    fig.appendChild(c);
    fig.appendChild(el("figcaption", null, s.face ? "Camera: face " + s.face : "Camera"));
    return fig;
  }

  function build(d, ch) {
    const box = el("div", "challenge");
    box.id = "challenge";
    box.dataset.match = String(ch.match);
    box.dataset.throw = String(ch.throw);
    const head = el("div", "ch-head");
    head.appendChild(el("span", "ch-title", "Challenge: throw " + ch.throw + (d.ruling ? " by " + d.ruling.thrower : "")));
    const left = el("span", "ch-left");
    left.id = "challenge-left";
    head.appendChild(left);
    box.appendChild(head);
    const body = el("div", "ch-body");
    const draw = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    draw.setAttribute("class", "ch-table");
    draw.setAttribute("viewBox", "-0.1 -0.12 2.64 1.44");
    drawTableInto(draw, d, landings(d), { scale: 1.6 });
    body.appendChild(draw);
    const side = el("div", "ch-side");
    const v = verdict(d);
    const vd = el("div", "ch-verdict");
    vd.id = "challenge-verdict";
    vd.textContent = v.words + ", " + sure(v.conf);
    side.appendChild(vd);
    if (v.then) {
      const th = el("div", "ch-then", v.then);
      th.id = "challenge-then";
      side.appendChild(th);
    }
    const cam = crop(d);
    if (cam) side.appendChild(cam);
    body.appendChild(side);
    box.appendChild(body);
    const foot = el("div", "ch-ruling");
    foot.id = "challenge-ruling";
    foot.textContent = (d.ruling ? pointsWords(d.ruling, d.team_names) : "no ruling") +
      (d.ruling && d.ruling.score ? "  \u2022  " + teamName(d.team_names, "A", true) + " " + d.ruling.score.A +
        " \u2013 " + d.ruling.score.B + " " + teamName(d.team_names, "B", true) : "");
    box.appendChild(foot);
    return box;
  }

  function countdown(ch) {
    clearInterval(timer);
    const end = Date.now() + (ch.left_ms || 0);
    const tick = () => {
      const e = document.getElementById("challenge-left");
      if (e) e.textContent = "back to the score in " + Math.max(0, Math.ceil((end - Date.now()) / 1000)) + " s";
    };
    tick();
    timer = setInterval(tick, 250);
  }

  function hide() {
    clearInterval(timer);
    timer = null;
    shown = null;
    const r = root();
    if (r) clear(r);
    document.body.classList.remove("challenging");
  }

  async function show(ch) {
    const key = ch.match + ":" + ch.throw;
    if (shown === key) { countdown(ch); return; }
    shown = key;
    const r = await fetch("/api/matches/" + ch.match + "/throws/" + ch.throw).catch(() => null);
    const d = r && r.ok ? await r.json().catch(() => null) : null;
    if (shown !== key) return;	// taken off (or replaced) while loading
    const at = root();
    if (!d || !at) { shown = null; return; }
    clear(at);
    at.appendChild(build(d, ch));
    document.body.classList.add("challenging");
    countdown(ch);
  }

  window.addEventListener("dyeref-state", (e) => {
    const ch = e.detail && e.detail.challenge;
    if (ch && ch.match && ch.throw) show(ch);
    else if (shown) hide();
  });
})();
