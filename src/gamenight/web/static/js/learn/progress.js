// @ts-check
// The lessons done on this device (issue 32): remembered in localStorage, per game, by key.

const KEY = "gamenight.lessons.done";

/** @returns {Record<string, string[]>} each game's lessons done, by key */
function all() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** Whether the lesson ``key`` of ``game`` was done on this device. */
export function isDone(/** @type {string} */ game, /** @type {string} */ key) {
  return (all()[game] || []).includes(key);
}

/** Note the lesson ``key`` of ``game`` as done. */
export function markDone(/** @type {string} */ game, /** @type {string} */ key) {
  const kept = all();
  const done = new Set(kept[game] || []);
  done.add(key);
  kept[game] = [...done];
  localStorage.setItem(KEY, JSON.stringify(kept));
}

/** The first lesson of ``keys`` not yet done (the first if all are). */
export function nextLesson(/** @type {string} */ game, /** @type {string[]} */ keys) {
  const index = keys.findIndex((key) => !isDone(game, key));
  return index < 0 ? 0 : index;
}
