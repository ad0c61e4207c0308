// Shared by every page: translations, the JSON API, seat tokens and the table's socket.

const LANG_KEY = "gamenight.lang";
const strings = {};
let current = "en";

function pickLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "en" || saved === "ko") return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ko") ? "ko" : "en";
}

export function lang() {
  return current;
}

async function loadStrings(code) {
  if (!strings[code]) {
    const response = await fetch(`/static/i18n/${code}.json`);
    strings[code] = await response.json();
  }
  return strings[code];
}

/** The text for ``key`` in the page's language, with {name} placeholders filled in. */
export function t(key, vars = {}) {
  const table = strings[current] || {};
  let text = table[key] ?? (strings.en || {})[key] ?? key;
  for (const [name, value] of Object.entries(vars)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** Fill every element marked with data-i18n (its text) or data-i18n-aria (its aria-label). */
function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-aria]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria));
  }
}

const listeners = [];

/** Call ``fn`` whenever the language changes (pages re-render their dynamic parts). */
export function onLanguageChange(fn) {
  listeners.push(fn);
}

async function setLanguage(code) {
  await loadStrings("en");
  await loadStrings(code);
  current = code;
  localStorage.setItem(LANG_KEY, code);
  document.documentElement.lang = code;
  translate();
  const button = document.getElementById("lang-switch");
  if (button) {
    button.textContent = code === "ko" ? "English" : "한국어";
    button.setAttribute("aria-label", t("switch_language"));
  }
  for (const fn of listeners) fn(code);
}

/** The page chrome every page shares: a header with the home link and the language switch. */
export async function initPage() {
  const header = document.querySelector("header.topbar");
  if (header && !header.querySelector("#lang-switch")) {
    const button = el("button", { id: "lang-switch", class: "lang-switch", type: "button" });
    button.addEventListener("click", () => setLanguage(current === "ko" ? "en" : "ko"));
    header.append(button);
  }
  await setLanguage(pickLanguage());
}

// ---------------------------------------------------------------- DOM

/** A new element: ``el("button", {class: "x", onclick: fn}, "text", child)``. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Parse server-rendered SVG markup into an element; sized by CSS, not its attributes. */
export function svgElement(markup) {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // The engines write their few words in English and mark them for the page's language.
  for (const node of svg.querySelectorAll("[data-label]")) node.textContent = t(node.dataset.label);
  return svg;
}

/** The height of a word's box, in ems of its font size, that the drawings leave room for:
 * the slot letters' band, the ring numbers' badges and the like are sized for it (Nanum
 * Gothic's box; DejaVu Sans's is 1.16 em, Noto Sans CJK's 1.45 em). */
const WORD_BOX_EM = 1.15;

/** Each word of ``svg`` whose box is taller than WORD_BOX_EM of its size is drawn smaller, so
 * that it fits the room drawn for it whatever the font (the box is the font's ascent and
 * descent, however little of it a word's ink fills). Measured afresh at each call, as the
 * stylesheet's sizes change with the board's size, and again after each shrinking: on screen
 * the ascent and descent are rounded to whole pixels, so a box does not shrink in proportion. */
function fitWordBoxes(svg) {
  const words = [...svg.querySelectorAll("text")].filter((word) => word.textContent);
  for (const word of words) word.style.removeProperty("font-size");
  let tall = words.map((word) => {
    const size = parseFloat(getComputedStyle(word).fontSize);
    return { word, size, room: WORD_BOX_EM * size };
  });
  for (let pass = 0; pass < 4 && tall.length; pass++) {
    tall = tall.filter((w) => w.word.getBBox().height > w.room + 0.01);
    for (const w of tall) {
      w.size *= w.room / w.word.getBBox().height;
      w.word.style.setProperty("font-size", `${w.size}px`);
    }
  }
}

/** Keep the words drawn on ``board`` (the element holding a game's drawing) legible however
 * small the board is shown, on a phone as on a large screen: the stylesheet sizes them from
 * --screen-px, set on the drawing here to the length in its own units of one CSS pixel on
 * screen, now and whenever the board is resized. Returns the function to call when a new
 * drawing replaces the old one. */
export function keepWordsLegible(board) {
  const fit = () => {
    const svg = board.querySelector(":scope > svg");
    const scale = svg?.getScreenCTM()?.a; // screen pixels per unit of the drawing
    if (!scale) return;
    svg.style.setProperty("--screen-px", `${1 / scale}px`);
    fitWordBoxes(svg);
  };
  new ResizeObserver(fit).observe(board);
  return fit;
}

