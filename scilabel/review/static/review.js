// scilabel review: the page's screenshot with its zone boxes, the zone list beside it, labels set by
// key or menu. Talks only to the server that served it (see scilabel/review/server.py).
"use strict";

const app = {session: null, index: 0, page: null, boxes: [], rows: [], selected: new Set(), anchor: null,
             dragging: false, busy: Promise.resolve()};
const $ = (id) => document.getElementById(id);

async function call(path, body) {
  const options = body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const answer = await fetch(path, options);
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

function say(text) { $("status").textContent = text; }

function colour(label) { return app.session.colours[label] || "#999"; }

function paint(i) {
  const zone = app.page.zones[i], label = zone[4], changed = label !== zone[5];
  const box = app.boxes[i], row = app.rows[i];
  box.className = "box lab-" + label + (app.selected.has(i) ? " selected" : "") + (changed ? " changed" : "") +
    (isSure(i) ? " sure" : "");
  box.style.setProperty("--c", colour(label));
  box.title = `${i}: ${label} (model: ${zone[5]}, p=${zone[6]})\n${zone[7].slice(0, 200)}`;
  row.className = "row" + (app.selected.has(i) ? " selected" : "") + (changed ? " changed" : "") +
    (isSure(i) ? " hidden" : "");
  row.children[1].textContent = label;
  row.children[1].style.setProperty("--c", colour(label));
}

function filtering() { return $("unsure").checked; }
function threshold() { return parseFloat($("threshold").value) || 0; }
function isSure(i) { return filtering() && app.page.zones[i][6] >= threshold(); }

function showStatus() {
  const p = app.page;
  $("status").className = p.dirty ? "dirty" : "";
  say(`${app.selected.size} selected · ${p.zones.length} zones · uncertainty ${p.uncertainty}` +
      (p.saved ? " · has gold" : ""));
}

function select(rows, keepAnchor) {
  const before = app.selected;
  app.selected = new Set(rows);
  for (const i of before) if (!app.selected.has(i)) paint(i);
  for (const i of app.selected) if (!before.has(i)) paint(i);
  if (!keepAnchor) app.anchor = rows.length ? rows[0] : null;
  showStatus();
}

function run(from, to) {
  const out = [];
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) out.push(i);
  return out;
}

function pick(i, event) {
  if (event.shiftKey && app.anchor !== null) select(run(app.anchor, i), true);
  else select([i]);
}

function reveal(i) {
  app.rows[i].scrollIntoView({block: "nearest"});
  app.boxes[i].scrollIntoView({block: "nearest", inline: "nearest"});
}

function build(page) {
  app.page = page;
  app.selected = new Set();
  app.anchor = null;
  $("page-name").textContent = `${page.index + 1} / ${page.pages}: ${page.name}`;
  const canvas = $("canvas"), boxes = $("boxes"), body = $("zone-list");
  const image = $("page-image");
  image.src = `/api/pages/${page.index}/screenshot.png?v=${Date.now()}`;
  const boxFragment = document.createDocumentFragment(), rowFragment = document.createDocumentFragment();
  app.boxes = page.zones.map((zone, i) => {
    const box = document.createElement("div");
    box.dataset.i = i;
    boxFragment.appendChild(box);
    return box;
  });
  app.rows = page.zones.map((zone, i) => {
    const row = document.createElement("div");
    row.dataset.i = i;
    for (const text of [String(i), zone[4], zone[6].toFixed(2), zone[7]]) {
      const cell = document.createElement("span");
      cell.textContent = text;
      row.appendChild(cell);
    }
    rowFragment.appendChild(row);
    return row;
  });
  boxes.replaceChildren(boxFragment);
  body.replaceChildren(rowFragment);
  order();
  page.zones.forEach((_, i) => paint(i));
  fit();
  showStatus();
  location.hash = String(page.index);
}

function fit() {
  // the page drawn to the view's width: picture and boxes sized here, not by a CSS transform (a scaled
  // layer is drawn again whole at each change, which on a long page takes a second)
  if (!app.page) return;
  const width = app.page.page_width || 1280;
  const scale = Math.min(1, ($("view").clientWidth - 4) / width);
  $("page-image").style.width = width * scale + "px";
  $("canvas").style.width = width * scale + "px";
  app.page.zones.forEach((zone, i) => {
    const style = app.boxes[i].style;
    style.left = zone[0] * scale + "px"; style.top = zone[1] * scale + "px";
    style.width = Math.max(zone[2] * scale, 2) + "px"; style.height = Math.max(zone[3] * scale, 2) + "px";
  });
}

function order() {
  // the zone list: page order, or the least sure first while the filter is on
  const body = $("zone-list");
  const rows = app.page.zones.map((_, i) => i);
  if (filtering()) rows.sort((a, b) => app.page.zones[a][6] - app.page.zones[b][6]);
  body.replaceChildren(...rows.map((i) => app.rows[i]));
}

