// @ts-check
// The Centrix table as the server sends it, and the legal plays listed again from its compact
// form: pure data and functions (no page, no words), shared by the views and the unit tests.

/** @typedef {"red" | "orange" | "yellow" | "green" | "blue" | "white"} Colour */

/**
 * A seat as every view shows it (web/views/centrix.py, ``public``).
 * @typedef {object} PlayerView
 * @property {Colour} colour
 * @property {string} letter
 * @property {number} top       pawns on the top
 * @property {number} off       pawns off the board
 * @property {number} hand_size
 * @property {number | null} place
 * @property {number} levels
 */

/**
 * The legal plays, compact (web/views/centrix.py, ``grouped``): ``moves`` holds each pawn's
 * destinations once, as ``"from to to …"``; ``plays`` each card's and rotation's (``""``:
 * none) moves by number, ``*`` for the card (and rotation) played without a move.
 * @typedef {{ moves: string[], plays: Record<string, Record<string, string>> }} GroupedLegal
 */

/**
 * A line of the log, short: who played, the notation, each pawn moved as ``[seat, from, to]``
 * (the moving one first, then the bump chain).
 * @typedef {{ seat: number, notation: string, moves: Array<[number, string, string]> }} LogEntry
 */

/** @typedef {{ seat: number, from: string, to: string }} Moved */
/** @typedef {{ ring: number, amount: number }} Turn  a ring turned: +clockwise, -counter */

/**
 * A play told in full, as the page animates and marks it (the state's ``last``).
 * @typedef {object} LastPlay
 * @property {number} seat
 * @property {string} notation
 * @property {string} card
 * @property {Turn | null} rotation
 * @property {Moved[]} moves
 * @property {boolean} [undo]  the state came from an undo (nothing to animate or mark)
 */

/**
 * The board as the page draws it: each ring square's owner (-1: none) by square number, the
 * rings' offsets and each ring's squares' colours as letters from slot a.
 * @typedef {object} BoardData
 * @property {PlayerView[]} players
 * @property {number[]} cells
 * @property {number[]} offsets
 * @property {string[]} colours
 */

/**
 * A seat's view of the table (web/views/centrix.py, ``view``).
 * @typedef {BoardData & {
 *   game: "centrix", seat: number | null, to_move: number | null, plays_left: number,
 *   turn: number, status: string, outcome: object | null, hand: string[] | null,
 *   draw_size: number, discard: string[], discard_size: number,
 *   legal: GroupedLegal | null, log: LogEntry[],
 * }} CentrixView
 */

/**
 * A state message (web/outbound.py, ``StateOut``), with the Centrix view in it.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {string} table
 * @property {number} version
 * @property {number} revision
 * @property {number[]} seats     the seats this page holds
 * @property {number | null} active  the seat this page plays for now
 * @property {number | null} actor   the seat to move
 * @property {string[]} names
 * @property {string[]} kinds
 * @property {number[]} online    the seats whose players have the table open
 * @property {CentrixView} view
 * @property {LastPlay | null} last
 * @property {boolean} can_undo
 * @property {{ kind: string, left: number[], at: number, actor: number | null } | null} clock
 * @property {{ stand_ins: number[], resigned: number[], rematch: number[], next: string | null }} seating
 * @property {string | null} [accepted]
 */

/**
 * One legal play, listed again: its notation, its card, its rotation (``"3+2"``; null for
 * none) and its move (null for none; ``from`` may be ``off``, ``to`` may be ``top``).
 * @typedef {{ notation: string, card: string, rotation: string | null, from: string | null, to: string | null }} Play
 */

/** @type {Record<string, Colour>} */
export const CARD_COLOUR = { R: "red", O: "orange", Y: "yellow", G: "green", B: "blue", W: "white" };
export const SLOTS = "abcdefghijkl";

/**
 * A square's ring (0 off the board, 7 the top) and slot (null off and on the top).
 * @param {string} name
 * @returns {{ ring: number, slot: number | null }}
 */
export function parseSquare(name) {
  if (name === "top") return { ring: 7, slot: null };
  if (name === "off") return { ring: 0, slot: null };
  return { ring: Number(name.slice(1)), slot: SLOTS.indexOf(name[0]) };
}

