// The memfas inspector. Every text of the store goes into the page as text (textContent, value), never as markup.
"use strict";

const state = { namespace: null, offset: 0, selected: null, token: sessionStorage.getItem("memfas-token") };
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function status(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function call(method, path, params, body) {
  const url = new URL("/api/" + path, location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  }
  const headers = {};
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let answer = {};
  try { answer = await response.json(); } catch (e) { /* not JSON */ }
  if (response.status === 401) {
    $("token-bar").hidden = false;
    throw new Error("a bearer token is needed");
  }
  if (!response.ok) {
    const why = answer.error && (answer.error.message || answer.error);
    throw new Error(typeof why === "string" ? why : "HTTP " + response.status);
  }
  return answer;
}

function short(text, n) {
  return text.length <= n ? text : text.slice(0, n - 1) + "…";
}

// ---- memories ----

async function loadList(append) {
  if (!append) state.offset = 0;
  const params = {
    namespace: state.namespace, q: $("q").value.trim(), kind: $("kind").value.trim(),
    source: $("source").value.trim(), pinned: $("pinned").checked ? "true" : "",
    archived: $("archived").checked ? "true" : "", offset: state.offset,
  };
  const answer = await call("GET", "memories", params);
  const body = $("list").tBodies[0];
  if (!append) body.replaceChildren();
  for (const m of answer.memories) {
    const row = el("tr");
    row.dataset.id = m.id;
    row.append(el("td", short(m.text, 160), "text"), el("td", m.kind), el("td", m.source),
      el("td", m.created_at.slice(0, 16).replace("T", " ")));
    row.addEventListener("click", () => select(m.id));
    body.append(row);
  }
  state.offset += answer.memories.length;
  $("more").hidden = !answer.more;
  status(answer.search ? answer.memories.length + " best matches" : state.offset + " memories shown");
}

function flag(text) {
  return el("span", text);
}

async function select(id) {
  const m = await call("GET", "memory", { namespace: state.namespace, id });
  state.selected = m;
  for (const row of $("list").tBodies[0].rows) row.classList.toggle("selected", row.dataset.id === id);
  $("detail").hidden = false;
  $("d-id").textContent = m.id;
  $("d-text").value = m.text;
  const flags = $("d-flags");
  flags.replaceChildren();
  if (m.pinned) flags.append(flag("pinned"));
  if (m.archived) flags.append(flag("archived"));
  if (m.superseded_by) flags.append(flag("superseded"));
  $("d-pin").textContent = m.pinned ? "Unpin" : "Pin";
  $("d-restore").hidden = !m.archived;
  $("d-forget-sure").hidden = true;
  const fields = $("d-fields");
  fields.replaceChildren();
  const shown = [["kind", m.kind], ["source", m.source], ["author", m.author], ["scope", m.scope],
    ["tags", m.tags.join(", ")], ["created", m.created_at], ["updated", m.updated_at],
    ["importance", m.importance], ["valid from", m.valid_from], ["valid until", m.valid_until]];
  for (const [k, v] of Object.entries(m.metadata)) shown.push([k, v]);
  for (const [k, v] of shown) {
    if (v === null || v === undefined || v === "") continue;
    fields.append(el("dt", k), el("dd", v));
  }
  const chain = $("d-chain");
  chain.replaceChildren();
  for (const c of m.chain) {
    const item = el("li", c.missing ? c.id + " (no longer stored)" : short(c.text, 120) + "  [" + c.id + "]");
    if (c.id === m.id) item.className = "current";
    chain.append(item);
  }
  const history = $("d-history");
  history.replaceChildren();
  for (const v of m.history) {
    history.append(el("li", "version " + v.version + (v.changed.length ? " (" + v.changed.join(", ") + ")" : "")
      + ": " + short(v.text, 100)));
  }
}

async function change(path, extra, done) {
  const m = state.selected;
  try {
    const answer = await call("POST", path, undefined, Object.assign({ namespace: state.namespace, id: m.id }, extra));
    await loadList(false);
    if (path === "forget") {
      $("detail").hidden = true;
      state.selected = null;
    } else {
      await select(answer.id || m.id);
    }
    status(done);
  } catch (e) {
    status(e.message, true);
  }
}

// ---- replay ----

function factorText(f) {
  return Object.entries(f).filter(([, v]) => v > 0).map(([k, v]) => k + " " + v.toFixed(2)).join(", ");
}

async function replay() {
  const query = $("r-query").value;
  const budget = $("r-budget").value ? Number($("r-budget").value) : null;
  const r = await call("POST", "replay", undefined, { namespace: state.namespace, query, budget });
  $("r-summary").textContent = r.items.length + " memories sent in " + r.tokens_used + " of " + r.budget
    + " tokens; " + r.memories_scored + " scored, " + r.dropped.length + " left out; " + r.latency_ms.toFixed(1)
    + " ms";
  const items = $("r-items").tBodies[0];
  items.replaceChildren();
  for (const i of r.items) {
    const score = el("td");
    const bar = el("span", null, "bar");
    bar.style.width = Math.round(i.score * 80) + "px";
    score.append(bar, document.createTextNode(i.score.toFixed(3)));
    const text = el("td", i.text + (i.truncated ? "  (cut to fit)" : ""), "text");
    const row = el("tr");
    row.append(text, score, el("td", factorText(i.factors), "factors"), el("td", i.tokens));
    items.append(row);
  }
  const dropped = $("r-dropped").tBodies[0];
  dropped.replaceChildren();
  for (const d of r.dropped) {
    const row = el("tr");
    row.append(el("td", short(d.text, 160), "text"), el("td", d.score.toFixed(3)),
      el("td", d.reason.replaceAll("_", " ") + (d.duplicate_of ? " of " + d.duplicate_of : "")));
    dropped.append(row);
  }
  $("r-context").textContent = r.context;
  status("replayed: no access was counted (the turn is in the telemetry, as any other)");
}

// ---- telemetry ----

async function loadReport() {
  const r = await call("GET", "report", { namespace: state.namespace });
  $("t-none").hidden = r.html !== "";
  $("t-report").hidden = r.html === "";
  // A sandboxed frame: the report's charts are drawn, nothing in it runs.
  $("t-report").srcdoc = r.html;
}

// ---- wiring ----

function show(tab) {
  status("");
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === tab);
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== tab;
  if (tab === "telemetry") loadReport().catch((e) => status(e.message, true));
}

