// @ts-check
/// <reference types="node" />
// Choosing a Centrix play step by step (card → turn → pawn → target), in positions the engine
// made: every legal play can be chosen, each by exactly its own steps, and every step that
// does not lead to a legal play is refused with its reason.
import assert from "node:assert/strict";
import { test } from "node:test";
import { expandLegal } from "../../src/gamenight/web/static/js/centrix/model.js";
import {
  NOTHING, back, cancel, clickSquare, oneGesturePlays, pawnsOf, pickCard, pickPawn, pickRotation, pickTarget,
  playAlone, stage, targetsOf, turnsOf,
} from "../../src/gamenight/web/static/js/centrix/selection.js";
import { POSITIONS, fixture } from "./centrix-fixtures.js";

/** @typedef {import("../../src/gamenight/web/static/js/centrix/model.js").Play} Play */
/** @typedef {import("../../src/gamenight/web/static/js/centrix/selection.js").Selection} Selection */
/** @typedef {import("../../src/gamenight/web/static/js/centrix/selection.js").Step} Step */

/** @param {string} name */
const legalOf = (name) => expandLegal(fixture(name).legal);

/** A step that must go on (not refused, no play yet). @param {Step} step @returns {Selection} */
function on(step) {
  assert.equal(step.refused, undefined, `refused: ${step.refused}`);
  assert.equal(step.play, undefined);
  return step.selection;
}

/**
 * Choose ``play`` as a player does: its card, its turn (unless the card offers none to choose),
 * then its pawn and target, or the card (and turn) alone.
 * @param {Play[]} legal @param {Play} play @returns {{ made: Play | undefined, stages: string[] }}
 */
function choose(legal, play) {
  const stages = [];
  let sel = on(pickCard(legal, NOTHING, play.card));
  stages.push(stage(sel));
  if (stage(sel) === "turn") sel = on(pickRotation(legal, sel, play.rotation));
  else assert.equal(play.rotation, null, "a card that offers no turn turns no ring");
  stages.push(stage(sel));
  if (play.from === null) return { made: playAlone(legal, sel).play, stages };
  sel = on(pickPawn(legal, sel, play.from));
  stages.push(stage(sel));
  const step = pickTarget(legal, sel, /** @type {string} */ (play.to));
  assert.deepEqual(step.selection, NOTHING, "a play made starts the next afresh");
  return { made: step.play, stages };
}

for (const position of POSITIONS) {
  test(`every legal play is chosen by its own steps: ${position.name}`, () => {
    const legal = expandLegal(position.legal);
    for (const play of legal) assert.deepEqual(choose(legal, play).made, play, play.notation);
  });
}

test("card, then turn, then pawn, then target", () => {
  const legal = legalOf("spin-wild");
  const play = /** @type {Play} */ (legal.find((p) => p.card === "S" && p.rotation && p.from));
  assert.deepEqual(choose(legal, play).stages, ["turn", "pawn", "target"]);
  assert.equal(choose(legal, play).made?.notation, play.notation);
});

test("the turn can be skipped: no ring turned, where the card may also move without one", () => {
  const legal = legalOf("spin-wild");
  const sel = on(pickCard(legal, NOTHING, "S"));
  const { rotations, direct } = turnsOf(legal, "S");
  assert.ok(rotations.length > 1 && direct, "a spin wild turns any ring, or none");
  const skipped = on(pickRotation(legal, sel, null));
  assert.deepEqual(skipped, { card: "S", rotation: null, from: null });
  assert.ok(pawnsOf(legal, skipped).froms.length > 0);
  assert.ok(pawnsOf(legal, skipped).froms.every((from) => legal.some((p) => p.card === "S" && p.rotation === null && p.from === from)));
});

