// Walk the rendered DOM in document order and return one row per element and per text node.
// Element row: [1, parent, tag, display, visibility, fontSize, fontWeight, fontStyle, x, y, w, h, clipped, attrs]
// Text row:    [3, parent, text, x, y, w, h]  (box = union of the text's line boxes; w = h = 0 when it has none)
// Coordinates are CSS px relative to the document. Iterative, so arbitrarily deep trees are safe.
// Runs in an isolated world (the page's scripts cannot replace what it calls). Gives {error: "root"}
// when the document has no root element and {error: "nodes"} past maxNodes rows.
maxNodes => {
  const root = document.documentElement;
  if (!root) return JSON.stringify({error: "root"});
  if (document.getElementsByTagName("*").length > maxNodes) return JSON.stringify({error: "nodes"});
  // <object> is not skipped: its children are fallback content, shown because its own load is blocked.
  const SKIP = new Set(["script", "style", "noscript", "template", "head", "iframe"]);
  const KEEP_ATTRS = ["id", "class", "href"];
  const sx = window.scrollX, sy = window.scrollY;
  const range = document.createRange();
  const rows = [];
  const stack = [[root, -1]];
  while (stack.length) {
    if (rows.length > maxNodes) return JSON.stringify({error: "nodes"});
    const [node, parent] = stack.pop();
    if (node.nodeType === Node.ELEMENT_NODE) {
      const tag = node.localName;
      if (SKIP.has(tag)) continue;
      const cs = getComputedStyle(node);
      const r = node.getBoundingClientRect();
      const attrs = {};
      for (const a of node.attributes) {
        if (KEEP_ATTRS.includes(a.name) || a.name.startsWith("data-scilabel")) attrs[a.name] = a.value.slice(0, 300);
      }
      const overflowHidden = cs.overflowX !== "visible" && cs.overflowY !== "visible";
      const clipped = (overflowHidden && (r.width <= 1 || r.height <= 1)) ||
        cs.clip === "rect(0px, 0px, 0px, 0px)" || cs.opacity === "0";
      const index = rows.length;
      rows.push([1, parent, tag, cs.display, cs.visibility, parseFloat(cs.fontSize) || 0,
        parseInt(cs.fontWeight, 10) || 400, cs.fontStyle, r.x + sx, r.y + sy, r.width, r.height,
        clipped, attrs]);
      if (cs.display === "none" || clipped) continue;
      const kids = node.childNodes;
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], index]);
    } else if (node.nodeType === Node.TEXT_NODE) {
      const text = node.data;
      if (!text) continue;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      if (text.trim()) {
        range.selectNodeContents(node);
        for (const b of range.getClientRects()) {
          if (b.width <= 0 || b.height <= 0) continue;
          x0 = Math.min(x0, b.left); y0 = Math.min(y0, b.top);
          x1 = Math.max(x1, b.right); y1 = Math.max(y1, b.bottom);
        }
      }
      if (x0 === Infinity) rows.push([3, parent, text, 0, 0, 0, 0]);
      else rows.push([3, parent, text, x0 + sx, y0 + sy, x1 - x0, y1 - y0]);
    }
  }
  // One JSON string: far cheaper to pass out of the page than a nested value.
  return JSON.stringify({
    rows,
    title: document.title || "",
    width: Math.max(root.scrollWidth, document.body ? document.body.scrollWidth : 0),
    height: Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0),
  });
}