async function start() {
  const answer = await call("GET", "namespaces");
  const select = $("namespace");
  select.replaceChildren();
  const names = answer.namespaces.length ? answer.namespaces : [answer.default];
  for (const n of names) select.append(Object.assign(el("option", n), { value: n }));
  state.namespace = answer.default;
  select.value = answer.default;
  $("token-bar").hidden = true;
  await loadList(false);
}

function guarded(f) {
  return (event) => {
    if (event) event.preventDefault();
    Promise.resolve().then(f).catch((e) => status(e.message, true));
  };
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => show(b.dataset.tab));
  $("filters").addEventListener("submit", guarded(() => loadList(false)));
  $("more").addEventListener("click", guarded(() => loadList(true)));
  $("namespace").addEventListener("change", guarded(() => {
    state.namespace = $("namespace").value;
    $("detail").hidden = true;
    return loadList(false);
  }));
  $("d-save").addEventListener("click", guarded(() => change("edit", { text: $("d-text").value }, "saved")));
  $("d-pin").addEventListener("click", guarded(() => change("pin", { pinned: !state.selected.pinned },
    state.selected.pinned ? "unpinned" : "pinned")));
  $("d-restore").addEventListener("click", guarded(() => change("restore", {}, "restored")));
  $("d-forget").addEventListener("click", () => { $("d-forget-sure").hidden = false; });
  $("d-forget-sure").addEventListener("click", guarded(() => change("forget", {}, "forgotten")));
  $("replay-form").addEventListener("submit", guarded(replay));
  $("token-use").addEventListener("click", guarded(() => {
    state.token = $("token").value.trim();
    sessionStorage.setItem("memfas-token", state.token);
    return start();
  }));
  show("memories");
  guarded(start)();
});