/** Tell the page's layout the shape of the board drawn in ``svg``: on wide screens the board's
 * column is as wide as the board drawn one screen tall (--board-aspect on ``root``, width over
 * height; Color City's board is portrait). */
export function setBoardAspect(root, svg) {
  const { width, height } = svg.viewBox.baseVal;
  root.style.setProperty("--board-aspect", String(width / height));
}

/** Keep the header's height in --topbar-height: on wide screens a board's column fills the
 * screen below it, however the header wraps (a longer language, a narrower window). */
export function trackTopbar() {
  const header = document.querySelector(".topbar");
  const keep = () => document.documentElement.style.setProperty("--topbar-height", `${header.getBoundingClientRect().height}px`);
  new ResizeObserver(keep).observe(header);
  keep();
}

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

// ---------------------------------------------------------------- API

export async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json" },
    ...options,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || `${response.status} ${response.statusText}`);
    Object.assign(error, { code: data.code, params: data.params });
    throw error;
  }
  return data;
}

/** A refusal from the server — an ``error`` message, or the error a failed ``api`` call
 * throws — in the page's language: its code's text with the params filled in (seat numbers
 * become ``names`` when the page knows them), else the server's own English words. */
export function refusalText(refusal, names = null) {
  const key = `error_${refusal.code}`;
  if (!refusal.code || (strings.en || {})[key] === undefined) return refusal.message;
  const vars = { ...(refusal.params || {}) };
  // An engine's refusal names its rule in each language it is said in ("why not?").
  if (vars.words && typeof vars.words[lang()] === "string") vars.detail = vars.words[lang()];
  for (const name of ["seat", "actor"]) {
    if (typeof vars[name] === "number") vars[name] = names?.[vars[name]] ?? t("seat_n", { n: vars[name] + 1 });
  }
  if (vars.game) vars.game = t(vars.game);
  return t(key, vars);
}

// ---------------------------------------------------------------- seat tokens

const tokenKey = (table) => `gamenight.tokens.${table}`;
const inviteKey = (table) => `gamenight.invites.${table}`;
const watchKey = (table) => `gamenight.watch.${table}`;

