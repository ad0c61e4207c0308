// @ts-check
// A change message's diff made on the state it follows: pure (Node's tests run it).

/** A change's diff: per key, ``["=", value]`` replaced, ``["+", items]`` appended,
 * ``["~", diff]`` one level down, ``["-"]`` removed.
 * @typedef {Record<string, any[]>} Diff */

/** ``old`` (a state message) with a ``change`` message's ``diff`` made, as
 * gamenight.web.protocol.patch does. A new object; ``old`` is untouched.
 * @template {Record<string, any>} T
 * @param {T} old
 * @param {Diff} diff
 * @returns {T} */
export function patch(old, diff) {
  /** @type {Record<string, any>} */
  const out = { ...old };
  for (const [key, [op, value]] of Object.entries(diff)) {
    if (op === "=") out[key] = value;
    else if (op === "+") out[key] = [...old[key], ...value];
    else if (op === "~") out[key] = patch(old[key], value);
    else delete out[key];
  }
  return /** @type {T} */ (out);
}