test("an any-colour wild turns no ring: its turn is chosen with it, and it may land on any colour", () => {
  const legal = legalOf("any-wild");
  const sel = on(pickCard(legal, NOTHING, "A"));
  assert.deepEqual(sel, { card: "A", rotation: null, from: null });
  assert.equal(stage(sel), "pawn");
  assert.deepEqual(turnsOf(legal, "A").rotations, []);
  const targets = new Set(legal.filter((p) => p.card === "A").map((p) => p.to));
  const coloured = new Set(legal.filter((p) => p.card !== "A" && p.card !== "S" && p.rotation === null).map((p) => p.to));
  for (const to of coloured) assert.ok(targets.has(to), `the wild reaches ${to} as a coloured card does`);
});

test("a spin wild's rings come sorted by ring, then by amount", () => {
  const { rotations } = turnsOf(legalOf("spin-wild"), "S");
  const keys = rotations.map((r) => [Number(r[0]), Number(r.slice(1))]);
  const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  assert.deepEqual(keys, sorted);
});

test("a ring turned with no move is a play of its own", () => {
  const legal = legalOf("turn-alone");
  const alone = /** @type {Play} */ (legal.find((p) => p.from === null));
  let sel = on(pickCard(legal, NOTHING, alone.card));
  sel = on(pickRotation(legal, sel, alone.rotation));
  assert.deepEqual(pawnsOf(legal, sel).alone, alone);
  const step = playAlone(legal, sel);
  assert.deepEqual(step.play, alone);
  assert.deepEqual(step.selection, NOTHING);
});

test("a turn of three plays: each chosen afresh from its own position, the same mover's", () => {
  const turn = POSITIONS.filter((p) => p.name.startsWith("three-"));
  assert.deepEqual(turn.map((p) => p.plays_left), [3, 2, 1]);
  for (const position of turn) {
    const legal = expandLegal(position.legal);
    const play = /** @type {Play} */ (legal.find((p) => p.notation === position.played));
    assert.ok(play, `${position.played} is legal in ${position.name}`);
    assert.equal(choose(legal, play).made?.notation, position.played);
  }
});

test("a pawn may enter from off the board, or one on it move", () => {
  const legal = legalOf("enter-or-move");
  const card = /** @type {Play} */ (legal.find((p) => p.from === "off")).card;
  let sel = on(pickCard(legal, NOTHING, card));
  if (stage(sel) === "turn") sel = on(pickRotation(legal, sel, /** @type {Play} */ (legal.find((p) => p.card === card && p.from === "off")).rotation));
  assert.ok(pawnsOf(legal, sel).froms.includes("off"));
  sel = on(pickPawn(legal, sel, "off"));
  const targets = targetsOf(legal, sel);
  assert.ok(targets.length > 0 && targets.every((p) => p.from === "off"));
});

test("Cancel starts again; Back undoes one step at a time", () => {
  const legal = legalOf("spin-wild");
  const play = /** @type {Play} */ (legal.find((p) => p.card === "S" && p.rotation && p.from));
  const card = on(pickCard(legal, NOTHING, "S"));
  const turned = on(pickRotation(legal, card, play.rotation));
  const pawn = on(pickPawn(legal, turned, /** @type {string} */ (play.from)));
  assert.deepEqual(back(legal, pawn), turned);
  assert.deepEqual(back(legal, turned), card);
  assert.deepEqual(back(legal, card), NOTHING);
  assert.deepEqual(back(legal, NOTHING), NOTHING);
  assert.deepEqual(pickCard(legal, pawn, null).selection, NOTHING);
  assert.deepEqual(cancel().selection, NOTHING);
  // Another card starts again from it.
  const other = /** @type {Play} */ (legal.find((p) => p.card !== "S")).card;
  assert.deepEqual(on(pickCard(legal, pawn, other)).from, null);
  // A wild chose its turn with the card: back from its pawn is back to no card.
  const wilds = legalOf("any-wild");
  assert.deepEqual(back(wilds, on(pickCard(wilds, NOTHING, "A"))), NOTHING);
});