/** The {seat: token} map stored under ``key``; empty when there is none (or it is unreadable). */
function storedTokens(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

function storeToken(key, seat, token) {
  const all = storedTokens(key);
  all[seat] = token;
  localStorage.setItem(key, JSON.stringify(all));
}

/** The seats this device holds at ``table``: {seat number: token}. */
export function heldTokens(table) {
  return storedTokens(tokenKey(table));
}

export function keepToken(table, seat, token) {
  storeToken(tokenKey(table), seat, token);
}

/** Invite links made on this device, so their maker can copy or renew them later:
 * {seat number: {token, renew}} (``renew`` is the key that makes a new link). */
export function invites(table) {
  const all = storedTokens(inviteKey(table));
  for (const [seat, invite] of Object.entries(all)) {
    if (typeof invite === "string") all[seat] = { token: invite, renew: null }; // kept before renewal keys
  }
  return all;
}

export function keepInvite(table, seat, token, renew) {
  storeToken(inviteKey(table), seat, { token, renew });
}

/** After the server's welcome the device keeps exactly the tokens it names, by seat: an
 * invite link just used is swapped for the device's own token, and tokens that opened
 * nothing (a link used elsewhere first, a seat given a new link) are dropped. */
function settleTokens(table, welcome) {
  localStorage.setItem(tokenKey(table), JSON.stringify(welcome.tokens || {}));
}

/** A seat this device held was given a new invite link: its token opens nothing now. */
function dropToken(table, seat) {
  const all = heldTokens(table);
  delete all[seat];
  localStorage.setItem(tokenKey(table), JSON.stringify(all));
}

/** The token of an unlisted table's spectator link, kept by its host and by whoever came
 * through the link (null: none). */
export function watchToken(table) {
  return localStorage.getItem(watchKey(table));
}

export function keepWatch(table, token) {
  if (token) localStorage.setItem(watchKey(table), token);
}

/** ``path`` (one of the table's own API paths) with the keys an unlisted table asks for: the
 * spectator link's token and the seats' (any one of them that opens the table will do). */
export function keyed(table, path) {
  const keys = [watchToken(table), ...Object.values(heldTokens(table))].filter(Boolean);
  return keys.length ? `${path}?${keys.map((key) => `key=${encodeURIComponent(key)}`).join("&")}` : path;
}

let linkBase = null;

/** Where invite and spectator links point: the address the server names (GAMENIGHT_PUBLIC_URL,
 * or its address on the local network with ``gamenight serve --lan``: GET /api/links), else
 * the one this page was opened with. Asked once per page. */
function linkOrigin() {
  linkBase ??= api("/api/links").then((links) => links.public_url || location.origin, () => location.origin);
  return linkBase;
}

function inviteLink(origin, table, token) {
  return `${origin}/table/${table}#token=${encodeURIComponent(token)}`;
}

function spectatorLink(origin, table, token) {
  return `${origin}/table/${table}#watch=${encodeURIComponent(token)}`;
}

/** The server's picture of ``link`` (one of its own links) as a QR code. */
function qrSource(link) {
  return `/api/qr?text=${encodeURIComponent(link)}`;
}

/** Move a token from the URL fragment (an invite or spectator link) into storage, and clean
 * the URL. Returns the invite link's token when the link brought one this device did not
 * hold (the page checks what it opens), else null. */
export function claimTokenFromUrl(table) {
  const watch = location.hash.match(/watch=([^&]+)/);
  if (watch) keepWatch(table, decodeURIComponent(watch[1]));
  const match = location.hash.match(/token=([^&]+)/);
  if (watch || match) history.replaceState(null, "", location.pathname + location.search);
  if (!match) return null;
  const token = decodeURIComponent(match[1]);
  if (Object.values(heldTokens(table)).includes(token)) return null;
  // Which seat the token opens is the server's secret, so it stays under a provisional key:
  // hello sends every token held for the table, whatever its key.
  keepToken(table, `invite-${Date.now()}`, token);
  return token;
}

/** Forget an invite link's token that opens nothing (wrong, used elsewhere, renewed). */
export function forgetToken(table, token) {
  const all = heldTokens(table);
  for (const [seat, held] of Object.entries(all)) if (held === token) delete all[seat];
  localStorage.setItem(tokenKey(table), JSON.stringify(all));
}

/** What an invite link's ``token`` opens at ``table`` (web.seats.LinkState: open, yours,
 * taken, renewed, wrong) and the table's visibility, asked without using it. */
export function checkInvite(table, token) {
  const keys = Object.values(heldTokens(table)).filter((held) => held !== token);
  return api(`/api/tables/${encodeURIComponent(table)}/check-invite`, { method: "POST", body: { token, keys } });
}

// ---------------------------------------------------------------- the socket

/**
 * The table's WebSocket, reconnecting with back-off. Every (re)connection says hello with
 * all the tokens held for the table, so the server answers with a fresh state. An act or
 * undo not yet answered when the connection drops is sent again, with its id, after the
 * hello: the server answers a message it already has as it did the first time.
 */
export class TableSocket {
  constructor(table, onMessage, onStatus) {
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 300;
    this.pending = null; // the act or undo sent and not yet accepted or refused
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.table}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 300;
      this.onStatus("open");
      ws.send(JSON.stringify({ type: "hello", tokens: Object.values(heldTokens(this.table)), watch: watchToken(this.table) }));
      if (this.pending) ws.send(JSON.stringify(this.pending));
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") settleTokens(this.table, message);
      if (message.type === "revoked") dropToken(this.table, message.seat);
      // An unlisted table this page may not watch, or one its host deleted: trying again
      // would be refused again.
      if (message.type === "error" && ["unlisted", "no_table"].includes(message.code)) this.stopped = true;
      // The act or undo is stored: its page's change (or state) says so ("accepted": its
      // id), or, where that page hears no change for it (a resent message), an "accepted".
      if (message.type === "accepted" || message.type === "error" || "accepted" in message) this.pending = null;
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      this.onStatus("closed");
      if (this.stopped) return;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
    ws.addEventListener("error", () => ws.close());
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (message.id) this.pending = message;
      this.ws.send(JSON.stringify(message));
      return true;
    }
    toast(t("not_connected"), "error");
    return false;
  }
}

// ---------------------------------------------------------------- state and change

/** ``old`` (a state message) with a ``change`` message's ``diff`` made, as
 * gamenight.web.protocol.patch does: ``["=", v]`` replaced, ``["+", items]`` appended,
 * ``["~", diff]`` one level down, ``["-"]`` removed. A new object; ``old`` is untouched. */
export function patch(old, diff) {
  const out = { ...old };
  for (const [key, [op, value]] of Object.entries(diff)) {
    if (op === "=") out[key] = value;
    else if (op === "+") out[key] = [...old[key], ...value];
    else if (op === "~") out[key] = patch(old[key], value);
    else delete out[key];
  }
  return out;
}

/** A setting remembered on this browser (null: none, or no storage to read: private mode). */
export function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remember a setting on this browser (``null`` forgets it); nothing, without storage. */
export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private mode: remembered for this page only
  }
}

