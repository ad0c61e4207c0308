// @ts-check
// Choosing a play, one step at a time: a card, then a ring to turn (or none), then a pawn,
// then its target. Pure: each step takes the legal plays and the selection so far and gives
// the next selection, the play made (when the step completes one) or why it was refused.
import { byRing, unique } from "./model.js";

/** @typedef {import("./model.js").Play} Play */

/**
 * What is chosen so far. ``rotation`` is ``undefined`` until the turn is chosen and ``null``
 * for "no ring turned" (chosen, or the only choice, as for an any-colour wild); ``from`` is
 * the pawn's square, ``off`` for a pawn off the board.
 * @typedef {{ card: string | null, rotation: string | null | undefined, from: string | null }} Selection
 */

/**
 * Why a step was refused: ``no_plays`` (none to make now), ``card_not_playable``,
 * ``no_card`` (a card comes first), ``rotation_not_offered`` (not with this card),
 * ``turn_first`` (the ring to turn, or none, comes before the pawn), ``pawn_cannot_move``
 * (not with this card and turn), ``no_pawn`` (a pawn comes before its target),
 * ``not_a_target`` (the pawn cannot go there), ``not_alone`` (this card and turn move a pawn).
 * @typedef {"no_plays" | "card_not_playable" | "no_card" | "rotation_not_offered" | "turn_first"
 *   | "pawn_cannot_move" | "no_pawn" | "not_a_target" | "not_alone"} Refusal
 */

/**
 * A step's outcome: the selection after it, and the play it completes, or why it was refused
 * (the selection then is the one before the step).
 * @typedef {{ selection: Selection, play?: Play, refused?: Refusal }} Step
 */

/** @type {Selection} */
export const NOTHING = Object.freeze({ card: null, rotation: undefined, from: null });

/**
 * Where a selection stands: what it waits for next.
 * @param {Selection} sel
 * @returns {"card" | "turn" | "pawn" | "target"}
 */
export function stage(sel) {
  if (!sel.card) return "card";
  if (sel.rotation === undefined) return "turn";
  return sel.from === null ? "pawn" : "target";
}

/**
 * The legal plays with this card (and rotation, and pawn, each when given).
 * @param {Play[]} legal
 * @param {string | null} card
 * @param {string | null} [rotation]
 * @param {string | null} [from]
 */
export function playsFor(legal, card, rotation = undefined, from = undefined) {
  return legal.filter((p) => p.card === card
    && (rotation === undefined || p.rotation === rotation)
    && (from === undefined || p.from === from));
}

/**
 * The turns a card offers: the rings it may turn (sorted by ring) and whether it may also
 * be played with no ring turned (``direct``).
 * @param {Play[]} legal
 * @param {string} card
 */
export function turnsOf(legal, card) {
  const plays = playsFor(legal, card);
  const rotations = /** @type {string[]} */ (unique(plays.map((p) => p.rotation)).filter((r) => r !== null));
  return { rotations: rotations.sort(byRing), direct: plays.some((p) => p.rotation === null) };
}

/**
 * With the card and turn chosen: the pawns that may move (their squares, ``off`` among them)
 * and the play of the card (and turn) with no move, if it may be played so.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @returns {{ froms: string[], alone: Play | null }}
 */
export function pawnsOf(legal, sel) {
  if (!sel.card || sel.rotation === undefined) return { froms: [], alone: null };
  const plays = playsFor(legal, sel.card, sel.rotation);
  const froms = /** @type {string[]} */ (unique(plays.map((p) => p.from)).filter((f) => f !== null));
  return { froms, alone: plays.find((p) => p.from === null) ?? null };
}

/**
 * With a pawn chosen: the plays that take it to each of its targets.
 * @param {Play[]} legal
 * @param {Selection} sel
 */
export function targetsOf(legal, sel) {
  if (!sel.card || sel.rotation === undefined || sel.from === null) return [];
  return playsFor(legal, sel.card, sel.rotation, sel.from);
}

/**
 * The squares one gesture plays to, with nothing chosen yet: those exactly one legal play
 * reaches (one card, no ring turned: a turn would move the squares under the click).
 * @param {Play[]} legal
 * @returns {Map<string, Play>}
 */
export function oneGesturePlays(legal) {
  /** @type {Map<string, Play[]>} */
  const reaching = new Map();
  for (const p of legal) if (p.to) reaching.set(p.to, [...(reaching.get(p.to) || []), p]);
  return new Map([...reaching].filter(([, plays]) => plays.length === 1 && plays[0].rotation === null)
    .map(([to, [only]]) => [to, only]));
}

