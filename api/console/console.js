// freshctx console: one small script, no framework. Every view reads the REST
// API with the key typed above (kept in this browser's sessionStorage), so a
// person sees exactly what that key's tenant may see. Views are deep links:
//   /console/entities/{entity}   timeline (live)
//   /console/ask?entity=&q=&session=   the ranked answer the bot would get
//   /console/sources?topic=&partition=   lag, watermarks, throughput; newest records (dead letters)
//   /console/sessions/{id}       session memory
"use strict";

const KEY = "freshctx.key";
const main = () => document.getElementById("main");
let stopView = () => {};

// h builds an element: h("td", {class: "x"}, "text", child, ...).
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") el.style.cssText = v; // CSSOM: allowed by the console's CSP
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function announce(text) { document.getElementById("status").textContent = text; }

// api reads one API path; it throws an Error whose message is the API's own.
async function api(path, opts = {}) {
  const headers = {};
  const key = sessionStorage.getItem(KEY);
  if (key) headers.Authorization = "Bearer " + key;
  const res = await fetch(path, { headers, signal: opts.signal });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const e = body.error || {};
    let msg = `${res.status} ${e.code || res.statusText}: ${e.message || "no message"}`;
    if (res.status === 401) msg += ". Paste an API key above and press Use.";
    throw new Error(msg);
  }
  return body;
}

const fmtTime = (t) => (t ? new Date(t).toLocaleString(undefined, { hour12: false }) : "—");
const num = (v, d = 3) => (typeof v === "number" ? v.toFixed(d) : "—");
const link = (href, text) => h("a", { href, "data-nav": true }, text);
const errorBox = (err) => h("div", { class: "error", role: "alert" }, err.message || String(err));
const provenance = (p) => (p && p.topic ? `${p.topic}[${p.partition}]@${p.offset}` : "—");

function field(label, input) { return h("label", {}, label, input); }

// ---------------------------------------------------------------- routing

