// @ts-check
// What this browser keeps per table: its seats' tokens, the invite links it made, the
// spectator link's token and the host's; and the settings a player chose.

const tokenKey = (/** @type {string} */ table) => `gamenight.tokens.${table}`;
const inviteKey = (/** @type {string} */ table) => `gamenight.invites.${table}`;
const watchKey = (/** @type {string} */ table) => `gamenight.watch.${table}`;
const hostKey = (/** @type {string} */ table) => `gamenight.host.${table}`;
const TABLE_KEYS = /^gamenight\.(tokens|invites|watch|host)\.(.+)$/;

/** An invite link made on this device: its token and the key that renews it (null: none).
 * @typedef {{token: string, renew: string | null}} Invite */

/** A setting remembered on this browser (null: none, or no storage to read: private mode).
 * @param {string} key
 * @returns {string | null} */
export function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remember a setting on this browser (``null`` forgets it); nothing, without storage.
 * @param {string} key
 * @param {string | null} value */
export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private mode: remembered for this page only
  }
}

/** The {seat: token} map stored under ``key``; empty when there is none (or it is unreadable).
 * @param {string} key
 * @returns {Record<string, any>} */
function storedTokens(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

/** @param {string} key @param {string | number} seat @param {unknown} token */
function storeToken(key, seat, token) {
  const all = storedTokens(key);
  all[seat] = token;
  localStorage.setItem(key, JSON.stringify(all));
}

/** The seats this device holds at ``table``: {seat number: token}.
 * @param {string} table
 * @returns {Record<string, string>} */
export function heldTokens(table) {
  return storedTokens(tokenKey(table));
}

/** @param {string} table @param {string | number} seat @param {string} token */
export function keepToken(table, seat, token) {
  storeToken(tokenKey(table), seat, token);
}

/** Invite links made on this device, so their maker can copy or renew them later:
 * {seat number: {token, renew}} (``renew`` is the key that makes a new link).
 * @param {string} table
 * @returns {Record<string, Invite>} */
export function invites(table) {
  const all = storedTokens(inviteKey(table));
  for (const [seat, invite] of Object.entries(all)) {
    if (typeof invite === "string") all[seat] = { token: invite, renew: null }; // kept before renewal keys
  }
  return all;
}

/** @param {string} table @param {string | number} seat @param {string} token @param {string | null} renew */
export function keepInvite(table, seat, token, renew) {
  storeToken(inviteKey(table), seat, { token, renew });
}

/** After the server's welcome the device keeps exactly the tokens it names, by seat: an
 * invite link just used is swapped for the device's own token, and tokens that opened
 * nothing (a link used elsewhere first, a seat given a new link) are dropped.
 * @param {string} table
 * @param {{tokens?: Record<string, string>}} welcome */
export function settleTokens(table, welcome) {
  localStorage.setItem(tokenKey(table), JSON.stringify(welcome.tokens || {}));
}

/** A seat this device held was given a new invite link: its token opens nothing now.
 * @param {string} table
 * @param {string | number} seat */
export function dropToken(table, seat) {
  const all = heldTokens(table);
  delete all[seat];
  localStorage.setItem(tokenKey(table), JSON.stringify(all));
}

/** The token of an unlisted table's spectator link, kept by its host and by whoever came
 * through the link (null: none).
 * @param {string} table */
export function watchToken(table) {
  return localStorage.getItem(watchKey(table));
}

/** @param {string} table @param {string | null | undefined} token */
export function keepWatch(table, token) {
  if (token) localStorage.setItem(watchKey(table), token);
}

/** ``path`` (one of the table's own API paths) with the keys an unlisted table asks for: the
 * spectator link's token and the seats' (any one of them that opens the table will do).
 * @param {string} table
 * @param {string} path */
export function keyed(table, path) {
  const keys = [watchToken(table), ...Object.values(heldTokens(table))].filter(Boolean);
  return keys.length ? `${path}?${keys.map((key) => `key=${encodeURIComponent(String(key))}`).join("&")}` : path;
}

/** Move a token from the URL fragment (an invite or spectator link) into storage, and clean
 * the URL. Returns the invite link's token when the link brought one this device did not
 * hold (the page checks what it opens), else null.
 * @param {string} table
 * @returns {string | null} */
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

/** Forget an invite link's token that opens nothing (wrong, used elsewhere, renewed).
 * @param {string} table
 * @param {string} token */
export function forgetToken(table, token) {
  const all = heldTokens(table);
  for (const [seat, held] of Object.entries(all)) if (held === token) delete all[seat];
  localStorage.setItem(tokenKey(table), JSON.stringify(all));
}

/** The host's token of a table made on this browser (it archives and deletes it).
 * @param {string} table
 * @param {string | null | undefined} token */
export function keepHost(table, token) {
  if (token) localStorage.setItem(hostKey(table), token);
}

/** Every table this browser holds something for: {table id: the keys to show for it} —
 * its seats' tokens, the spectator link's, the host's, and the renewal keys of the invites
 * it made (an invite's own link is for someone else).
 * @returns {Record<string, string[]>} */
export function heldTables() {
  /** @type {Record<string, string[]>} */
  const tables = {};
  for (let i = 0; i < localStorage.length; i++) {
    const match = (localStorage.key(i) || "").match(TABLE_KEYS);
    if (match) tables[match[2]] = [];
  }
  for (const table of Object.keys(tables)) {
    tables[table] = /** @type {string[]} */ ([
      localStorage.getItem(hostKey(table)),
      watchToken(table),
      ...Object.values(heldTokens(table)),
      ...Object.values(invites(table)).map((invite) => invite.renew),
    ].filter((key) => typeof key === "string" && key.length > 0 && key.length <= 200));
  }
  return tables;
}

/** Forget every key this browser holds for ``table`` (deleted, or opened by none of them).
 * @param {string} table */
export function forgetTable(table) {
  for (const key of [tokenKey(table), inviteKey(table), watchKey(table), hostKey(table)]) localStorage.removeItem(key);
}
