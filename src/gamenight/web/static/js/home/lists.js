// @ts-check
// The home page's lists: the tables in progress and finished, and "your tables" (those this
// browser holds keys for), with the host's archive and delete.
import { api } from "../core/api.js";
import { byId, el, toast } from "../core/dom.js";
import { refusalText, t } from "../core/i18n.js";
import { forgetTable, heldTables, heldTokens } from "../core/tokens.js";

let filter = "playing";
/** @type {any[]} the tables the server lists */
let tables = [];

/** Show the tables playing, or those finished. @param {string} which */
export function setFilter(which) {
  filter = which;
  renderTables();
}

// ---------------------------------------------------------------- the tables

export async function loadTables() {
  try {
    tables = await api("/api/tables");
  } catch (exc) {
    toast(refusalText(exc), "error");
    tables = [];
  }
  renderTables();
}

export function renderTables() {
  for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".tab"))) {
    tab.setAttribute("aria-selected", String(tab.dataset.filter === filter));
  }
  const list = byId("tables", HTMLElement);
  const shown = tables.filter((x) => (filter === "playing") === (x.status === "playing"));
  if (!shown.length) {
    list.replaceChildren(el("li", { class: "empty" }, t(filter === "playing" ? "no_tables_playing" : "no_tables_finished")));
    return;
  }
  list.replaceChildren(...shown.map((table) => {
    const held = Object.keys(heldTokens(table.id)).length > 0;
    return tableItem(table, held, []);
  }));
}

/** One table of a list: its game, seats and when it was played, with its links (``held``: a
 * seat of this browser's is at it) and ``extra`` buttons. */
function tableItem(table, held, extra, badges = []) {
  const playing = table.status === "playing";
  const winners = table.outcome
    ? table.seats.filter((_, i) => table.outcome.places[i] === 1).map((s) => s.name).join(", ")
    : "";
  const when = new Date(table.updated).toLocaleString(document.documentElement.lang);
  return el("li", { class: "table-item", "data-table": table.id },
    el("span", { class: `game-icon icon-${table.game}`, "aria-hidden": "true" }),
    el("div", { class: "table-main-info" },
      el("div", { class: "table-game" }, t(table.game), badges),
      el("div", { class: "table-seats" }, table.seats.map((s) => el("span", { class: "seat-chip" },
        el("span", { class: `seat-dot dot-${s.role}`, "aria-hidden": "true" }),
        s.name, s.kind === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
      ))),
      el("div", { class: "table-meta" }, playing ? when : `${t("winner")}: ${winners || "—"} · ${when}`),
    ),
    el("div", { class: "table-links" },
      playing && held ? el("a", { class: "btn btn-primary", href: `/table/${table.id}` }, t("play")) : null,
      playing && !held ? el("a", { class: "btn", href: `/table/${table.id}` }, t("watch")) : null,
      el("a", { class: "btn", href: `/replay/${table.id}` }, t("replay")),
      extra,
    ),
  );
}

// ---------------------------------------------------------------- your tables (social)

const MINE = 50; // tables asked about in one request (the server's limit)
let mine = [];

/** The tables this browser holds keys for, as the server sums them up; keys that open
 * nothing (a deleted table, a seat given to someone else) are forgotten. */
export async function loadMine() {
  const held = Object.entries(heldTables()).filter(([, keys]) => keys.length);
  const found = [];
  for (let i = 0; i < held.length; i += MINE) {
    try {
      const answer = await api("/api/tables/mine", { method: "POST", body: { tables: Object.fromEntries(held.slice(i, i + MINE)) } });
      found.push(...answer.tables);
      for (const table of answer.unknown) forgetTable(table);
    } catch (exc) {
      toast(refusalText(exc), "error");
    }
  }
  mine = found.sort((a, b) => b.updated.localeCompare(a.updated));
  renderMine();
}

function groupOf(table) {
  if (table.archived) return "archived";
  if (table.status !== "playing") return "finished";
  return table.your_turn ? "waiting" : "playing";
}

export function renderMine() {
  const box = byId("mine-groups", HTMLElement);
  byId("mine", HTMLElement).hidden = !mine.length; // a browser new here holds none
  const held = heldTables(); // (read from storage once, not once a table)
  const groups = ["waiting", "playing", "finished", "archived"].map((group) => {
    const tables = mine.filter((table) => groupOf(table) === group);
    const items = tables.length
      ? tables.map((table) => myItem(table, held[table.id] || []))
      : [el("li", { class: "empty" }, t("mine_none"))];
    const title = el(group === "archived" ? "summary" : "h3", { class: "mine-group-title" },
      t(`mine_${group}`), el("span", { class: "count" }, ` (${tables.length})`));
    const list = el("ul", { class: "table-list", "aria-live": "polite" }, items);
    if (group === "archived") return el("details", { class: "mine-group", "data-group": group }, title, list);
    return el("div", { class: "mine-group", "data-group": group }, title, list);
  });
  box.replaceChildren(...groups);
}

/** A table of mine, with the keys this browser holds for it. */
function myItem(table, keys) {
  const badges = [
    table.your_turn ? el("span", { class: "badge badge-you" }, t("your_turn")) : null,
    table.host ? el("span", { class: "badge" }, t("mine_host")) : null,
    table.held.length || table.host ? null : el("span", { class: "badge" }, t("mine_watching")),
  ];
  const extra = table.host ? [
    el("button", {
      type: "button", class: "btn", "data-archive": table.id,
      onclick: () => hostAct(table, "archive", { keys, archived: !table.archived }, table.archived ? "mine_unarchived_done" : "mine_archived_done"),
    }, t(table.archived ? "mine_unarchive" : "mine_archive")),
    el("button", {
      type: "button", class: "btn btn-danger", "data-delete": table.id,
      onclick: () => confirm(t("mine_delete_confirm")) && hostAct(table, "delete", { keys }, "mine_deleted"),
    }, t("mine_delete")),
  ] : [];
  return tableItem(table, table.held.length > 0, extra, badges);
}

async function hostAct(table, act, body, done) {
  try {
    await api(`/api/tables/${encodeURIComponent(table.id)}/${act}`, { method: "POST", body });
    if (act === "delete") forgetTable(table.id);
    toast(t(done));
  } catch (exc) {
    toast(refusalText(exc), "error");
  }
  await Promise.all([loadMine(), loadTables()]);
}