function route() {
  stopView();
  stopView = () => {};
  const path = decodeURIComponent(location.pathname.replace(/^\/console\/?/, ""));
  const q = new URLSearchParams(location.search);
  const [section, ...rest] = path.split("/");
  const arg = rest.join("/");
  for (const a of document.querySelectorAll("nav a[data-section]")) {
    if (a.dataset.section === section) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const m = main();
  m.replaceChildren();
  switch (section) {
    case "entities": return arg ? timeline(m, arg) : pick(m, "Timeline", "Entity", "customer:42", (v) => "/console/entities/" + encodeURIComponent(v));
    case "ask": return ask(m, q);
    case "sources": return sources(m, q);
    case "sessions": return arg ? sessionView(m, arg) : pick(m, "Session memory", "Session id", "s-1001", (v) => "/console/sessions/" + encodeURIComponent(v));
    default: return home(m);
  }
}

function go(href) { history.pushState(null, "", href); route(); main().focus(); }

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

function home(m) {
  m.append(h("h1", {}, "freshctx console"),
    h("p", {}, "What the bot sees, and why. Every view is a link you can paste into a ticket."),
    h("ul", {},
      h("li", {}, link("/console/entities/", "Timeline"), " — an entity's events, newest first, live."),
      h("li", {}, link("/console/ask", "Ask as the bot"), " — the ranked context for a question, with each score's parts."),
      h("li", {}, link("/console/sources", "Sources"), " — lag, watermarks and throughput per partition; the latest dead letters."),
      h("li", {}, link("/console/sessions/", "Sessions"), " — a conversation's memory: persona, summary, turns.")));
}

function pick(m, title, label, placeholder, target) {
  const input = h("input", { name: "v", required: true, placeholder, id: "pick" });
  m.append(h("h1", {}, title), h("form", { class: "bar", onsubmit: (ev) => { ev.preventDefault(); go(target(input.value.trim())); } },
    field(label, input), h("button", { type: "submit" }, "Open")));
  input.focus();
}

// ---------------------------------------------------------------- timeline

function timeline(m, entity) {
  const src = h("select", { name: "source" }, h("option", { value: "" }, "all sources"));
  const text = h("input", { name: "text", type: "search", placeholder: "words in the event" });
  const since = h("input", { name: "since", type: "datetime-local" });
  const until = h("input", { name: "until", type: "datetime-local" });
  const live = h("span", { class: "live", "aria-live": "off" }, "live");
  const tbody = h("tbody", { id: "timeline-rows" });
  const more = h("button", { type: "button", hidden: true }, "Older events");
  const err = h("div");
  m.append(h("h1", {}, "Timeline of ", h("code", {}, entity), " ", live),
    h("p", { class: "meta" }, link("/console/ask?entity=" + encodeURIComponent(entity), "Ask as the bot about this entity")),
    h("form", { class: "bar", onsubmit: (ev) => ev.preventDefault(), oninput: () => render() },
      field("Source", src), field("Text", text), field("From", since), field("To", until)),
    err,
    h("table", {}, h("caption", { class: "visually-hidden" }, "Events, newest first"),
      h("thead", {}, h("tr", {}, ["Time", "Source", "Event", "Version", "Provenance", "Trace"].map((c) => h("th", { scope: "col" }, c)))),
      tbody),
    more);

  let first = [];       // the newest page, re-read live
  let older = [];       // pages loaded with "Older events"
  let cursor = "";      // the page after the loaded ones
  let events = [];      // what is shown: newest first
  let seen = null;      // keys shown before the last refresh: new ones are marked
  const keyOf = (e) => e.source + "/" + e.key;

  function render() {
    const sources = [...new Set(events.map((e) => e.source))].sort();
    const chosen = src.value;
    src.replaceChildren(h("option", { value: "" }, "all sources"), ...sources.map((s) => h("option", { value: s, selected: s === chosen }, s)));
    const words = text.value.trim().toLowerCase();
    const from = since.value ? new Date(since.value) : null;
    const to = until.value ? new Date(until.value) : null;
    const rows = events.filter((e) => (!chosen || e.source === chosen) &&
      (!words || e.text.toLowerCase().includes(words)) &&
      (!from || new Date(e.time) >= from) && (!to || new Date(e.time) <= to));
    tbody.replaceChildren(...rows.map((e) => h("tr", { class: seen && !seen.has(keyOf(e)) ? "new" : null, "data-key": keyOf(e) },
      h("td", {}, fmtTime(e.time)), h("td", {}, e.source), h("td", {}, h("div", { class: "event-text" }, e.text),
        e.attrs ? h("div", { class: "meta" }, Object.entries(e.attrs).map(([k, v]) => `${k}=${v}`).join(" · ")) : null),
      h("td", {}, e.version), h("td", {}, h("code", {}, provenance(e.provenance))), h("td", {}, e.provenance?.trace_id || "—"))));
    if (!rows.length) tbody.append(h("tr", {}, h("td", { colspan: 6, class: "muted" }, events.length ? "No event matches the filters." : "No events.")));
  }

  function merge() {
    const inFirst = new Set(first.map(keyOf));
    events = first.concat(older.filter((e) => !inFirst.has(keyOf(e))));
  }

  async function refresh() {
    try {
      const r = await api(`/v1/entities/${encodeURIComponent(entity)}/events?limit=100`);
      seen = seen === null ? new Set() : new Set(events.map(keyOf));
      if (!older.length) cursor = r.next_cursor || "";
      first = r.events;
      merge();
      const fresh = events.filter((e) => seen.size && !seen.has(keyOf(e))).length;
      if (fresh) announce(`${fresh} new event(s)`);
      more.hidden = !cursor;
      err.replaceChildren();
      live.textContent = "live · " + new Date().toLocaleTimeString(undefined, { hour12: false });
      render();
    } catch (e) { err.replaceChildren(errorBox(e)); }
  }
  more.addEventListener("click", async () => {
    try {
      const r = await api(`/v1/entities/${encodeURIComponent(entity)}/events?limit=100&cursor=${encodeURIComponent(cursor)}`);
      older = older.concat(r.events);
      cursor = r.next_cursor || "";
      merge();
      more.hidden = !cursor;
      render();
    } catch (e) { err.replaceChildren(errorBox(e)); }
  });
  // Live: the first page again every 2 s while the page is visible (new rows are
  // marked); older pages stay as loaded.
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 2000);
  stopView = () => clearInterval(timer);
}

