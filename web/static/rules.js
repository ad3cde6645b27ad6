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
fetch("/beer-die-rules.md").then((r) => r.ok ? r.text() : Promise.reject(r.status))
  .then(render).catch(() => { $("doc").textContent = "The rule book is not in this build."; });
