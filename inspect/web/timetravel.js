// Tessera inspector: time travel, when the world has a snapshot ring
// (inspect.History). Loaded after app.js, whose hooks it uses
// (window.tesseraInspector: api, write, setView, openEntity...).
//
//   GET    /api/history                      (polled every second)
//   GET    /api/history/diff?a=&b=&limit=    (Diff)
//   POST   /api/branch, GET /api/branch, DELETE /api/branch
//   the reads of app.js with at=TICK or at=branch (setView)
//
// Looking at a past tick pauses the loop when the page can (a token), so
// the tick stays in the ring, and Live resumes it if the page paused it.
"use strict";

(() => {
  const TT = window.tesseraInspector;
  if (!TT) return;
  const POLL_MS = 1000;
  const LIMIT = 200;
  const $ = (id) => document.getElementById(id);
  const el = TT.el;

  const tt = {
    view: null,          // null (live), a tick as a string, or "branch"
    pausedByPage: false, // the page paused the loop to look at the past
    history: null,       // the last GET /api/history
    branchShown: null,   // "from:to" of the branch whose diff is shown
    systemsLoaded: false,
  };

  const typeName = (name) => name.slice(name.lastIndexOf("/") + 1);

  // ---- the view: live, a past tick, the branch -----------------------------

  function setView(view) {
    tt.view = view;
    TT.setView(view);
    const s = $("tt-state");
    s.classList.toggle("past", view !== null && view !== "branch");
    s.classList.toggle("branch", view === "branch");
    if (view === null) s.textContent = "live";
    else if (view === "branch") s.textContent = "viewing the branch (read-only)";
    else s.textContent = `viewing tick ${view} (read-only)`;
  }

  async function showTick(tick) {
    if (!Number.isInteger(tick) || tick < 0) {
      TT.setStatus("time travel: want a tick number", "error");
      return;
    }
    if (tt.view === null && TT.api && tt.history && tt.history.saving) {
      // Hold the past still while it is looked at: a running loop would
      // push the tick out of the ring.
      try {
        const world = await TT.api("GET", "/api/world");
        if (world.loop && !world.paused) {
          await TT.api("POST", "/api/loop/pause");
          tt.pausedByPage = true;
        }
      } catch {
        // Without the token the loop keeps running; the reads still work
        // as long as the ring holds the tick.
      }
    }
    $("tt-slider").value = String(tick);
    $("tt-at").value = String(tick);
    setView(String(tick));
  }

  async function goLive() {
    setView(null);
    if (tt.pausedByPage) {
      tt.pausedByPage = false;
      try { await TT.api("POST", "/api/loop/resume"); } catch { /* shown by the next poll */ }
    }
  }

  // ---- history polling -----------------------------------------------------

  async function pollHistory() {
    try {
      const h = await TT.api("GET", "/api/history");
      tt.history = h;
      renderHistory(h);
    } catch {
      // app.js reports read errors
    }
    setTimeout(pollHistory, POLL_MS);
  }

  function renderHistory(h) {
    const panel = $("time-travel");
    panel.hidden = !h.depth;
    if (!h.depth) return;
    if (!tt.systemsLoaded) loadChoices();
    const slider = $("tt-slider");
    const held = h.oldest === null ? "nothing held yet" :
      `ticks ${h.oldest}–${h.newest} held` + (h.contiguous ? "" : ` (${h.count}, with gaps)`);
    $("tt-range").textContent = `${held} (depth ${h.depth})` + (h.error ? ` — not saving: ${h.error}` : "");
    if (h.oldest !== null) {
      slider.min = String(h.oldest);
      slider.max = String(h.newest);
      if (tt.view === null && document.activeElement !== slider) slider.value = String(h.newest);
      for (const id of ["tt-diff-a", "tt-diff-b", "tt-branch-from"]) {
        if ($(id).value === "") $(id).value = String(id === "tt-diff-a" ? h.oldest : h.newest);
      }
    }
    const b = h.branch;
    if (!b) {
      if (tt.branchShown !== null) branchGone();
      return;
    }
    const key = `${b.from}:${b.to}`;
    if (tt.branchShown !== key) loadBranch();
  }

  // loadChoices fills the branch form's systems and component names.
  async function loadChoices() {
    tt.systemsLoaded = true;
    try {
      const sys = await TT.api("GET", "/api/systems");
      $("tt-branch-systems").replaceChildren(el("legend", { text: "systems off" }),
        ...(sys.systems || []).map((s) => el("label", {},
          el("input", { type: "checkbox", value: s.name, "data-system": s.name }), s.name)));
      const comps = await TT.api("GET", "/api/components");
      $("tt-branch-component").replaceChildren(el("option", { value: "", text: "(component)" }),
        ...(comps.components || []).map((c) => el("option", { value: c.name, text: c.goType || typeName(c.name) })));
    } catch {
      tt.systemsLoaded = false;
    }
  }

  // ---- diffs ---------------------------------------------------------------

  // renderDiff shows a diff answer in box: a summary, the counts per part
  // and the first differences; labels name A and B; clicking an entity
  // opens it as it is in the view open (a tick or "branch").
  function renderDiff(box, d, labels, open) {
    if (!d) {
      box.replaceChildren();
      return;
    }
    const summary = d.total === 0 ? "no differences" :
      `${d.total} differences on ${d.entities} entities` +
      (d.differences.length < d.total ? ` (the first ${d.differences.length} below)` : "");
    const parts = d.parts.map((p) => el("li", { text: `${p.part} ${typeName(p.type)}: ${p.n}`, title: p.type }));
    const rows = d.differences.map((x) => el("tr", { "data-entity": x.entity || null, "data-type": x.type },
      el("td", {}, x.entity ? el("span", { className: "tt-entity", "data-id": x.entity, tabindex: 0, role: "button", text: x.entity }) : "–"),
      el("td", { text: `${x.part} ${typeName(x.type)}`, title: x.type }),
      el("td", { text: x.field || "(value)" }),
      el("td", { className: "value", text: x.kind === "differs" ? x.a : `${x.kind}${x.a ? ": " + x.a : ""}` }),
      el("td", { className: "value", text: x.kind === "differs" ? x.b : (x.b || "") })));
    const table = el("table", { className: "grid" },
      el("thead", {}, el("tr", {}, el("th", { text: "entity" }), el("th", { text: "part" }),
        el("th", { text: "field" }), el("th", { text: labels[0] }), el("th", { text: labels[1] }))),
      el("tbody", {}, ...rows));
    box.replaceChildren(el("p", { className: "tt-summary", text: summary }), el("ul", {}, ...parts),
      ...(rows.length ? [table] : []));
    const go = (ev) => {
      const item = ev.target.closest(".tt-entity");
      if (!item) return;
      if (open === "branch") setView("branch");
      else showTick(Number(open));
      TT.openEntity(item.dataset.id);
    };
    box.onclick = go;
    box.onkeydown = (ev) => { if (ev.key === "Enter") go(ev); };
  }

  async function diffTicks() {
    const a = $("tt-diff-a").value.trim();
    const b = $("tt-diff-b").value.trim();
    const box = $("tt-diff-result");
    try {
      const d = await TT.api("GET", `/api/history/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}&limit=${LIMIT}`);
      renderDiff(box, d, [`tick ${d.a}`, `tick ${d.b}`], String(d.b));
      TT.setStatus(`diff of ticks ${d.a} and ${d.b}: ${d.total} differences`, "ok");
    } catch (err) {
      box.replaceChildren(el("p", { className: "error-text", text: err.message }));
      TT.setStatus("diff: " + err.message, "error");
    }
  }

  // ---- branches ------------------------------------------------------------

  function branchBody() {
    const body = { tick: Number($("tt-branch-from").value), limit: LIMIT };
    const ticks = $("tt-branch-ticks").value.trim();
    if (ticks !== "") body.ticks = Number(ticks);
    const off = [...$("tt-branch-systems").querySelectorAll("input:checked")].map((i) => i.value);
    if (off.length) body.systems = Object.fromEntries(off.map((n) => [n, false]));
    const entity = $("tt-branch-entity").value.trim();
    const component = $("tt-branch-component").value;
    if (entity || component) {
      const text = $("tt-branch-value").value.trim() || "{}";
      body.set = [{ entity, component, value: JSON.parse(text) }];
    }
    return body;
  }

  async function startBranch() {
    let body;
    try {
      body = branchBody();
    } catch (err) {
      TT.setStatus("branch: the value is not JSON: " + err.message, "error");
      return;
    }
    const answer = await TT.write(`branch from tick ${body.tick}`, "POST", "/api/branch", body);
    if (!answer) return;
    showBranch(answer);
    setView("branch");
  }

  async function loadBranch() {
    try {
      showBranch(await TT.api("GET", "/api/branch"));
    } catch {
      branchGone();
    }
  }

  function showBranch(b) {
    tt.branchShown = `${b.from}:${b.to}`;
    const off = Object.entries(b.systems || {}).filter(([, on]) => !on).map(([n]) => n);
    const what = [off.length ? `${off.join(", ")} off` : "", (b.set || []).length ? `${b.set.length} value set` : ""]
      .filter(Boolean).join(", ") || "nothing changed";
    $("tt-branch-title").textContent = `branch from tick ${b.from} to ${b.to} (${what}); the main line is held`;
    $("tt-branch-open").hidden = false;
    $("tt-branch-form").hidden = true;
    const box = $("tt-branch-result");
    if (b.diff) renderDiff(box, b.diff, [`main at ${b.to}`, `branch at ${b.to}`], "branch");
    else box.replaceChildren(el("p", { className: "muted", text: b.note || "" }));
  }

  function branchGone() {
    tt.branchShown = null;
    $("tt-branch-open").hidden = true;
    $("tt-branch-form").hidden = false;
    $("tt-branch-result").replaceChildren();
    if (tt.view === "branch") setView(null);
  }

  async function leaveBranch() {
    const answer = await TT.write("leave the branch", "DELETE", "/api/branch");
    if (!answer) return;
    branchGone();
    await goLive();
  }

  // ---- start ---------------------------------------------------------------

  function start() {
    const slider = $("tt-slider");
    slider.addEventListener("input", () => { $("tt-at").value = slider.value; });
    slider.addEventListener("change", () => showTick(Number(slider.value)));
    $("tt-scrub").addEventListener("submit", (ev) => { ev.preventDefault(); showTick(Number($("tt-at").value)); });
    $("tt-live").addEventListener("click", goLive);
    $("tt-diff-form").addEventListener("submit", (ev) => { ev.preventDefault(); diffTicks(); });
    $("tt-branch-form").addEventListener("submit", (ev) => { ev.preventDefault(); startBranch(); });
    $("tt-view-branch").addEventListener("click", () => setView("branch"));
    $("tt-leave").addEventListener("click", leaveBranch);
    pollHistory();
  }

  start();
})();