/**
 * @param {string} rotation  as written in a play: ``"3+2"``, ``"1-5"``
 * @returns {Turn}
 */
export function parseRotation(rotation) {
  const ring = Number(rotation.split(/[+-]/)[0]);
  const amount = Number(rotation.slice(String(ring).length));
  return { ring, amount };
}

/** @param {Turn} turn  @returns {string} the rotation as a play writes it */
export function rotationText({ ring, amount }) {
  return `${ring}${amount >= 0 ? "+" : ""}${amount}`;
}

/** Rotations in the order the page offers them: by ring, then by amount.
 * @param {string} a @param {string} b */
export function byRing(a, b) {
  const x = parseRotation(a);
  const y = parseRotation(b);
  return x.ring - y.ring || x.amount - y.amount;
}

/**
 * A step is to a neighbouring square; anything farther is a leapfrog (drawn as an arc).
 * @param {string} from @param {string} to
 */
export function isLeap(from, to) {
  const a = parseSquare(from);
  const b = parseSquare(to);
  if (a.ring === 0) return b.ring > 1;
  if (b.ring === 7) return a.ring < 6;
  if (b.ring === 0) return false;
  if (a.ring === b.ring && a.slot !== null && b.slot !== null) {
    const d = Math.abs(a.slot - b.slot);
    return Math.min(d, 12 - d) > 1;
  }
  return Math.abs(a.ring - b.ring) > 1;
}

/**
 * The legal plays, listed again from the server's compact form (``GroupedLegal``).
 * @param {GroupedLegal | null | undefined} legal
 * @returns {Play[]}
 */
export function expandLegal(legal) {
  if (!legal) return [];
  const moves = legal.moves.map((m) => m.split(" "));
  /** @type {Play[]} */
  const out = [];
  for (const [card, rotations] of Object.entries(legal.plays)) {
    for (const [rotationWritten, numbers] of Object.entries(rotations)) {
      const rotation = rotationWritten || null;
      const head = [card, rotation].filter(Boolean).join(" ");
      for (const number of numbers.split(" ")) {
        if (number === "*") {
          out.push({ notation: head, card, rotation, from: null, to: null });
          continue;
        }
        const [from, ...tos] = moves[Number(number)];
        for (const to of tos) out.push({ notation: `${head} ${from}-${to}`, card, rotation, from, to });
      }
    }
  }
  return out;
}

/**
 * A log entry told in full, as ``last`` is: its card and ring turned read from the notation,
 * its moves as objects.
 * @param {LogEntry | LastPlay} entry
 * @returns {LastPlay}
 */
export function fullEntry(entry) {
  const [card, second] = entry.notation.split(" ");
  const rotation = second && /^[1-6][+-]\d+$/.test(second) ? parseRotation(second) : null;
  const moves = entry.moves.map((m) => (Array.isArray(m) ? { seat: m[0], from: m[1], to: m[2] } : m));
  return { ...entry, card, rotation, moves };
}

/**
 * The seats of this page that a bot stands in for (their cards are played for them).
 * @param {StateMessage} message
 */
export function stoodIn(message) {
  const standIns = message.seating?.stand_ins || [];
  return message.seats.filter((seat) => standIns.includes(seat));
}

/**
 * @template T
 * @param {T[]} values
 * @returns {T[]}
 */
export function unique(values) {
  return [...new Set(values)];
}

/**
 * What the views draw from: the state shown, the plays the viewer may make now (none unless
 * it is this page's turn and its hand is revealed), what is chosen so far, and whether a play
 * of this page's is on its way to the server (its hand then takes no new choice).
 * @typedef {object} Scene
 * @property {StateMessage} msg
 * @property {Play[]} legal
 * @property {import("./selection.js").Selection} sel
 * @property {boolean} myTurn
 * @property {boolean} inFlight
 * @property {number | null} me  the seat this page plays for now
 * @property {boolean} curtain   the hot-seat curtain hides the hand
 */

/**
 * What the views ask of the controller.
 * @typedef {object} Actions
 * @property {(card: string | null) => void} chooseCard      ``null``: cancel
 * @property {(rotation: string | null) => void} chooseRotation
 * @property {(from: string) => void} chooseFrom
 * @property {(to: string) => void} chooseTarget
 * @property {() => void} playAlone                          the card (and turn), no move
 */