test("a step that leads to no legal play is refused, with its reason, and changes nothing", () => {
  const legal = legalOf("spin-wild");
  const play = /** @type {Play} */ (legal.find((p) => p.card === "S" && p.rotation && p.from));
  const card = on(pickCard(legal, NOTHING, "S"));
  const turned = on(pickRotation(legal, card, play.rotation));
  const pawn = on(pickPawn(legal, turned, /** @type {string} */ (play.from)));
  const notTarget = ["top", "a1", "l6", "f3"].find((sq) => !targetsOf(legal, pawn).some((p) => p.to === sq));
  /** @type {[Step, string, Selection][]} */
  const cases = [
    [pickTarget(legal, pawn, /** @type {string} */ (notTarget)), "not_a_target", pawn],
    [pickTarget(legal, turned, /** @type {string} */ (play.to)), "no_pawn", turned],
    [pickTarget(legal, card, /** @type {string} */ (play.to)), "turn_first", card],
    [pickTarget(legal, NOTHING, /** @type {string} */ (play.to)), "no_card", NOTHING],
    [pickPawn(legal, card, /** @type {string} */ (play.from)), "turn_first", card],
    [pickPawn(legal, turned, "top"), "pawn_cannot_move", turned],
    [pickPawn(legal, NOTHING, /** @type {string} */ (play.from)), "no_card", NOTHING],
    [pickRotation(legal, NOTHING, play.rotation), "no_card", NOTHING],
    [pickRotation(legal, card, "1+0"), "rotation_not_offered", card],
    [pickCard(legal, NOTHING, "B3"), "card_not_playable", NOTHING],
    [pickCard([], NOTHING, "S"), "no_plays", NOTHING],
    [playAlone(legal, card), "turn_first", card],
    [playAlone(legal, NOTHING), "no_card", NOTHING],
  ];
  for (const [step, reason, before] of cases) {
    assert.equal(step.refused, reason);
    assert.equal(step.play, undefined);
    assert.deepEqual(step.selection, before);
  }
  const moving = on(pickRotation(legalOf("any-wild"), on(pickCard(legalOf("any-wild"), NOTHING, "A")), null));
  assert.equal(playAlone(legalOf("any-wild"), moving).refused, "not_alone", "a wild turns no ring: it must move");
});

test("with nothing chosen, a square only one play reaches is played in one click", () => {
  for (const position of POSITIONS) {
    const legal = expandLegal(position.legal);
    const one = oneGesturePlays(legal);
    for (const [square, play] of one) {
      assert.deepEqual(legal.filter((p) => p.to === square), [play], `only ${play.notation} reaches ${square}`);
      assert.equal(play.rotation, null, "a turn would move the squares under the click");
      assert.deepEqual(clickSquare(legal, NOTHING, square, false).play, play);
    }
    const many = legal.find((p) => p.to && !one.has(p.to));
    if (many?.to) assert.equal(clickSquare(legal, NOTHING, many.to, false).refused, "no_card");
  }
  assert.ok(POSITIONS.some((p) => oneGesturePlays(expandLegal(p.legal)).size > 0), "some position has one");
});

test("clicks on the board: a pawn, then its target; another of one's own pawns instead", () => {
  const legal = legalOf("to-top");
  const sel = on(pickCard(legal, NOTHING, "R3"));
  const turned = stage(sel) === "turn" ? on(pickRotation(legal, sel, null)) : sel;
  const froms = pawnsOf(legal, turned).froms.filter((f) => f !== "off");
  assert.ok(froms.length >= 2, "two pawns may move");
  const [first, second] = froms;
  const chosen = on(clickSquare(legal, turned, first, true));
  assert.equal(chosen.from, first);
  assert.equal(on(clickSquare(legal, chosen, second, true)).from, second, "one's own pawn replaces the one chosen");
  assert.equal(clickSquare(legal, chosen, "l6", false).refused, "not_a_target");
  const target = /** @type {string} */ (targetsOf(legal, chosen)[0].to);
  assert.equal(clickSquare(legal, chosen, target, false).play?.notation, targetsOf(legal, chosen)[0].notation);
  assert.equal(clickSquare(legal, sel.rotation === undefined ? sel : NOTHING, first, true).refused, sel.rotation === undefined ? "turn_first" : "no_card");
  assert.equal(clickSquare([], NOTHING, first, true).refused, "no_plays");
});
