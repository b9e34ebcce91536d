// Tessera inspector: the single page that package inspect serves at "/".
//
// Reads (polled every second unless noted):
//   GET /api/world, /api/components, /api/tables, /api/resources, /api/systems
//   GET /api/entities?with=&without=&offset=&limit=   (on demand: filter, paging)
//   GET /api/entities/ID                              (on demand: the detail)
//   GET /api/stream  (EventSource, event "tick")      (live charts)
// Writes (header "Authorization: Bearer <token>", token kept in sessionStorage):
//   POST /api/loop/pause|step|resume
//   PUT/DELETE /api/entities/ID/components/NAME, DELETE /api/entities/ID
//   PUT /api/systems/NAME {"enabled":bool}
// relations.js shows the open entity's relations and the hierarchy: it
// hears "tessera:entity" (the detail shown, or null) and sends
// "tessera:open" (an entity id to open), both on document.
// Time travel (timetravel.js): the reads above take at=TICK or at=branch.
//
// Plain DOM code, no framework; everything the server sends is shown with
// textContent, never parsed as HTML. The page runs under a CSP of
// default-src 'self': no inline scripts, styles or handlers.
"use strict";

(() => {
  const TOKEN_KEY = "tessera.inspector.token";
  const POLL_MS = 1000;
  const PAGE_SIZE = 100;
  const MAX_SAMPLES = 600;
  const CHART_HEIGHT = 170;
  const PALETTE = ["#5aa9e6", "#f4a259", "#8cc084", "#e56b6f", "#b892ff",
    "#f6d55c", "#4ecdc4", "#ff8fab", "#a3a3a3", "#9ad1d4"];

  const state = {
    token: sessionStorage.getItem(TOKEN_KEY) || "",
    components: new Map(), // stable name -> entry of /api/components
    filter: { with: "", without: "", offset: 0 },
    openId: null,          // entity shown in the detail
    pendingSystems: new Set(),
    readError: false,
    at: null,              // time travel: a past tick or "branch" the reads look at (timetravel.js)
  };

  // ---- small helpers -------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  // el builds an element: props are attributes, except "text" (textContent)
  // and "className"; children are nodes or strings.
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  const plainInt = (n) => String(Math.trunc(Number(n) || 0));
  const fmtInt = (n) => Number(n || 0).toLocaleString("en-US");
  const fmtUs = (ns) => (Number(ns || 0) / 1e3).toLocaleString("en-US", { maximumFractionDigits: 1 });
  const fmtMs = (ns) => (Number(ns || 0) / 1e6).toLocaleString("en-US", { maximumFractionDigits: 2 }) + " ms";

  function fmtBytes(n) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let v = Number(n || 0);
    let i = 0;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (i === 0 ? String(v) : v.toFixed(v < 10 ? 2 : 1)) + " " + units[i];
  }

  // parseJSON keeps integers beyond 2^53 (uint64 fields, hashes) exact where
  // the browser can (JSON.rawJSON), so that showing a component and saving
  // it back does not round them.
  function parseJSON(text) {
    if (typeof JSON.rawJSON !== "function") return JSON.parse(text);
    return JSON.parse(text, (key, value, ctx) =>
      typeof value === "number" && !Number.isSafeInteger(value) && ctx &&
        /^-?\d+$/.test(ctx.source) ? JSON.rawJSON(ctx.source) : value);
  }

  const pretty = (value) => JSON.stringify(value, null, 2);

  // shortName maps a stable component name to its Go type name.
  function shortName(name) {
    const info = state.components.get(name);
    if (info && info.goType) return info.goType;
    return name.slice(name.lastIndexOf("/") + 1);
  }

  // lastShown remembers what each part of the page last rendered, so that
  // a poll that brings nothing new leaves the DOM (and the user's scroll
  // position or selection) alone.
  const lastShown = new Map();
  function changed(key, data) {
    const text = JSON.stringify(data);
    if (lastShown.get(key) === text) return false;
    lastShown.set(key, text);
    return true;
  }

  function setStatus(text, kind = "") {
    const status = $("status");
    status.textContent = text;
    status.className = "status" + (kind ? " " + kind : "");
  }

  // ---- HTTP ----------------------------------------------------------------

  // api sends one request and returns the decoded answer, or throws an Error
  // carrying the server's {"error"} message. Every method but GET is a
  // write and carries the token. body is a JS value, or a string sent as is.
  async function api(method, path, body) {
    path = viewed(path);
    const init = { method, headers: { Accept: "application/json" } };
    if (method !== "GET") {
      if (!state.token) throw new Error("no write token: paste it in the token field");
      init.headers.Authorization = "Bearer " + state.token;
    }
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const text = await res.text();
    let data = null;
    if (text) {
      try { data = parseJSON(text); } catch { data = null; }
    }
    if (!res.ok) {
      const msg = data && typeof data.error === "string" ? data.error : text.trim();
      throw new Error(msg || `HTTP ${res.status}`);
    }
    if (text && data === null) throw new Error(`${method} ${path}: answer is not JSON`);
    return data;
  }

  // write runs a write, reporting its outcome in the status line; it
  // returns the answer, or null when the write failed.
  async function write(label, method, path, body) {
    setStatus(label + "…");
    try {
      const answer = await api(method, path, body);
      setStatus(label + ": done", "ok");
      return answer;
    } catch (err) {
      setStatus(label + ": " + err.message, "error");
      return null;
    }
  }

  // viewed adds at= to a request about the world's contents (any API path
  // but the loop's, the systems', the stream and time travel's own) while
  // the page looks at a past tick or a branch: reads answer as of then,
  // and writes are refused by the server (the past is read-only).
  function viewed(path) {
    if (state.at === null || !path.startsWith("/api/") ||
      /^\/api\/(history|branch|loop|systems|stream)([/?]|$)/.test(path)) return path;
    return path + (path.includes("?") ? "&" : "?") + "at=" + encodeURIComponent(state.at);
  }

  const entityPath = (id) => "/api/entities/" + encodeURIComponent(id);
  const componentPath = (id, name) => entityPath(id) + "/components/" + encodeURIComponent(name);

  // ---- summary and loop controls ------------------------------------------

  function renderWorld(w) {
    $("entity-count").textContent = plainInt(w.entities);
    $("table-count").textContent = fmtInt(w.tables);
    $("component-count").textContent = fmtInt(w.components);
    $("resource-count").textContent = fmtInt(w.resources);
    $("memory").textContent = fmtBytes(w.memoryBytes);
    $("tps").textContent = Number(w.ticksPerSecond || 0).toFixed(1);
    $("tick-time").textContent = w.tickTime ? fmtMs(w.tickTime.lastNs) : "–";
    if (w.tickTime) {
      $("tick-time").title = `mean ${fmtMs(w.tickTime.meanNs)}, max ${fmtMs(w.tickTime.maxNs)}`;
    }
    renderLoopState(w.paused, w.tick);
    for (const id of ["btn-pause", "btn-step", "btn-resume"]) {
      $(id).disabled = !w.loop;
      $(id).title = w.loop ? "" : "no loop is attached to this world";
    }
    const note = $("write-note");
    note.textContent = w.writes ? "" : "read-only";
    note.title = w.writes ? "" : "the server has no write token configured: every write answers 403";
  }

  function renderLoopState(paused, tick) {
    $("tick").textContent = plainInt(tick);
    const p = $("paused");
    p.textContent = paused ? "paused" : "running";
    p.classList.toggle("is-paused", !!paused);
  }

  async function loopAction(action) {
    const answer = await write(action, "POST", "/api/loop/" + action);
    if (answer) renderLoopState(answer.paused, answer.tick);
  }

  function setupToken() {
    const input = $("token");
    input.value = state.token;
    input.addEventListener("input", () => {
      state.token = input.value.trim();
      if (state.token) sessionStorage.setItem(TOKEN_KEY, state.token);
      else sessionStorage.removeItem(TOKEN_KEY);
    });
  }

  // ---- component types, archetypes, resources ------------------------------

  function setComponents(list) {
    state.components = new Map(list.map((c) => [c.name, c]));
    if (!changed("components", list)) return;
    renderComponents(list);
    renderComponentNames(list);
  }

  function renderComponents(list) {
    const rows = list.map((c) => el("tr", {},
      el("td", { text: c.goType || c.name, title: c.name }),
      el("td", { text: c.storage }),
      el("td", { className: "num", text: fmtInt(c.count) }),
      el("td", { className: "num", text: fmtBytes(c.bytes), title: `${fmtInt(c.bytes)} B, ${c.size} B each` }),
      el("td", { text: c.tracked ? "yes" : "" })));
    $("components").tBodies[0].replaceChildren(...rows);
  }

  // renderComponentNames fills the filter's datalist and the "add" select.
  // A Go type name shared by two stable names is ambiguous to the server,
  // so the stable name is offered instead.
  function renderComponentNames(list) {
    const seen = new Map();
    for (const c of list) seen.set(c.goType, (seen.get(c.goType) || 0) + 1);
    const label = (c) => (c.goType && seen.get(c.goType) === 1 ? c.goType : c.name);
    $("component-names").replaceChildren(...list.map((c) => el("option", { value: label(c) })));
    const select = $("add-name");
    const keep = select.value;
    select.replaceChildren(...list.map((c) => el("option", { value: c.name, text: label(c) })));
    if (keep) select.value = keep;
  }

  function renderTables(tables) {
    if (!changed("tables", tables)) return;
    const rows = tables.map((t) => el("tr", {},
      el("td", { className: "num", text: String(t.index) }),
      el("td", { className: "names", text: t.components.map(shortName).join(", ") || "(empty)", title: t.components.join("\n") }),
      el("td", { className: "num", text: fmtInt(t.rows) }),
      el("td", { className: "num", text: fmtInt(t.capacity) }),
      el("td", { className: "num", text: fmtBytes(t.bytes) })));
    $("archetypes").tBodies[0].replaceChildren(...rows);
  }

  function renderResources(resources) {
    if (!changed("resources", resources)) return;
    const items = resources.map((r) => el("div", { className: "resource" },
      el("div", { className: "resource-name", text: r.goType || r.name, title: r.name }),
      el("pre", { text: pretty(r.value) })));
    if (items.length === 0) items.push(el("p", { className: "muted", text: "no resources" }));
    $("resources").replaceChildren(...items);
  }

  // ---- systems -------------------------------------------------------------

  function renderSystems(answer) {
    $("scheduler-note").textContent = answer.scheduler ? "" : "no scheduler attached";
    const plan = answer.plan || "";
    if ($("plan").textContent !== plan) $("plan").textContent = plan;
    const tbody = $("systems").tBodies[0];
    const rows = new Map([...tbody.rows].map((r) => [r.dataset.name, r]));
    const wanted = [];
    for (const s of answer.systems || []) {
      const row = rows.get(s.name) || makeSystemRow(s.name);
      updateSystemRow(row, s);
      wanted.push(row);
    }
    // Appending an existing row moves it, so this also keeps the order.
    const same = wanted.length === tbody.rows.length && wanted.every((r, i) => tbody.rows[i] === r);
    if (!same) tbody.replaceChildren(...wanted);
  }

  function makeSystemRow(name) {
    const box = el("input", { type: "checkbox", className: "enabled", "aria-label": "enabled: " + name });
    box.addEventListener("change", () => toggleSystem(name, box));
    const row = el("tr", { "data-name": name },
      el("td", { className: "sys-name", text: name }),
      el("td", { className: "num" }),
      el("td", {}, box),
      el("td", { className: "num" }),
      el("td", { className: "num" }),
      el("td", { className: "num" }),
      el("td", { className: "num" }));
    return row;
  }

  function updateSystemRow(row, s) {
    const c = row.cells;
    c[1].textContent = String(s.stage);
    if (!state.pendingSystems.has(s.name)) c[2].firstChild.checked = !!s.enabled;
    row.classList.toggle("disabled", !s.enabled);
    c[3].textContent = fmtInt(s.runs);
    c[4].textContent = fmtUs(s.lastNs);
    c[5].textContent = fmtUs(s.meanNs);
    c[6].textContent = fmtUs(s.maxNs);
    c[6].title = `total ${fmtMs(s.totalNs)}`;
  }

  async function toggleSystem(name, box) {
    const enabled = box.checked;
    state.pendingSystems.add(name);
    box.disabled = true;
    const answer = await write(`${enabled ? "enable" : "disable"} ${name}`, "PUT",
      "/api/systems/" + encodeURIComponent(name), { enabled });
    state.pendingSystems.delete(name);
    box.disabled = false;
    const row = box.closest("tr");
    if (answer) updateSystemRow(row, answer);
    else box.checked = !enabled;
  }

  // ---- polling -------------------------------------------------------------

  // READS are the endpoints polled every second and how each is shown;
  // components come first, as the others use them for short names.
  // Resources are read only while their section is open: a large one (a
  // frame buffer, say) costs the world's loop its encoding on every read.
  const READS = [
    ["/api/components", (a) => setComponents(a.components || [])],
    ["/api/world", renderWorld],
    ["/api/tables", (a) => renderTables(a.tables || [])],
    ["/api/resources", (a) => renderResources(a.resources || []), () => $("resources-section").open],
    ["/api/systems", renderSystems],
  ];

  // poll reads them all, shows each that answered (one failing endpoint
  // does not blank the others), then schedules the next round.
  async function poll() {
    const reads = READS.filter(([, , wanted]) => !wanted || wanted());
    const results = await Promise.allSettled(reads.map(([path]) => api("GET", path)));
    const failed = [];
    results.forEach((r, i) => {
      const [path, show] = reads[i];
      try {
        if (r.status === "rejected") throw r.reason;
        show(r.value);
      } catch (err) {
        failed.push(`${path}: ${err.message}`);
      }
    });
    const readError = failed.length > 0;
    if (readError && !state.readError) setStatus("cannot read " + failed[0], "error");
    if (!readError && state.readError) setStatus("connected again", "ok");
    state.readError = readError;
    document.body.classList.toggle("offline", failed.length === reads.length);
    setTimeout(poll, POLL_MS);
  }

  // ---- entity browser ------------------------------------------------------

  const nameList = (text) => text.split(",").map((s) => s.trim()).filter(Boolean).join(",");

  function applyFilter() {
    state.filter.with = nameList($("filter-with").value);
    state.filter.without = nameList($("filter-without").value);
    state.filter.offset = 0;
    loadEntities();
  }

  function turnPage(delta) {
    state.filter.offset = Math.max(0, state.filter.offset + delta * PAGE_SIZE);
    loadEntities();
  }

  async function loadEntities() {
    const q = new URLSearchParams();
    if (state.filter.with) q.set("with", state.filter.with);
    if (state.filter.without) q.set("without", state.filter.without);
    q.set("offset", String(state.filter.offset));
    q.set("limit", String(PAGE_SIZE));
    try {
      renderEntities(await api("GET", "/api/entities?" + q.toString()));
    } catch (err) {
      setStatus("entities: " + err.message, "error");
    }
  }

  function renderEntities(page) {
    const list = page.entities || [];
    const offset = Number(page.offset) || 0;
    const end = offset + list.length;
    $("entity-total").textContent = plainInt(page.total);
    $("entity-range").textContent = `${fmtInt(offset)}–${fmtInt(end)}`;
    $("page-prev").disabled = offset <= 0;
    $("page-next").disabled = end >= page.total;
    const items = list.map(entityItem);
    if (items.length === 0) items.push(el("li", { className: "muted empty", text: "no entity matches" }));
    $("entity-list").replaceChildren(...items);
  }

  function entityItem(e) {
    return el("li", {
      className: "entity" + (e.id === state.openId ? " selected" : ""),
      "data-id": e.id, tabindex: 0, role: "button",
    },
    el("span", { className: "entity-id", text: e.id }),
    el("span", { className: "entity-names", text: e.components.map(shortName).join(", ") }));
  }

  function setupEntityList() {
    const list = $("entity-list");
    const open = (ev) => {
      const item = ev.target.closest(".entity");
      if (item) openEntity(item.dataset.id);
    };
    list.addEventListener("click", open);
    list.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(ev); }
    });
    $("entity-filter").addEventListener("submit", (ev) => { ev.preventDefault(); applyFilter(); });
    $("page-prev").addEventListener("click", () => turnPage(-1));
    $("page-next").addEventListener("click", () => turnPage(1));
  }

  // markSelected highlights the open entity in the list and, when the
  // detail changed its components, shows the new names there too.
  function markSelected(entity) {
    for (const item of $("entity-list").querySelectorAll(".entity")) {
      const mine = item.dataset.id === state.openId;
      item.classList.toggle("selected", mine);
      if (mine && entity) {
        item.querySelector(".entity-names").textContent =
          entity.components.map((c) => c.goType || shortName(c.name)).join(", ");
      }
    }
  }

  // ---- entity detail -------------------------------------------------------

  async function openEntity(id) {
    state.openId = id;
    markSelected(null);
    try {
      renderEntity(await api("GET", entityPath(id)));
    } catch (err) {
      renderMissing(id, err.message);
    }
  }

  function setDetailButtons(open) {
    $("btn-despawn").disabled = !open;
    $("btn-reload").disabled = !open;
    $("add-component").hidden = !open;
  }

  function renderEntity(entity) {
    state.openId = entity.id;
    const detail = $("entity-detail");
    detail.dataset.id = entity.id;
    $("detail-title").textContent = entity.id;
    const parts = (entity.components || []).map(componentBlock);
    if (parts.length === 0) parts.push(el("p", { className: "muted", text: "no components" }));
    detail.replaceChildren(...parts);
    setDetailButtons(true);
    markSelected(entity);
    announce(entity);
  }

  // announce tells relations.js which entity the detail shows (null: none).
  function announce(entity) {
    document.dispatchEvent(new CustomEvent("tessera:entity", { detail: entity }));
  }

  function renderMissing(id, message) {
    const detail = $("entity-detail");
    detail.dataset.id = id;
    $("detail-title").textContent = id;
    detail.replaceChildren(el("p", { className: "error-text", text: message }));
    setDetailButtons(false);
    $("btn-reload").disabled = false;
    setStatus(`entity ${id}: ${message}`, "error");
    announce(null);
  }

  function clearDetail() {
    state.openId = null;
    const detail = $("entity-detail");
    delete detail.dataset.id;
    $("detail-title").textContent = "none selected";
    detail.replaceChildren();
    setDetailButtons(false);
    announce(null);
  }

  function componentBlock(c) {
    const text = pretty(c.value);
    const lines = text.split("\n").length;
    const area = el("textarea", { spellcheck: "false", rows: Math.min(Math.max(lines, 2), 14), "aria-label": c.goType || c.name });
    area.value = text;
    const save = el("button", { type: "button", className: "save", text: "Save" });
    const remove = el("button", { type: "button", className: "remove danger", text: "Remove" });
    save.addEventListener("click", () => saveComponent(c.name, area.value));
    remove.addEventListener("click", () => removeComponent(c.name));
    return el("div", { className: "component", "data-name": c.name },
      el("div", { className: "component-head" },
        el("span", { className: "component-name", text: c.goType || shortName(c.name), title: c.name }),
        el("span", { className: "muted", text: c.storage || "" }),
        el("span", { className: "spacer" }),
        save, remove),
      ...(c.text ? [el("div", { className: "component-text", text: c.text })] : []),
      area);
  }

  // checkJSON reports a syntax error before anything is sent; the text
  // itself is sent unchanged so that large integers keep every digit.
  function checkJSON(label, text) {
    try {
      JSON.parse(text);
      return true;
    } catch (err) {
      setStatus(`${label}: invalid JSON: ${err.message}`, "error");
      return false;
    }
  }

  async function saveComponent(name, text) {
    const id = state.openId;
    const label = `save ${shortName(name)} on ${id}`;
    if (!id || !checkJSON(label, text)) return;
    const answer = await write(label, "PUT", componentPath(id, name), text);
    if (answer && state.openId === id) renderEntity(answer);
  }

  async function removeComponent(name) {
    const id = state.openId;
    if (!id) return;
    const answer = await write(`remove ${shortName(name)} from ${id}`, "DELETE", componentPath(id, name));
    if (answer && state.openId === id) renderEntity(answer);
  }

  async function despawn() {
    const id = state.openId;
    if (!id) return;
    const answer = await write(`despawn ${id}`, "DELETE", entityPath(id));
    if (!answer) return;
    if (state.openId === id) clearDetail();
    loadEntities();
  }

  function setupDetail() {
    document.addEventListener("tessera:open", (ev) => openEntity(ev.detail));
    $("btn-despawn").addEventListener("click", despawn);
    $("btn-reload").addEventListener("click", () => state.openId && openEntity(state.openId));
    $("add-component").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = $("add-name").value;
      if (name) saveComponent(name, $("add-value").value);
    });
  }

  // ---- live charts ---------------------------------------------------------

  // samples holds the last MAX_SAMPLES ticks the stream sent: x values
  // (ticks), tick times and one array per system, all in step.
  const samples = { ticks: [], tickMs: [], names: [], systemMs: [] };
  const charts = { tick: null, systems: null };

  function axes() {
    const axis = {
      stroke: "#9aa4b2",
      grid: { stroke: "#2b3039", width: 1 },
      ticks: { stroke: "#2b3039", width: 1 },
      font: "11px system-ui, sans-serif",
    };
    return [axis, { ...axis, size: 56 }];
  }

  function chartOptions(container, series) {
    return {
      width: Math.max(container.clientWidth, 200),
      height: CHART_HEIGHT,
      scales: { x: { time: false } },
      axes: axes(),
      cursor: { drag: { x: false, y: false, setScale: false } },
      legend: { live: true },
      series: [{ label: "tick", value: (u, v) => (v == null ? "–" : String(v)) }, ...series],
    };
  }

  function msValue(u, v) {
    return v == null ? "–" : v.toFixed(3);
  }

  function lineSeries(label, i) {
    return { label, stroke: seriesColor(i), width: 1.25, value: msValue, points: { show: false } };
  }

  function seriesColor(i) {
    return i < PALETTE.length ? PALETTE[i] : `hsl(${(i * 67) % 360} 60% 62%)`;
  }

  function buildTickChart() {
    const box = $("chart-tick");
    charts.tick = new uPlot(chartOptions(box, [lineSeries("tick time", 0)]),
      [samples.ticks, samples.tickMs], box);
  }

  // buildSystemsChart (re)creates the per-system chart: uPlot's series are
  // fixed at creation, and the set of systems can change over a session.
  function buildSystemsChart() {
    const box = $("chart-systems");
    if (charts.systems) charts.systems.destroy();
    const series = samples.names.map((n, i) => lineSeries(n, i + 1));
    charts.systems = new uPlot(chartOptions(box, series), [samples.ticks, ...samples.systemMs], box);
  }

  // setSystemNames aligns the per-system arrays with the names of the
  // latest event: new systems start with gaps, gone ones are dropped.
  function setSystemNames(names) {
    if (names.length === samples.names.length && names.every((n, i) => n === samples.names[i])) return false;
    const old = new Map(samples.names.map((n, i) => [n, samples.systemMs[i]]));
    samples.systemMs = names.map((n) => old.get(n) || new Array(samples.ticks.length).fill(null));
    samples.names = names.slice();
    return true;
  }

  // addSample appends one tick. A tick not after the last one kept (the
  // backlog resent on reconnecting, a restarted server, a world rolled
  // back) first drops the kept samples from that tick on, so x stays sorted.
  function addSample(s, count) {
    const n = () => samples.ticks.length;
    while (n() > 0 && samples.ticks[n() - 1] >= s.tick) {
      samples.ticks.pop();
      samples.tickMs.pop();
      for (const arr of samples.systemMs) arr.pop();
    }
    samples.ticks.push(s.tick);
    samples.tickMs.push(s.tickNs / 1e6);
    const sys = s.systemNs || [];
    for (let i = 0; i < count; i++) {
      samples.systemMs[i].push(sys[i] == null ? null : sys[i] / 1e6);
    }
  }

  function trimSamples() {
    const extra = samples.ticks.length - MAX_SAMPLES;
    if (extra <= 0) return;
    samples.ticks.splice(0, extra);
    samples.tickMs.splice(0, extra);
    for (const arr of samples.systemMs) arr.splice(0, extra);
  }

  function onTickEvent(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    const rebuild = setSystemNames(msg.systems || []);
    for (const s of msg.samples || []) addSample(s, samples.names.length);
    trimSamples();
    charts.tick.setData([samples.ticks, samples.tickMs]);
    if (rebuild) buildSystemsChart();
    else charts.systems.setData([samples.ticks, ...samples.systemMs]);
  }

  function setStreamState(text, live) {
    const s = $("stream-state");
    s.textContent = text;
    s.classList.toggle("live", live);
  }

  // connectStream opens the SSE stream. EventSource reconnects by itself
  // after a network error; when it gives up (state CLOSED, e.g. the server
  // answered with an error) a new one is opened after a pause.
  function connectStream() {
    const source = new EventSource("/api/stream");
    source.addEventListener("open", () => setStreamState("live", true));
    source.addEventListener("tick", onTickEvent);
    source.addEventListener("error", () => {
      setStreamState("reconnecting…", false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connectStream, 3000);
    });
  }

  function setupCharts() {
    if (typeof uPlot !== "function") {
      setStreamState("charts unavailable (uPlot did not load)", false);
      return false;
    }
    buildTickChart();
    buildSystemsChart();
    const resize = new ResizeObserver(() => {
      for (const [chart, box] of [[charts.tick, $("chart-tick")], [charts.systems, $("chart-systems")]]) {
        const width = Math.max(box.clientWidth, 200);
        if (chart && chart.width !== width) chart.setSize({ width, height: CHART_HEIGHT });
      }
    });
    resize.observe($("chart-tick"));
    resize.observe($("chart-systems"));
    return true;
  }

  // ---- time travel hooks (used by timetravel.js) ----------------------------

  window.tesseraInspector = {
    api, write, setStatus, el,
    openId: () => state.openId,
    openEntity,
    // setView makes the reads look at a past tick, the branch ("branch")
    // or the live world (null), and reloads what shows the world.
    setView(at) {
      state.at = at;
      document.body.classList.toggle("in-past", at !== null);
      loadEntities();
      if (state.openId) openEntity(state.openId);
    },
  };

  // ---- start ---------------------------------------------------------------

  function start() {
    setupToken();
    $("btn-pause").addEventListener("click", () => loopAction("pause"));
    $("btn-step").addEventListener("click", () => loopAction("step"));
    $("btn-resume").addEventListener("click", () => loopAction("resume"));
    setupEntityList();
    setupDetail();
    if (setupCharts()) connectStream();
    // The first poll brings the component types, which the entity list
    // uses for short names; later polls schedule themselves.
    poll().finally(loadEntities);
  }

  start();
})();