/** Ask for a sound (issue 16, contract B): sounds.js plays it if the player wants sounds. */
export function sound(name) {
  document.dispatchEvent(new CustomEvent("gamenight:sound", { detail: name }));
}

// ---------------------------------------------------------------- game tables

/** The seat this device plays for in ``message``'s state, or null for a spectator. */
export function mySeat(message) {
  return message && message.active !== null && message.seats.includes(message.active) ? message.active : null;
}

/**
 * The banner over the board: whose turn it is, or that the game is over. ``mine`` says it
 * is this device's turn; ``details()`` (asked only while the game goes on) gives the role
 * whose colour the dot shows, what follows the player's name, and what follows it on
 * someone else's turn (``theirs``, by default the same).
 */
export function renderTurnBanner(banner, message, mine, details) {
  const v = message.view;
  banner.className = "turn-banner";
  if (v.outcome) {
    banner.textContent = t("game_over");
    banner.classList.add("over");
    return;
  }
  const { role, detail, theirs = detail } = details();
  const name = message.names[message.actor];
  const dot = el("span", { class: `seat-dot dot-${role}`, "aria-hidden": "true" });
  if (mine) {
    banner.classList.add("mine");
    banner.replaceChildren(dot, el("strong", {}, message.seats.length > 1 ? t("turn_of_you_named", { name }) : t("your_turn")), ` · ${detail}`);
  } else {
    banner.replaceChildren(dot, el("strong", {}, t("turn_of", { name })), ` · ${theirs}`);
  }
  banner.append(el("span", { class: "turn-no" }, t("turn_n", { n: v.turn + 1 })));
}

/** The badges after a seat's name: "bot" for a bot, "you" for a seat this device holds. */
export function seatBadges(message, seat) {
  return [
    message.kinds[seat] === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
    message.seats.includes(seat) ? el("span", { class: "badge badge-you" }, t("you")) : null,
    // A player elsewhere whose page is closed (or not opened yet): worth knowing when waiting.
    message.kinds[seat] === "human" && !message.seats.includes(seat) && !(message.online || []).includes(seat)
      ? el("span", { class: "badge badge-away", "data-away": seat }, t("away"))
      : null,
  ];
}

/** A log entry that says who acted: the seat's colour dot and name, then ``entry``. */
export function logEntry(message, seat, role, entry, attrs = {}) {
  const name = seat === undefined ? null : message.names[seat];
  return el("li", attrs,
    name === null ? null : el("span", { class: `seat-dot dot-${role}`, "aria-hidden": "true" }),
    name === null ? null : el("span", { class: "log-who" }, `${name}: `),
    entry);
}

export function ordinal(n) {
  if (lang() === "ko") return `${n}등`;
  const suffix = { 1: "st", 2: "nd", 3: "rd" }[n] || "th";
  return `${n}${suffix}`;
}

/** A row with a seat's invite link, its QR code, a button that copies it and, when ``renew``
 * is given, one that makes a new link (``renew()`` resolves to the new token). */
export async function inviteRow(table, seat, name, token, renew = null) {
  const origin = await linkOrigin();
  const row = linkRow(name, inviteLink(origin, table, token), t("invite_for", { name }), { seat });
  if (renew) {
    const input = row.querySelector("input");
    const renewButton = el("button", {
      type: "button", class: "btn", "data-renew": seat, onclick: async () => {
        if (!confirm(t("renew_confirm", { name }))) return;
        try {
          input.value = inviteLink(origin, table, await renew());
          row.querySelector(".invite-qr").src = qrSource(input.value);
          toast(t("renewed", { name }));
        } catch (exc) {
          toast(refusalText(exc), "error");
        }
      },
    }, t("renew"));
    row.querySelector(".invite-buttons").append(renewButton);
  }
  return row;
}

/** A row with an unlisted table's spectator link (watching, and no seat), its QR code and its
 * copy button. */
export async function spectatorRow(table, token) {
  const link = spectatorLink(await linkOrigin(), table, token);
  return linkRow(t("spectator_link"), link, t("spectator_link"), { spectator: "" });
}

function linkRow(name, link, label, dataset) {
  const input = el("input", { type: "text", readonly: true, value: link, class: "invite-link", "aria-label": label });
  return el("div", { class: "invite-row", dataset },
    el("span", { class: "invite-name" }, name),
    input,
    el("div", { class: "invite-buttons" },
      el("button", {
        type: "button", class: "btn", onclick: async () => {
          input.select();
          try {
            await navigator.clipboard.writeText(input.value);
          } catch {
            document.execCommand("copy");
          }
          toast(t("copied"));
        },
      }, t("copy")),
    ),
    // Another device in the room opens the link by pointing its camera at the screen.
    el("img", { class: "invite-qr", src: qrSource(link), alt: t("qr_of", { name }), width: 148, height: 148 }),
  );
}