// ---------------------------------------------------------------- ask

const COMPONENTS = ["similarity", "lexical", "identifier", "recency", "source", "thread", "change"];

// bars draws an event's parts; "change" only where it counts (a question asking
// for what is newest: meta.fusion.change_weight).
function bars(ex, f) {
  const parts = COMPONENTS.filter((c) => c !== "change" || (f && f.change_weight));
  return h("div", { class: "bars" }, parts.flatMap((c) => {
    const v = Math.max(0, Math.min(1, ex[c] || 0));
    return [h("span", {}, c), h("div", { class: "meter " + c, role: "img", "aria-label": `${c} ${num(ex[c])}` },
      h("span", { style: `width:${(v * 100).toFixed(1)}%` })), h("span", { "data-component": c }, num(ex[c]))];
  }));
}

// fusion says how the parts were fused for this question (meta.fusion): the
// shares that, with an event's parts, give its score, and why they are so.
function fusion(f) {
  const why = [];
  if (f.asks_now) why.push(`asks what something is now (an event saying it changed, or stating a new or current value, counts ${num(f.change_weight)} more)`);
  else if (f.asks_newest) why.push("asks for what is newest" + (f.change_weight ? ` (an event saying something changed counts ${num(f.change_weight)} more)` : ""));
  if (f.asks_status) why.push("asks where a named object stands");
  if (f.identifier_alone) why.push("its identifier is alone of its kind");
  if (f.asks && f.asks.length) why.push("looks for " + f.asks.join(", "));
  if (f.object) why.push("names " + f.object + " without writing it (by its words: another object of its kind counts half; or by the way of a trip it asks about: the events naming it match as its identifier)");
  if (f.expanded && f.expanded.length) {
    const more = f.expanded.length > 12 ? ` … (${f.expanded.length - 12} more)` : "";
    why.push("also matches " + f.expanded.slice(0, 12).join(", ") + more);
  }
  return h("p", { class: "meta", id: "fusion" },
    `score = (1 − ${num(f.recency_share)})·${f.change_weight ? `(1 + ${num(f.change_weight)}·change)·` : ""}max(relevance, thread) + source·(${num(f.recency_share)}·recency + ${num(f.identifier_weight)}·identifier); ` +
    `relevance = source·(${num(f.similarity_weight)}·similarity + ${num(f.lexical_weight)}·lexical)/${num(f.similarity_weight + f.lexical_weight)}` +
    (why.length ? " · the question " + why.join("; ") : ""));
}

function ask(m, q) {
  const entity = h("input", { name: "entity", required: true, value: q.get("entity") || "", placeholder: "customer:42" });
  const question = h("input", { name: "q", size: 40, value: q.get("q") || "", placeholder: "where is my refund?" });
  const session = h("input", { name: "session", value: q.get("session") || "", placeholder: "optional" });
  const window_ = h("input", { name: "window", value: q.get("window") || "", placeholder: "e.g. 60m", size: 6 });
  const k = h("input", { name: "k", type: "number", min: 1, max: 100, value: q.get("k") || "", size: 4 });
  const out = h("div", { id: "answer" });
  m.append(h("h1", {}, "Ask as the bot"),
    h("form", { class: "bar", onsubmit: (ev) => {
      ev.preventDefault();
      const p = new URLSearchParams();
      for (const [n, el] of [["entity", entity], ["q", question], ["session", session], ["window", window_], ["k", k]]) if (el.value.trim()) p.set(n, el.value.trim());
      go("/console/ask?" + p.toString());
    } }, field("Entity", entity), field("Question", question), field("Session", session), field("Window", window_), field("k", k),
    h("button", { type: "submit" }, "Ask")), out);
  if (!q.get("entity")) { entity.focus(); return; }
  const p = new URLSearchParams(q);
  p.set("explain", "true");
  out.append(h("p", { class: "muted" }, "Asking…"));
  api("/v1/context?" + p.toString()).then((r) => out.replaceChildren(...answer(r).filter(Boolean)), (e) => out.replaceChildren(errorBox(e)));
}

