"use strict";
// Renders the embedded rule book (Markdown) with the few constructs it uses:
// headings, lists, paragraphs, **bold**, *italic* and `code`. Text only, no HTML.
function inline(parent, text) {
  const re = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const t = m[0];
    if (t.startsWith("**")) parent.appendChild(el("b", null, t.slice(2, -2)));
    else if (t.startsWith("`")) parent.appendChild(el("code", null, t.slice(1, -1)));
    else parent.appendChild(el("i", null, t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}
function render(md) {
  const doc = $("doc"); clear(doc);
  const back = el("a", null, "scoreboard"); back.href = "/"; doc.appendChild(back);
  let list = null, para = null;
  for (const raw of md.split("\n")) {
    const line = raw.trimEnd();
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    if (!line) { list = null; para = null; continue; }
    if (h) { list = para = null; const e = el("h" + h[1].length); inline(e, h[2]); doc.appendChild(e); continue; }
    const li = /^\s*[-*]\s+(.*)$/.exec(line);
    if (li) { if (!list) { list = el("ul"); doc.appendChild(list); } para = el("li"); inline(para, li[1]); list.appendChild(para); continue; }
    if (para) { para.appendChild(document.createTextNode(" ")); inline(para, line.trim()); continue; }
    para = el("p"); inline(para, line); doc.appendChild(para);
  }
}
// /rules?match=N: that match's house rules on top, and each rule of the
// book a house rule changes marked where it stands.
function shown(v) { return typeof v === "boolean" ? (v ? "yes" : "no") : String(v); }
function markHouse(match, house, rules) {
  const doc = $("doc");
  const box = el("section", "house");
  box.id = "house";
  box.appendChild(el("h2", null, "House rules of match " + match));
  const list = el("ul");
  const differs = [];
  for (const r of rules) {
    if (!(r.key in house)) continue;
    const same = house[r.key] === r.book;
    const li = el("li", same ? null : "house-differs",
      r.text + (r.rule ? " (" + r.rule + ")" : "") + ": " + shown(house[r.key]));
    li.dataset.key = r.key;
    if (!same) {
      li.appendChild(el("span", "house-book", " - the book says " + shown(r.book)));
      differs.push(r);
    }
    list.appendChild(li);
  }
  box.appendChild(list);
  box.appendChild(el("p", null, differs.length ? differs.length + " differ from the book, marked below."
    : "All as the book says."));
  doc.insertBefore(box, doc.children[1] || null);
  for (const r of differs) {
    if (!r.rule) continue;
    for (const b of doc.querySelectorAll("li b, p b")) {
      if (b.textContent !== r.rule && b.textContent !== "Interpretation " + r.rule) continue;
      const item = b.parentElement;
      item.classList.add("house-differs");
      item.appendChild(el("span", "house-note", " This match: " + r.key + " = " + shown(house[r.key]) +
        " (the book: " + shown(r.book) + ")."));
    }
  }
}
const match = new URLSearchParams(location.search).get("match");
const getJson = (u) => fetch(u).then((r) => r.ok ? r.json() : Promise.reject(r.status));
fetch("/beer-die-rules.md").then((r) => r.ok ? r.text() : Promise.reject(r.status))
  .then(render).catch(() => { $("doc").textContent = "The rule book is not in this build."; })
  .then(() => {
    if (!match || !/^[0-9]+$/.test(match)) return;
    return Promise.all([getJson("/api/matches/" + match + "/throws"), getJson("/api/house")])
      .then(([m, h]) => markHouse(match, m.house, h.rules))
      .catch(() => {
        const p = el("p", "house", "Match " + match + " has no Beer Die house rules to show.");
        p.id = "house";
        $("doc").insertBefore(p, $("doc").children[1] || null);
      });
  });