// ---------------------------------------------------------------- the tables this browser holds (social)

const hostKey = (table) => `gamenight.host.${table}`;
const TABLE_KEYS = /^gamenight\.(tokens|invites|watch|host)\.(.+)$/;

/** The host's token of a table made on this browser (it archives and deletes it). */
export function keepHost(table, token) {
  if (token) localStorage.setItem(hostKey(table), token);
}

/** Every table this browser holds something for: {table id: the keys to show for it} —
 * its seats' tokens, the spectator link's, the host's, and the renewal keys of the invites
 * it made (an invite's own link is for someone else). */
export function heldTables() {
  const tables = {};
  for (let i = 0; i < localStorage.length; i++) {
    const match = localStorage.key(i).match(TABLE_KEYS);
    if (match) tables[match[2]] = [];
  }
  for (const table of Object.keys(tables)) {
    tables[table] = [
      localStorage.getItem(hostKey(table)),
      watchToken(table),
      ...Object.values(heldTokens(table)),
      ...Object.values(invites(table)).map((invite) => invite.renew),
    ].filter((key) => typeof key === "string" && key.length > 0 && key.length <= 200);
  }
  return tables;
}

/** Forget every key this browser holds for ``table`` (deleted, or opened by none of them). */
export function forgetTable(table) {
  for (const key of [tokenKey(table), inviteKey(table), watchKey(table), hostKey(table)]) localStorage.removeItem(key);
}

// ---------------------------------------------------------------- the board as it was

/** The table's replay steps (GET /api/tables/{id}/replay/{step}) as a function of the step,
 * each asked for once: a step's answer stands while the plays before it do. ``follow`` each
 * state the page receives: an undo (the revision moving on more than the plays) forgets
 * them all. ``tableId`` is a function: a table page learns its table with its first state. */
export function replaySteps(tableId) {
  const cache = new Map();
  let seen = null; // the revision and version of the state followed last
  const load = async (step) => {
    if (!cache.has(step)) {
      const id = encodeURIComponent(tableId());
      cache.set(step, api(keyed(tableId(), `/api/tables/${id}/replay/${step}`)));
    }
    try {
      return await cache.get(step);
    } catch (exc) {
      cache.delete(step);
      throw exc;
    }
  };
  load.follow = (message) => {
    if (message.revision === undefined) return;
    if (seen && message.revision - seen.revision !== message.version - seen.version) cache.clear();
    seen = { revision: message.revision, version: message.version };
  };
  return load;
}

/** Hovering, focusing or tapping a line of the log (``line(step)``: its attributes) shows
 * the board as it was after that play — ``drawThen(view)`` draws the replay's view, marking
 * ``board`` ``data-showing="then"`` — and leaving it shows now again (``drawNow()``). Nothing
 * is shown while ``busy()``: the player is choosing or aiming a play. ``follow(message)``
 * with every state, and ``shownNow()`` whenever the board is drawn as it is now. */
export function boardThen({ board, log, tableId, busy, drawThen, drawNow }) {
  const load = replaySteps(tableId);
  let asked = 0; // the step asked for last (an answer for an earlier one is dropped)
  const mark = (step) => {
    for (const li of log.querySelectorAll("li")) li.classList.toggle("current", li.dataset.step === String(step));
  };
  async function show(step) {
    asked = step;
    if (busy()) return;
    let answer;
    try {
      answer = await load(step);
    } catch {
      return;
    }
    if (asked !== step || busy()) return;
    drawThen(answer.view);
    board.dataset.step = String(step);
    mark(step);
  }
  /** The board is being drawn as it is now: no line shows a step any more. */
  function shownNow() {
    delete board.dataset.step;
    mark(null);
  }
  function now() {
    asked = 0;
    if (board.dataset.showing !== "then") return;
    shownNow();
    drawNow();
  }
  const showing = (step) => board.dataset.showing === "then" && board.dataset.step === String(step);
  const line = (step) => ({
    "data-step": step, tabindex: "0",
    onmouseenter: () => show(step), onmouseleave: now, onfocus: () => show(step), onblur: now,
    onclick: () => (showing(step) ? now() : show(step)),
  });
  return { show, now, shownNow, line, follow: load.follow };
}