function answer(r) {
  const meta = r.meta;
  const degraded = meta.degraded || [];
  const parts = [
    h("p", { class: "meta" }, `${r.events.length} of ${meta.candidates} candidate events · ranking ${meta.ranking} · window ${meta.window} · served from ${meta.served_from} · ${meta.took_ms} ms · fresh through ${fmtTime(meta.fresh_through)}`),
    degraded.length ? h("p", { class: "degraded", role: "alert" }, "Degraded: " + degraded.map((d) => `${d.stage} (${d.reason})`).join("; ")) : null,
    h("h2", {}, "Ranked events"),
    meta.fusion ? fusion(meta.fusion) : null,
    r.events.length ? h("ol", { class: "ranked", id: "ranked" }, r.events.map((e) => h("li", { "data-id": e.id },
      h("div", { class: "event-text" }, e.text),
      h("div", { class: "meta" }, `score ${num(e.score)} · ${e.source} · ${fmtTime(e.time)} · `, h("code", {}, provenance(e.provenance))),
      e.explain ? bars(e.explain, meta.fusion) : null))) : h("p", { class: "muted" }, "No event in the window."),
    h("h2", {}, "Knowledge"),
    r.documents.length ? h("ol", { class: "ranked" }, r.documents.map((d) => h("li", {},
      h("div", { class: "event-text" }, d.title || d.doc_id), h("div", { class: "meta" }, `score ${num(d.score)} · ${d.source} ${d.doc_id} part ${d.chunk + 1}`),
      h("div", {}, d.text)))) : h("p", { class: "muted" }, "No knowledge passage."),
  ];
  if (r.memory) parts.push(h("h2", {}, "Session memory"), ...memory(r.memory).filter(Boolean));
  const stages = Object.entries(meta.stages_ms || {});
  parts.push(
    h("h2", {}, "Prompt text ", h("span", { class: "muted" }, `(${meta.context_tokens} tokens; ${meta.omitted_events} events and ${meta.omitted_documents} passages left out)`)),
    h("pre", { id: "prompt" }, r.context),
    h("h2", {}, "Stages"),
    h("table", { class: "stages" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "stage"), h("th", { scope: "col" }, "ms"))),
      h("tbody", {}, stages.map(([s, ms]) => h("tr", {}, h("td", {}, s), h("td", {}, ms))), h("tr", {}, h("td", {}, h("b", {}, "total")), h("td", {}, meta.took_ms)))));
  return parts;
}

// ---------------------------------------------------------------- sources

function sources(m, q) {
  const err = h("div");
  const tbody = h("tbody", { id: "partitions" });
  const fresh = h("span", { class: "meta" });
  const letters = h("div", { id: "deadletters" });
  m.append(h("h1", {}, "Sources"), fresh, err,
    h("table", {}, h("caption", { class: "visually-hidden" }, "Source partitions"),
      h("thead", {}, h("tr", {}, ["Topic", "Partition", "Watermark offset", "Lag", "Records/s", "Fresh through", "Last write", "Dead-lettered"].map((c) => h("th", { scope: "col" }, c)))),
      tbody),
    h("h2", {}, "Latest records"), letters);
  let last = null; // the previous status, for throughput
  async function refresh() {
    try {
      const s = await api("/v1/status");
      const now = performance.now();
      fresh.textContent = "Every source is complete through " + fmtTime(s.fresh_through) + ". Updated " + new Date().toLocaleTimeString(undefined, { hour12: false }) + ".";
      tbody.replaceChildren(...s.partitions.map((p) => {
        const prev = last && last.s.partitions.find((x) => x.topic === p.topic && x.partition === p.partition);
        const rate = prev ? ((p.offset - prev.offset) / ((now - last.at) / 1000)).toFixed(1) : "…";
        return h("tr", {}, h("td", {}, p.topic), h("td", {}, p.partition), h("td", {}, p.offset),
          h("td", {}, p.lag ?? "—"), h("td", {}, rate), h("td", {}, fmtTime(p.fresh_through)), h("td", {}, fmtTime(p.last_write)),
          h("td", { class: p.dead_lettered ? "degraded" : null }, p.dead_lettered));
      }));
      if (!s.partitions.length) tbody.append(h("tr", {}, h("td", { colspan: 8, class: "muted" }, "Ingest has written no watermark yet.")));
      if (!last) latest(letters, s.readable_topics || [], q.get("topic"), q.get("partition"));
      last = { s, at: now };
      err.replaceChildren();
    } catch (e) { err.replaceChildren(errorBox(e)); }
  }
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  stopView = () => clearInterval(timer);
}

