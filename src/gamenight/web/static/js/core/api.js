// @ts-check
// The server's JSON API: one call that says a refusal as an error with its code and params.
import { heldTokens } from "./tokens.js";

/** An error the API answered with: the server's words, its code and params.
 * @typedef {Error & {code?: string, params?: Record<string, any>}} ApiError */

/** ``path``'s answer, its JSON; a refusal throws an ApiError.
 * @param {string} path
 * @param {{method?: string, body?: unknown, headers?: Record<string, string>}} [options]
 * @returns {Promise<any>} */
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

/** What an invite link's ``token`` opens at ``table`` (web.seats.LinkState: open, yours,
 * taken, renewed, wrong) and the table's visibility, asked without using it.
 * @param {string} table
 * @param {string} token
 * @returns {Promise<{invite: string, visibility: string}>} */
export function checkInvite(table, token) {
  const keys = Object.values(heldTokens(table)).filter((held) => held !== token);
  return api(`/api/tables/${encodeURIComponent(table)}/check-invite`, { method: "POST", body: { token, keys } });
}