/**
 * Choose a card (another card starts again from it; ``null`` cancels). A card that turns no
 * ring (an any-colour wild) has its turn chosen with it: none.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @param {string | null} card
 * @returns {Step}
 */
export function pickCard(legal, sel, card) {
  if (card === null) return cancel();
  if (!legal.length) return { selection: sel, refused: "no_plays" };
  const { rotations, direct } = turnsOf(legal, card);
  if (!rotations.length && !direct) return { selection: sel, refused: "card_not_playable" };
  return { selection: { card, rotation: !rotations.length ? null : undefined, from: null } };
}

/**
 * Choose the ring to turn (``null``: none) for the card chosen; the pawn is chosen afresh.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @param {string | null} rotation
 * @returns {Step}
 */
export function pickRotation(legal, sel, rotation) {
  if (!sel.card) return { selection: sel, refused: "no_card" };
  if (!playsFor(legal, sel.card, rotation).length) return { selection: sel, refused: "rotation_not_offered" };
  return { selection: { card: sel.card, rotation, from: null } };
}

/**
 * Choose the pawn to move (its square, or ``off``).
 * @param {Play[]} legal
 * @param {Selection} sel
 * @param {string} from
 * @returns {Step}
 */
export function pickPawn(legal, sel, from) {
  if (!sel.card) return { selection: sel, refused: "no_card" };
  if (sel.rotation === undefined) return { selection: sel, refused: "turn_first" };
  if (!pawnsOf(legal, sel).froms.includes(from)) return { selection: sel, refused: "pawn_cannot_move" };
  return { selection: { ...sel, from } };
}

/** @type {Record<"card" | "turn" | "pawn", Refusal>} what a target waits for */
const BEFORE_TARGET = { card: "no_card", turn: "turn_first", pawn: "no_pawn" };

/**
 * Choose the chosen pawn's target: the play is made, and the selection starts again.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @param {string} to
 * @returns {Step}
 */
export function pickTarget(legal, sel, to) {
  const waiting = stage(sel);
  if (waiting !== "target") return { selection: sel, refused: BEFORE_TARGET[waiting] };
  const play = targetsOf(legal, sel).find((p) => p.to === to);
  if (!play) return { selection: sel, refused: "not_a_target" };
  return { selection: NOTHING, play };
}

/**
 * Play the card (and the turn chosen) with no pawn moved.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @returns {Step}
 */
export function playAlone(legal, sel) {
  if (!sel.card) return { selection: sel, refused: "no_card" };
  if (sel.rotation === undefined) return { selection: sel, refused: "turn_first" };
  const { alone } = pawnsOf(legal, sel);
  if (!alone) return { selection: sel, refused: "not_alone" };
  return { selection: NOTHING, play: alone };
}

/** Start again: nothing chosen. @returns {Step} */
export function cancel() {
  return { selection: NOTHING };
}

/**
 * One step back: the target's choice undone is the pawn's, the pawn's the turn's (or the
 * card's, when the card offered no turn), the turn's the card's.
 * @param {Play[]} legal
 * @param {Selection} sel
 * @returns {Selection}
 */
export function back(legal, sel) {
  const waiting = stage(sel);
  if (waiting === "target") return { ...sel, from: null };
  if (waiting === "pawn" && sel.card && turnsOf(legal, sel.card).rotations.length) {
    return { card: sel.card, rotation: undefined, from: null };
  }
  return NOTHING;
}

/**
 * A click on the board's square ``square`` (``onOwnPawn``: on a pawn of the player's there).
 * With nothing chosen, a square only one play reaches makes that play; with a pawn chosen,
 * one of its targets makes the play; otherwise a pawn that may move is chosen (another of
 * the player's own pawns in place of the one chosen).
 * @param {Play[]} legal
 * @param {Selection} sel
 * @param {string} square
 * @param {boolean} onOwnPawn
 * @returns {Step}
 */
export function clickSquare(legal, sel, square, onOwnPawn) {
  if (!legal.length) return { selection: sel, refused: "no_plays" };
  if (!sel.card) {
    const only = oneGesturePlays(legal).get(square);
    return only ? { selection: NOTHING, play: only } : { selection: sel, refused: "no_card" };
  }
  if (sel.rotation === undefined) return { selection: sel, refused: "turn_first" };
  if (sel.from !== null) {
    const step = pickTarget(legal, sel, square);
    if (step.play) return step;
  }
  const movable = pawnsOf(legal, sel).froms.includes(square);
  if (movable && (onOwnPawn || sel.from === null)) return pickPawn(legal, sel, square);
  return { selection: sel, refused: sel.from === null ? "pawn_cannot_move" : "not_a_target" };
}