function refilter() {
  order();
  app.page.zones.forEach((_, i) => paint(i));
}

function applyChanges(answer) {
  for (const [i, label] of answer.changed) {
    app.page.zones[i][4] = label;
    paint(i);
  }
  app.page.version = answer.version;
  app.page.dirty = answer.dirty;
  showStatus();
}

function queue(work) {
  // server actions one after another, in the order the reviewer made them
  app.busy = app.busy.then(work).catch((error) => say("error: " + error.message));
  return app.busy;
}

function setLabel(label) {
  const rows = [...app.selected];
  if (!rows.length) return;
  for (const i of rows) { app.page.zones[i][4] = label; paint(i); }  // shown at once, confirmed below
  const index = app.page.index;
  queue(async () => {
    const answer = await call(`/api/pages/${index}/labels`, {zones: rows, label});
    if (app.page.index === index) applyChanges(answer);
  });
}

function undo() {
  const index = app.page.index;
  queue(async () => {
    const answer = await call(`/api/pages/${index}/undo`, {});
    if (app.page.index === index) applyChanges(answer);
  });
}

function save() {
  const index = app.page.index;
  queue(async () => {
    const answer = await call(`/api/pages/${index}/save`, {});
    if (app.page.index === index) {
      app.page.dirty = answer.dirty;
      app.page.saved = true;
      showStatus();
      say(`saved ${answer.gold_file} (fields: ${answer.fields_scored.join(", ") || "none"})`);
    }
  });
}

function openPage(index) {
  if (index < 0 || index >= app.session.pages.length) return;
  say("reading page " + (index + 1) + " …");
  queue(async () => build(await call(`/api/pages/${index}`)));
}

function move(step, extend) {
  const n = app.page.zones.length;
  if (!n) return;
  const visible = [...$("zone-list").children].filter((r) => !r.classList.contains("hidden"))
    .map((r) => Number(r.dataset.i));
  const current = app.selected.size ? (step > 0 ? Math.max(...app.selected) : Math.min(...app.selected)) : -1;
  const at = visible.indexOf(current);
  const next = visible[Math.max(0, Math.min(visible.length - 1, at + step))];
  if (next === undefined) return;
  if (extend && app.anchor !== null) select(run(app.anchor, next), true);
  else select([next]);
  reveal(next);
}

function keys(event) {
  if (event.target.tagName === "INPUT" || !app.page) return;
  const key = event.key, ctrl = event.ctrlKey || event.metaKey;
  if (!ctrl && app.session.keys[key]) setLabel(app.session.keys[key]);
  else if (key === "Delete" || key === "Backspace") setLabel("other");
  else if (key === "u" || (ctrl && key === "z")) undo();
  else if (key === "s" || (ctrl && key === "s")) save();
  else if (key === "n") openPage(app.page.index + 1);
  else if (key === "p") openPage(app.page.index - 1);
  else if (key === "ArrowDown" || key === "j") move(1, event.shiftKey);
  else if (key === "ArrowUp" || key === "k") move(-1, event.shiftKey);
  else if (key === "Escape") select([]);
  else return;
  event.preventDefault();
}

function zoneOf(event) {
  const target = event.target.closest("[data-i]");
  return target ? Number(target.dataset.i) : null;
}

function wire() {
  for (const label of app.session.labels) {
    const key = Object.keys(app.session.keys).find((k) => app.session.keys[k] === label);
    const button = document.createElement("button");
    button.dataset.label = label;
    button.textContent = `${key} ${label}`;
    button.style.setProperty("--c", colour(label));
    button.addEventListener("click", () => setLabel(label));
    $("labels").appendChild(button);
  }
  const press = (event) => {
    const i = zoneOf(event);
    if (i === null || event.button !== 0) return;
    pick(i, event);
    app.dragging = !event.shiftKey;
    event.preventDefault();
  };
  const over = (event) => {
    const i = zoneOf(event);
    if (app.dragging && i !== null && app.anchor !== null) select(run(app.anchor, i), true);
  };
  for (const area of [$("boxes"), $("zone-list")]) {
    area.addEventListener("mousedown", press);
    area.addEventListener("mouseover", over);
  }
  document.addEventListener("mouseup", () => { app.dragging = false; });
  document.addEventListener("keydown", keys);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("prev").addEventListener("click", () => openPage(app.page.index - 1));
  $("next").addEventListener("click", () => openPage(app.page.index + 1));
  $("unsure").addEventListener("change", refilter);
  $("threshold").addEventListener("change", refilter);
  $("page-image").addEventListener("load", fit);
  window.addEventListener("resize", fit);
}

async function start() {
  app.session = await call("/api/session");
  wire();
  const first = parseInt(location.hash.slice(1), 10);
  openPage(Number.isInteger(first) ? first : 0);
}

start().catch((error) => say("error: " + error.message));
