// Tessera inspector: relations of the open entity and the hierarchy view.
//
// Reads (on demand, never polled):
//   the detail app.js fetched (GET /api/entities/ID), sent as the event
//     "tessera:entity": parent, ancestors, children, pairs and targetOf
//   GET /api/hierarchy?offset=&limit=         the roots, a page at a time
//   GET /api/hierarchy/ID?offset=&limit=      a node's children, likewise
// Clicking an entity id sends "tessera:open" with the id; app.js opens it.
//
// Plain DOM code like app.js: text only through textContent.
"use strict";

(() => {
  const PAGE = 100; // nodes asked for at a time (the server allows up to 1000)

  const $ = (id) => document.getElementById(id);

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

  const fmtInt = (n) => Number(n || 0).toLocaleString("en-US");
  const shortName = (name) => name.slice(name.lastIndexOf("/") + 1);

  async function get(path) {
    const res = await fetch(path, { headers: { Accept: "application/json" } });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
    return data;
  }

  const open = (id) => document.dispatchEvent(new CustomEvent("tessera:open", { detail: id }));

  // link is an entity id that opens the entity when clicked.
  function link(id) {
    const a = el("a", { href: "#", className: "entity-link", "data-id": id, text: id });
    a.addEventListener("click", (ev) => { ev.preventDefault(); open(id); });
    return a;
  }

  // more says how many a bounded list left out.
  function more(shown, total) {
    return total > shown ? el("span", { className: "muted", text: ` … and ${fmtInt(total - shown)} more` }) : null;
  }

  // ---- the open entity's relations ----------------------------------------

  function renderRelations(entity) {
    const box = $("entity-relations");
    if (!entity) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const parts = [];
    const ancestors = entity.ancestors || [];
    const parent = el("div", { className: "rel-parent" }, el("span", { className: "rel-label", text: "parent" }));
    if (entity.parent) {
      parent.append(link(entity.parent));
      if (ancestors.length > 1) {
        const path = el("span", { className: "rel-path muted" }, " (");
        if (entity.ancestorsMore) path.append("… › ");
        ancestors.slice().reverse().forEach((id, i) => {
          if (i > 0) path.append(" › ");
          path.append(link(id));
        });
        path.append(")");
        parent.append(path);
      }
    } else {
      parent.append(el("span", { className: "muted", text: "none" }));
    }
    parts.push(parent);

    const children = entity.children || [];
    const kids = el("div", { className: "rel-children" },
      el("span", { className: "rel-label", text: `children (${fmtInt(entity.childCount || 0)})` }));
    if (children.length === 0) kids.append(el("span", { className: "muted", text: "none" }));
    children.forEach((id, i) => {
      if (i > 0) kids.append(" ");
      kids.append(link(id));
    });
    kids.append(more(children.length, entity.childCount || 0) || "");
    parts.push(kids);

    parts.push(pairTable("pairs", "target", entity.pairs || [], entity.pairCount || 0));
    parts.push(pairTable("target of", "source", entity.targetOf || [], entity.targetOfCount || 0));
    box.replaceChildren(...parts);
    box.hidden = false;
  }

  // pairTable lists pairs: the relation, the entity at the other end
  // (side: "target" or "source") and the value when there is one.
  function pairTable(title, side, pairs, total) {
    const wrap = el("div", { className: "rel-pairs", "data-side": side },
      el("h3", { text: `${title} (${fmtInt(total)})` }));
    if (pairs.length === 0) {
      wrap.append(el("p", { className: "muted", text: "none" }));
      return wrap;
    }
    const rows = pairs.map((p) => el("tr", { "data-relation": p.relation },
      el("td", { text: p.goType || shortName(p.relation), title: p.relation }),
      el("td", {}, link(p[side])),
      el("td", { className: "rel-value", text: p.error ? "error: " + p.error : (p.value === undefined ? "" : JSON.stringify(p.value)) })));
    wrap.append(el("table", { className: "grid" },
      el("thead", {}, el("tr", {}, el("th", { text: "relation" }), el("th", { text: side }), el("th", { text: "value" }))),
      el("tbody", {}, ...rows)));
    wrap.append(more(pairs.length, total) || "");
    return wrap;
  }

  // ---- the hierarchy view --------------------------------------------------

  // node is one tree item: a toggle when it has children, its id (a link)
  // and its components; its children load when it is first expanded.
  function node(n) {
    const li = el("li", { className: "tree-node", "data-id": n.id });
    const toggle = el("button", {
      type: "button", className: "tree-toggle", "aria-expanded": "false",
      disabled: n.childCount === 0, title: n.childCount === 0 ? "no children" : "show the children",
      text: n.childCount === 0 ? "·" : "▸",
    });
    const kids = el("ul", { className: "tree", hidden: true });
    let loaded = false;
    toggle.addEventListener("click", async () => {
      const opening = kids.hidden;
      kids.hidden = !opening;
      toggle.textContent = opening ? "▾" : "▸";
      toggle.setAttribute("aria-expanded", String(opening));
      if (opening && !loaded) {
        loaded = true;
        await loadPage(kids, "/api/hierarchy/" + encodeURIComponent(n.id), 0);
      }
    });
    li.append(toggle, link(n.id),
      el("span", { className: "muted tree-count", text: n.childCount ? ` ${fmtInt(n.childCount)} ${n.childCount === 1 ? "child" : "children"}` : "" }),
      el("span", { className: "tree-names", text: (n.components || []).map(shortName).join(", ") }),
      kids);
    return li;
  }

  // loadPage appends a page of nodes from path to list, and a button for
  // the next page when there is one.
  async function loadPage(list, path, offset) {
    let page;
    try {
      page = await get(`${path}?offset=${offset}&limit=${PAGE}`);
    } catch (err) {
      list.append(el("li", { className: "error-text", text: err.message }));
      return null;
    }
    for (const n of page.nodes || []) list.append(node(n));
    const end = offset + (page.nodes || []).length;
    if (end < page.total) {
      const next = el("button", { type: "button", className: "tree-more", text: `more (${fmtInt(page.total - end)} left)` });
      const item = el("li", {}, next);
      next.addEventListener("click", () => { item.remove(); loadPage(list, path, end); });
      list.append(item);
    }
    return page;
  }

  async function loadRoots() {
    const tree = $("hierarchy-tree");
    tree.replaceChildren();
    const page = await loadPage(tree, "/api/hierarchy", 0);
    if (!page) return;
    $("hierarchy-total").textContent = fmtInt(page.total);
    $("hierarchy-note").textContent = page.declared ? "" : "(this world declares no hierarchy)";
    if (page.total === 0) tree.append(el("li", { className: "muted empty", text: "no entity has children" }));
  }

  function start() {
    document.addEventListener("tessera:entity", (ev) => renderRelations(ev.detail));
    const section = $("hierarchy-section");
    section.addEventListener("toggle", () => { if (section.open) loadRoots(); });
    $("hierarchy-refresh").addEventListener("click", loadRoots);
  }

  start();
})();