// latest shows the newest records of an allow-listed topic (the dead-letter
// topic among them), read without a consumer group and never committing.
function latest(box, topics, chosen, part) {
  if (!topics.length) {
    box.replaceChildren(h("p", { class: "muted" }, "No topic may be read here: list the dead-letter topic (and any source topic) in api.read_latest_topics."));
    return;
  }
  const topic = h("select", { name: "topic" }, topics.map((t) => h("option", { value: t, selected: t === chosen }, t)));
  const partition = h("input", { name: "partition", type: "number", min: 0, value: part || 0, size: 4 });
  const out = h("div");
  async function read() {
    out.replaceChildren(h("p", { class: "muted" }, "Reading…"));
    try {
      const r = await api(`/v1/topics/${encodeURIComponent(topic.value)}/latest?n=20&partition=${partition.value || 0}`);
      out.replaceChildren(r.records.length ? h("table", { id: "latest" },
        h("thead", {}, h("tr", {}, ["Offset", "Time", "Key", "Record", "Dead letter"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, r.records.slice().reverse().map((x) => h("tr", {}, h("td", {}, x.offset), h("td", {}, fmtTime(x.timestamp)), h("td", {}, h("code", {}, x.key)),
          h("td", {}, x.text || x.op, x.entity ? h("div", { class: "meta" }, x.entity) : null),
          h("td", {}, x.dead_letter ? [h("div", { class: "degraded" }, x.dead_letter.error),
            h("div", { class: "meta" }, `stage ${x.dead_letter.stage} · from ${x.dead_letter.topic}[${x.dead_letter.partition}]@${x.dead_letter.offset}`)] : "—")))))
        : h("p", { class: "muted" }, "No record of your tenant among the newest."));
    } catch (e) { out.replaceChildren(errorBox(e)); }
  }
  box.replaceChildren(h("form", { class: "bar", onsubmit: (ev) => { ev.preventDefault(); read(); } },
    field("Topic", topic), field("Partition", partition), h("button", { type: "submit" }, "Read newest 20")), out);
  read();
}

// ---------------------------------------------------------------- sessions

function memory(mem) {
  const s = mem.summary;
  return [
    mem.persona ? h("p", {}, h("b", {}, "Persona: "), mem.persona) : null,
    s ? h("div", { id: "summary" }, h("p", {}, h("b", {}, "Summary: "), s.text),
      h("p", { class: "meta" }, `Folds ${s.turns} turns, through version ${s.through} (${fmtTime(s.through_at)}); written ${fmtTime(s.updated_at)}.`))
      : h("p", { class: "muted" }, "No summary yet: every turn is shown."),
    h("table", { id: "turns" }, h("thead", {}, h("tr", {}, ["Time", "Role", "Turn"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, mem.turns.map((t) => h("tr", {}, h("td", {}, fmtTime(t.time)), h("td", {}, t.role), h("td", {}, t.content))))),
    h("p", { class: "meta" }, `${mem.tokens} tokens; ${mem.omitted_turns} turns left out for space${mem.summary_trimmed ? "; summary trimmed" : ""}.`),
  ];
}

function sessionView(m, id) {
  const out = h("div");
  m.append(h("h1", {}, "Session ", h("code", {}, id)), out);
  api(`/v1/sessions/${encodeURIComponent(id)}/memory`).then((r) => out.replaceChildren(...memory(r).filter(Boolean),
    h("h2", {}, "Prompt text"), h("pre", {}, r.text)), (e) => out.replaceChildren(errorBox(e)));
}

// ---------------------------------------------------------------- start

document.addEventListener("DOMContentLoaded", () => {
  const input = document.getElementById("apikey");
  input.value = sessionStorage.getItem(KEY) || "";
  document.getElementById("keyform").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (input.value) sessionStorage.setItem(KEY, input.value); else sessionStorage.removeItem(KEY);
    route();
  });
  route();
});
