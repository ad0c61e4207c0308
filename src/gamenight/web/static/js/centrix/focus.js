// @ts-check
// The keyboard's focus kept across redrawing: buttons are rebuilt on every change, and a
// keyboard player must not land back at the top of the page.

/**
 * Run ``draw``, which rebuilds buttons, and give the focus back to the button that stands
 * where the focused one stood (the same card, rotation, pawn or square); if it is gone, to
 * the first card that can be played.
 * @param {HTMLElement} root the table's element
 */
export function focusKeeper(root) {
  let lost = false; // the focus was on a button a drawing took away, and nothing took it then

  /** Still on the page, enabled and shown (a hidden or disabled button drops the focus).
   * @param {Element | null | undefined} node @returns {node is HTMLElement} */
  function canHoldFocus(node) {
    if (!node || !root.contains(node)) return false;
    const shown = /** @type {HTMLElement & { disabled?: boolean }} */ (node);
    return !shown.disabled && shown.offsetParent !== null;
  }

  /** @param {Element} node @returns {string | null} a selector for the button in its place */
  function focusSelector(node) {
    const data = /** @type {HTMLElement} */ (node).dataset || {};
    for (const name of ["card", "rotation", "from", "to", "tray", "decision"]) {
      const value = data[name];
      if (value !== undefined) return `[data-${name}="${CSS.escape(value)}"]`;
    }
    return node.id ? `#${CSS.escape(node.id)}` : null;
  }

  /** @param {() => void} draw */
  return function keepFocus(draw) {
    const active = document.activeElement;
    const inside = Boolean(active) && root.contains(active);
    // Focus lost by an earlier drawing (nothing to take it then, e.g. while a play was on
    // its way) is given back by the next one.
    const wanted = inside || (lost && (!active || active === document.body));
    const key = inside && active ? focusSelector(active) : null;
    draw();
    if (!wanted || (inside && canHoldFocus(active))) return;
    /** @type {(Element | null)[]} */
    const candidates = [
      key ? root.querySelector(`:is(button, a, input)${key}`) : null,
      root.querySelector(".play-card:not([disabled])"),
      root.querySelector("#choices button"),
    ];
    const again = candidates.find(canHoldFocus);
    again?.focus();
    lost = !again || document.activeElement !== again;
  };
}
