"use strict";
// One throw as evidence: the timeline of observations, the located points on
// the table with their uncertainty, the ruling and any corrections.
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}
function describe(ev) {
  if (!ev) return "";
  let s = ev.at;
  if (ev.half) s += " " + ev.half;
  if (ev.owner) s += " " + ev.owner + (ev.sink ? " (sink)" : "");
  if (ev.by) s += " by " + ev.by;
  if (ev.hands) s += ", " + ev.hands + " hand" + (ev.hands > 1 ? "s" : "");
  if (ev.trapped) s += ", trapped";
  if (ev.over_table) s += ", over the table";
  if (ev.face) s += ", face " + ev.face;
  if (ev.part) s += " (" + ev.part + ")";
  return s;
}
function drawTable(d) {
  const g = $("drawing"); clear(g);
  const t = d.table;
  svg("rect", { x: 0, y: 0, width: t.length_m, height: t.width_m, fill: "#6b4f2a", stroke: "#c9a46b", "stroke-width": 0.01 }, g);
  svg("line", { x1: t.length_m / 2, y1: 0, x2: t.length_m / 2, y2: t.width_m, stroke: "#fff", "stroke-width": 0.02 }, g);
  const lbl = (x, text) => { const e = svg("text", { x, y: -0.03, "font-size": 0.07, fill: "#ccc" }, g); e.textContent = text; };
  lbl(0.02, "A's end"); lbl(t.length_m - 0.32, "B's end");
  t.cups.forEach((c, i) => {
    svg("circle", { cx: c.x, cy: c.y, r: t.cup_radius_m, fill: i < 2 ? "#ff7a3d" : "#3db4ff" }, g);
  });
  svg("circle", { cx: t.mine.x, cy: t.mine.y, r: t.mine_radius_m, fill: "#aaa" }, g);
  // Each sensor's located point, with its 1-sigma circle.
  for (const o of d.observations || []) {
    if (!o.event || o.event.at !== "table" || o.event.x === undefined) continue;
    const cam = o.source === "camera";
    if (o.sigma_m) svg("circle", { cx: o.event.x, cy: o.event.y, r: o.sigma_m, fill: "none", stroke: "#ffcc00", "stroke-width": 0.008, "stroke-dasharray": "0.02 0.015" }, g);
    svg(cam ? "rect" : "circle", cam ? { x: o.event.x - 0.02, y: o.event.y - 0.02, width: 0.04, height: 0.04, fill: "#3ddc84" }
      : { cx: o.event.x, cy: o.event.y, r: 0.02, fill: "#ffcc00" }, g);
  }
  for (const e of (d.judged && d.judged.events) || [])
    if (e.at === "table" && e.x !== undefined) svg("circle", { cx: e.x, cy: e.y, r: 0.035, fill: "none", stroke: "#fff", "stroke-width": 0.012 }, g);
}
function render(d) {
  $("title").textContent = "Match " + d.match + ", throw " + d.throw;
  $("ruling").textContent = rulingWords(d.ruling, d.team_names) + (d.ruling && d.ruling.corrected ? " (corrected)" : "");
  const rules = $("rules"); clear(rules);
  for (const r of (d.ruling && d.ruling.rules) || []) {
    const li = el("li"); li.appendChild(el("b", null, r.id + " ")); li.appendChild(document.createTextNode(r.text)); rules.appendChild(li);
  }
  for (const x of (d.ruling && d.ruling.duties) || []) rules.appendChild(el("li", "duty", dutyText(x, d.team_names)));
  $("review").textContent = d.review_why ? "Doubtful: " + d.review_why + (d.confirmed ? " - confirmed by an official" : "") :
    (d.confirmed ? "Confirmed by an official" : "");
  drawTable(d);
  const tb = $("timeline"); clear(tb);
  for (const o of d.observations || []) {
    const tr = el("tr");
    tr.appendChild(el("td", null, o.t_ms.toFixed(1)));
    tr.appendChild(el("td", null, o.source));
    tr.appendChild(el("td", null, o.kind === "event" ? describe(o.event) : o.kind.replace(/_/g, " ")));
    tr.appendChild(el("td", null, o.confidence.toFixed(2)));
    let detail = "";
    if (o.arrivals) detail = "piezo arrivals: " + o.arrivals.map((a) => "#" + a.sensor + " " + a.t_ms.toFixed(2) + " ms").join(", ");
    if (o.sigma_m) detail += (detail ? "; " : "") + "\u00b1" + (o.sigma_m * 100).toFixed(1) + " cm";
    if (o.snapshot) detail += (detail ? "; " : "") + "snapshot " + o.snapshot;
    if (o.apex_m) detail += "apex " + o.apex_m.toFixed(2) + " m";
    if (o.until_ms !== undefined) detail += (detail ? "; " : "") + "a hit shook the table: no landing heard until " + o.until_ms.toFixed(1) + " ms";
    tr.appendChild(el("td", null, detail));
    tb.appendChild(tr);
  }
  if (!d.observations) { const tr = el("tr"); tr.appendChild(el("td", null, "entered by hand: no sensor record")); tb.appendChild(tr); }
  $("judged").textContent = (d.judged.events || []).map((e) => describe(e) + (e.source ? "  [" + e.source + (e.confidence !== undefined ? " " + e.confidence : "") + "]" : "")).join("\n");
  const sn = $("snapshots"); clear(sn);
  if (!d.snapshots) sn.textContent = "no snapshots";
  for (let i = 1; i <= (d.snapshots || 0); i++) {
    const img = el("img", "snapshot");
    img.src = "/api/matches/" + d.match + "/throws/" + d.throw + "/snapshots/" + i + ".jpg";
    img.alt = "camera snapshot " + i;
    sn.appendChild(img);
  }
  const c = $("corrections"); clear(c);
  if (!d.corrections.length) c.textContent = "none";
  d.corrections.forEach((x, i) => c.appendChild(el("div", null, (i + 1) + ". " + (x.events || []).map(describe).join(", "))));
}
async function main() {
  const n = parseInt(location.pathname.split("/").pop(), 10);
  const q = new URLSearchParams(location.search);
  let match = q.get("match");
  if (!match) {
    const s = await (await fetch("/api/state")).json();
    match = s.match;
  }
  $("prev").href = "/replay/" + Math.max(1, n - 1) + (q.get("match") ? "?match=" + match : "");
  $("next").href = "/replay/" + (n + 1) + (q.get("match") ? "?match=" + match : "");
  if (!match) { $("msg").textContent = "No match under way (add ?match=N)"; return; }
  const r = await fetch("/api/matches/" + match + "/throws/" + n);
  if (!r.ok) { $("msg").textContent = "Throw " + n + " of match " + match + " not found"; return; }
  render(await r.json());
  document.body.dataset.ready = "1";
}
main();
