"use strict";
// The table drawing, shared by the replay page (replay.js) and the wall's
// challenge replay (wall_challenge.js): a throw's detail (/api/matches/N/
// throws/K) drawn as SVG, the landings with their uncertainty.
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}
const cm = (m) => (m * 100).toFixed(1) + " cm";

// The ruling's landings (judged table events) in order, each with the
// observations that located it: the sensors' point nearest in time
// (within 200 ms), else none.
function landings(d) {
  const out = [];
  for (const e of (d.judged && d.judged.events) || []) if (e.at === "table") out.push({ ev: e, obs: [] });
  for (const o of d.observations || []) {
    if (!o.event || o.event.at !== "table" || o.event.t_ns === undefined) continue;
    let best = null, gap = 2e8;
    for (const l of out) {
      if (l.ev.t_ns === undefined) continue;
      const g = Math.abs(l.ev.t_ns - o.event.t_ns);
      if (g <= gap) { gap = g; best = l; }
    }
    if (best) best.obs.push(o);
  }
  return out;
}

// The table as seen from above into the SVG element g (viewBox in metres:
// "-0.1 -0.1 2.64 1.42" shows the whole table): the halves, the centre
// line, the cups, the mine; each sensor's located point with its 1-sigma
// circle; the ruling's landings, numbered, each with "\u00b1 n cm". Returns
// the set of marks drawn ("landing", "piezo", "camera", "sigma") for a
// legend. opts.scale (default 1) enlarges the labels (the wall's).
function drawTableInto(g, d, lands, opts) {
  const k = (opts && opts.scale) || 1;
  clear(g);
  const t = d.table, drawn = new Set();
  svg("rect", { x: 0, y: 0, width: t.length_m, height: t.width_m, fill: "#6b4f2a", stroke: "#c9a46b", "stroke-width": 0.01 }, g);
  svg("line", { x1: t.length_m / 2, y1: 0, x2: t.length_m / 2, y2: t.width_m, stroke: "#fff", "stroke-width": 0.02 }, g);
  const lbl = (x, text, anchor) => {
    const e = svg("text", { x, y: -0.03, "font-size": 0.07 * k, fill: "#ccc", "text-anchor": anchor }, g);
    e.textContent = text;
  };
  lbl(0.02, "A's end", "start"); lbl(t.length_m - 0.02, "B's end", "end");
  t.cups.forEach((c, i) => {
    svg("circle", { cx: c.x, cy: c.y, r: t.cup_radius_m, fill: i < 2 ? "#ff7a3d" : "#3db4ff" }, g);
  });
  svg("circle", { cx: t.mine.x, cy: t.mine.y, r: t.mine_radius_m, fill: "#aaa" }, g);
  // Each sensor's located point, with its 1-sigma circle.
  for (const o of d.observations || []) {
    if (!o.event || o.event.at !== "table" || o.event.x === undefined) continue;
    const cam = o.source === "camera";
    if (o.sigma_m) {
      svg("circle", { cx: o.event.x, cy: o.event.y, r: o.sigma_m, fill: "none", stroke: "#ffcc00", "stroke-width": 0.008, "stroke-dasharray": "0.02 0.015" }, g);
      drawn.add("sigma");
    }
    svg(cam ? "rect" : "circle", cam ? { x: o.event.x - 0.02, y: o.event.y - 0.02, width: 0.04, height: 0.04, fill: "#3ddc84" }
      : { cx: o.event.x, cy: o.event.y, r: 0.02, fill: "#ffcc00" }, g);
    drawn.add(cam ? "camera" : "piezo");
  }
  // The ruling's landings, numbered, each with its sensors' uncertainty;
  // a label that would cover another moves to the next free place.
  const placed = [];
  const spots = [[0.045, -0.03], [0.045, 0.07], [-1, -0.03], [-1, 0.07], [0.045, 0.17], [-1, 0.17], [0.045, -0.13], [-1, -0.13]];
  lands.forEach((l, i) => {
    const e = l.ev;
    if (e.x === undefined) return;
    svg("circle", { cx: e.x, cy: e.y, r: 0.035, fill: "none", stroke: "#fff", "stroke-width": 0.012, class: "landing-ring" }, g);
    const sig = l.obs.find((o) => o.sigma_m);
    const w = sig ? 0.2 : 0.06;
    // -1: left of the ring, as wide as the label; none past the table's ends.
    const free = spots.map((sp) => [sp[0] < 0 ? -0.045 - w : sp[0], sp[1]])
      .filter((sp) => e.x + sp[0] > -0.08 && e.x + sp[0] + w < t.length_m + 0.08);
    let at = free[0] || [0.045, -0.03];
    for (const sp of free) {
      const x = e.x + sp[0], y = e.y + sp[1];
      if (!placed.some((p) => x < p[0] + p[2] && p[0] < x + w && Math.abs(y - p[1]) < 0.085)) { at = sp; break; }
    }
    const x = e.x + at[0], y = e.y + at[1];
    placed.push([x, y, w]);
    const lab = svg("text", { x, y, "font-size": 0.075 * k, fill: "#fff", "font-weight": "bold", class: "landing-label" }, g);
    const n = svg("tspan", { class: "landing-no" }, lab);
    n.textContent = String(i + 1);
    if (sig) {
      const u = svg("tspan", { "font-size": 0.05 * k, fill: "#ffcc00", "font-weight": "normal", dx: 0.01 }, lab);
      u.textContent = "\u00b1" + cm(sig.sigma_m);
    }
    drawn.add("landing");
  });
  return drawn;
}
