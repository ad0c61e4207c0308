// The Centrix table: the board, your hand, choosing a play by clicking, and the animations.
import { askWhyNot } from "./why-not.js"; // issue 32
import {
  boardThen, el, keepWordsLegible, mySeat, ordinal, renderTurnBanner, seatBadges, sound, svgElement, t,
} from "./common.js";

const PALETTE = {
  red: "#d7263d", orange: "#f7862a", yellow: "#f6d32d", green: "#2e9e4f", blue: "#2366c9", white: "#f4f1ea",
};
const INK = { red: "#fff", orange: "#1b1b1b", yellow: "#1b1b1b", green: "#fff", blue: "#fff", white: "#1b1b1b" };
const LETTER = { red: "R", orange: "O", yellow: "Y", green: "G", blue: "B", white: "W" };
const CARD_COLOUR = { R: "red", O: "orange", Y: "yellow", G: "green", B: "blue", W: "white" };
const SYMBOL = { red: "triangle", orange: "square", yellow: "star", green: "cross", blue: "circle", white: "diamond" };

// The board's geometry, as in gamenight/centrix/svg.py (a 1000-unit drawing).
const CX = 500;
const R_OUTER = 445;
const R_TOP = 80;
const RING_WIDTH = (R_OUTER - R_TOP) / 6;
const SLOTS = "abcdefghijkl";
const SVG_NS = "http://www.w3.org/2000/svg";

const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function parseSquare(name) {
  if (name === "top") return { ring: 7, slot: null };
  if (name === "off") return { ring: 0, slot: null };
  return { ring: Number(name.slice(1)), slot: SLOTS.indexOf(name[0]) };
}

function polar(radius, slot) {
  const a = (slot * 30 * Math.PI) / 180;
  return [CX + radius * Math.sin(a), CX - radius * Math.cos(a)];
}

/** Where a pawn stands on ``name``; ``off`` is just outside the board at ``slotHint``. */
function centre(name, slotHint = 0) {
  const { ring, slot } = parseSquare(name);
  if (ring === 7) return [CX, CX];
  if (ring === 0) return polar(R_OUTER + 55, slotHint);
  const inner = R_OUTER - ring * RING_WIDTH;
  return polar(inner + RING_WIDTH * 0.35, slot);
}

/** A step is to a neighbouring square; anything farther is a leapfrog (drawn as an arc). */
function isLeap(from, to) {
  const a = parseSquare(from);
  const b = parseSquare(to);
  if (a.ring === 0) return b.ring > 1;
  if (b.ring === 7) return a.ring < 6;
  if (b.ring === 0) return false;
  if (a.ring === b.ring) {
    const d = Math.abs(a.slot - b.slot);
    return Math.min(d, 12 - d) > 1;
  }
  return Math.abs(a.ring - b.ring) > 1;
}

/** A colour's symbol for a card's corner: the board's own drawing of it (``symbolMarkup``),
 * ten times over in a box of its own so that its points keep their precision. */
function symbolSvg(colour, size = 18) {
  const svg = svgElement(`<svg xmlns="${SVG_NS}" viewBox="-12 -12 24 24">${symbolMarkup(colour, 0, 0, 10, INK[colour], "")}</svg>`);
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("symbol-icon");
  return svg;
}

// ---------------------------------------------------------------- the board, drawn from data

// As gamenight/centrix/svg.py draws it (the Python drawing stays for Jupyter and the CLI):
// the same groups, classes and data attributes, so that the page finds squares and pawns alike.
const R_PLATE = R_OUTER + 10;
const RING_LABEL_AT = 0.55;
const DARK = "#1b1b1b";

function n(x) {
  const text = x.toFixed(1).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

function ringRadii(ringNo) {
  const inner = R_OUTER - ringNo * RING_WIDTH;
  return [inner, inner + RING_WIDTH];
}

function wedge(rIn, rOut, start, end) {
  const [x0, y0] = polarDeg(rOut, start);
  const [x1, y1] = polarDeg(rOut, end);
  const [x2, y2] = polarDeg(rIn, end);
  const [x3, y3] = polarDeg(rIn, start);
  return `M${n(x0)} ${n(y0)}A${n(rOut)} ${n(rOut)} 0 0 1 ${n(x1)} ${n(y1)}L${n(x2)} ${n(y2)}A${n(rIn)} ${n(rIn)} 0 0 0 ${n(x3)} ${n(y3)}Z`;
}

function polarDeg(radius, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [CX + radius * Math.sin(a), CX - radius * Math.cos(a)];
}

function squarePath(ringNo, slot, inset = 0) {
  const [rIn, rOut] = ringRadii(ringNo);
  const half = 15 - (inset / ((rIn + rOut) / 2)) * (180 / Math.PI);
  return wedge(rIn + inset, rOut - inset, slot * 30 - half, slot * 30 + half);
}

function squareName(sq) {
  return `${SLOTS[sq % 12]}${Math.floor(sq / 12) + 1}`;
}

function symbolMarkup(colour, x, y, size, fill, extra) {
  const shape = SYMBOL[colour];
  const attrs = `class="symbol" data-colour="${colour}" data-symbol="${shape}"${extra}`;
  if (shape === "circle") return `<circle ${attrs} cx="${n(x)}" cy="${n(y)}" r="${n(size * 0.82)}" fill="${fill}"/>`;
  if (shape === "square") {
    const a = size * 0.75;
    return `<rect ${attrs} x="${n(x - a)}" y="${n(y - a)}" width="${n(2 * a)}" height="${n(2 * a)}" fill="${fill}"/>`;
  }
  let points;
  if (shape === "triangle") points = [[0, -1.05], [0.95, 0.7], [-0.95, 0.7]];
  else if (shape === "diamond") points = [[0, -1.1], [0.8, 0], [0, 1.1], [-0.8, 0]];
  else if (shape === "star") {
    points = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 === 0 ? 1.1 : 0.46;
      const a = (i * 36 * Math.PI) / 180;
      points.push([r * Math.sin(a), -r * Math.cos(a) + 0.08]);
    }
  } else {
    const [u, e] = [0.32, 0.95];
    points = [[-u, -e], [u, -e], [u, -u], [e, -u], [e, u], [u, u], [u, e], [-u, e], [-u, u], [-e, u], [-e, -u], [-u, -u]];
  }
  return `<polygon ${attrs} points="${points.map(([px, py]) => `${n(x + px * size)},${n(y + py * size)}`).join(" ")}" fill="${fill}"/>`;
}

/** A pawn: a disc in its colour with a dark rim and, around it, a white one, so that it stands
 * out on a square of any colour (its own too), with its shadow, shine and letter. */
function pawnMarkup(colour, x, y, r, attrs) {
  const rim = Math.max(2, r * 0.18);
  return `<g ${attrs}>`
    + `<circle cx="${n(x + r * 0.12)}" cy="${n(y + r * 0.2)}" r="${n(r + 2)}" fill="#000" fill-opacity="0.35"/>`
    + `<circle class="pawn-outline" cx="${n(x)}" cy="${n(y)}" r="${n(r + rim / 2 + 1.6)}" fill="none" stroke="#fff" stroke-width="3.2"/>`
    + `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${PALETTE[colour]}" stroke="${DARK}" stroke-width="${n(rim)}"/>`
    + `<ellipse cx="${n(x - r * 0.3)}" cy="${n(y - r * 0.38)}" rx="${n(r * 0.38)}" ry="${n(r * 0.22)}" fill="#fff" fill-opacity="0.35"/>`
    + `<text x="${n(x)}" y="${n(y + r * 0.36)}" font-size="${n(r * 1.05)}" font-weight="bold" text-anchor="middle" fill="${INK[colour]}">${LETTER[colour]}</text>`
    + "</g>";
}

/** Where a pawn stands on ring square ``sq``: as svg.py's pawn_spot. */
function pawnSpot(sq) {
  const [rIn] = ringRadii(Math.floor(sq / 12) + 1);
  const [x, y] = polarDeg(rIn + RING_WIDTH * 0.35, (sq % 12) * 30);
  return [x, y, RING_WIDTH * 0.3];
}

function topSpots(count) {
  if (count === 0) return [];
  if (count === 1) return [[CX, CX, 22]];
  let r;
  let orbits;
  if (count <= 8) {
    r = count <= 5 ? 20 : 16;
    orbits = [[count, 46]];
  } else {
    r = 12;
    const inner = Math.min(6, Math.floor(count / 3));
    orbits = [[count - inner, 60], [inner, 26]];
  }
  const spots = [];
  for (const [k, radius] of orbits) {
    for (let i = 0; i < k; i++) spots.push([...polarDeg(radius, (i * 360) / k), r]);
  }
  return spots;
}

/** The board's SVG markup from a view's data: ``cells`` (each square's seat, -1 for none),
 * ``offsets``, ``colours`` (each ring's squares as colour letters) and ``players``. */
function boardMarkup(board) {
  const colourOfSeat = (seat) => board.players[seat].colour;
  const out = [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000" font-family="sans-serif" class="centrix-board" role="img">',
    '<rect width="1000" height="1000" rx="24" fill="#f7f4ec"/>',
    `<circle cx="500" cy="500" r="${n(R_PLATE)}" fill="#3a3631"/>`,
  ];
  for (let ringNo = 1; ringNo <= 6; ringNo++) {
    const [rIn, rOut] = ringRadii(ringNo);
    const letters = board.colours[ringNo - 1];
    out.push(`<g class="ring" data-ring="${ringNo}" data-offset="${board.offsets[ringNo - 1]}">`, '<g stroke="#222" stroke-width="2" stroke-linejoin="round">');
    for (let slot = 0; slot < 12; slot++) {
      const colour = CARD_COLOUR[letters[slot]];
      out.push(`<path class="square" data-square="${SLOTS[slot]}${ringNo}" data-ring="${ringNo}" data-slot="${slot}" data-colour="${colour}" fill="${PALETTE[colour]}" d="${squarePath(ringNo, slot)}"/>`);
    }
    out.push("</g>");
    if (ringNo < 6) out.push(`<circle cx="500" cy="500" r="${n(rIn + 3)}" fill="none" stroke="#000" stroke-opacity="0.22" stroke-width="6"/>`);
    for (let slot = 0; slot < 12; slot++) {
      const colour = CARD_COLOUR[letters[slot]];
      const [x, y] = polarDeg(rOut - RING_WIDTH * 0.2, slot * 30);
      const opacity = INK[colour] === DARK ? 0.55 : 0.85;
      out.push(symbolMarkup(colour, x, y, RING_WIDTH * 0.17, INK[colour], ` data-square="${SLOTS[slot]}${ringNo}" fill-opacity="${opacity}"`));
    }
    for (let slot = 0; slot < 12; slot++) {
      const sq = (ringNo - 1) * 12 + slot;
      const seat = board.cells[sq];
      if (seat < 0) continue;
      const colour = colourOfSeat(seat);
      const [x, y, r] = pawnSpot(sq);
      out.push(pawnMarkup(colour, x, y, r, `class="pawn" data-square="${squareName(sq)}" data-seat="${seat}" data-colour="${colour}"`));
    }
    out.push("</g>");
  }
  out.push('<g class="slot-labels" font-size="30" font-weight="bold" fill="#5b554c" font-family="sans-serif">');
  for (let slot = 0; slot < 12; slot++) {
    const [x, y] = polarDeg((R_PLATE + CX) / 2, slot * 30);
    out.push(`<text x="${n(x)}" y="${n(y)}" text-anchor="middle" dominant-baseline="central" data-slot="${slot}">${SLOTS[slot]}</text>`);
  }
  out.push("</g>", '<g class="ring-labels" font-size="15" font-weight="bold" text-anchor="middle">');
  for (let ringNo = 1; ringNo <= 6; ringNo++) {
    const [rIn] = ringRadii(ringNo);
    const [x, y] = polarDeg(rIn + RING_LABEL_AT * RING_WIDTH, -15);
    out.push(`<g data-ring="${ringNo}"><circle cx="${n(x)}" cy="${n(y)}" r="11" fill="${DARK}" fill-opacity="0.8" stroke="#fff" stroke-width="1.5"/>`
      + `<text x="${n(x)}" y="${n(y)}" dominant-baseline="central" fill="#fff">${ringNo}</text></g>`);
  }
  out.push("</g>");
  const onTop = board.players.flatMap((p, seat) => Array.from({ length: p.top }, () => seat));
  out.push(`<g class="top" data-square="top" data-pawns="${onTop.length}">`,
    '<circle cx="503" cy="505" r="80" fill="#000" fill-opacity="0.3"/>',
    '<circle cx="500" cy="500" r="79" fill="#141414" stroke="#000" stroke-width="3"/>',
    '<circle cx="500" cy="500" r="68" fill="none" stroke="#3b3b3b" stroke-width="2"/>');
  if (!onTop.length) {
    out.push('<text x="500" y="500" font-size="26" font-weight="bold" fill="#6d6d6d" text-anchor="middle" dominant-baseline="central" letter-spacing="3" data-label="board_top">TOP</text>');
  }
  topSpots(onTop.length).forEach(([x, y, r], i) => {
    const colour = colourOfSeat(onTop[i]);
    out.push(pawnMarkup(colour, x, y, r, `class="pawn" data-square="top" data-seat="${onTop[i]}" data-colour="${colour}"`));
  });
  out.push("</g>", "</svg>");
  return out.join("\n");
}

/** The board as an SVG element drawn from a view's data (the replay page's drawing of a step). */
export function boardSvg(view) {
  const svg = svgElement(boardMarkup(view));
  svg.setAttribute("aria-label", t("board_aria"));
  return svg;
}

/** The legal plays, listed again from the server's compact form (web/views/centrix.py,
 * ``grouped``): ``moves`` holds each pawn's destinations once, ``plays`` each card's and
 * rotation's moves by number, ``*`` for the card (and rotation) played without a move. */
function expandLegal(legal) {
  if (!legal) return [];
  const moves = legal.moves.map((m) => m.split(" "));
  const out = [];
  for (const [card, rotations] of Object.entries(legal.plays)) {
    for (const [rotationText, numbers] of Object.entries(rotations)) {
      const rotation = rotationText || null;
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

/** A log entry (``{seat, notation, moves: [[seat, from, to], …]}``) told in full, as
 * ``last`` is: its card and ring turned read from the notation, its moves as objects. */
export function fullEntry(entry) {
  const [card, second] = entry.notation.split(" ");
  const rotation = second && /^[1-6][+-]\d+$/.test(second) ? parseRotation(second) : null;
  const moves = entry.moves.map((m) => (Array.isArray(m) ? { seat: m[0], from: m[1], to: m[2] } : m));
  return { ...entry, card, rotation, moves };
}

const COUNT_WORDS = ["zero", "one", "two", "three", "four", "five", "six"];

/** A play as words (en or ko), from its log entry's effects: "Ann turned ring 3 two slots
 * clockwise, then leapfrogged from c3 to c5, bumped Bo from c5 to c4". */
export function playWords(short, nameOf, colourOf) {
  const entry = fullEntry(short);
  const square = (name) => (name === "top" ? t("top") : name === "off" ? t("off_board") : name);
  const parts = [];
  if (entry.rotation) {
    const { ring, amount } = entry.rotation;
    const count = Math.abs(amount);
    parts.push(t(count === 1 ? "log_turned_one" : "log_turned", {
      ring, n: count, count: t(`count_${COUNT_WORDS[count] ?? count}`), way: t(amount > 0 ? "clockwise" : "counter_clockwise"),
    }));
  }
  const [move, ...bumps] = entry.moves;
  if (move) {
    let key = isLeap(move.from, move.to) ? "log_leapfrogged" : "log_moved";
    if (move.from === "off") key = "log_entered";
    else if (move.to === "top") key = "log_reached_top";
    parts.push(t(key, { from: square(move.from), to: square(move.to) }));
  }
  if (!parts.length) parts.push(t("log_played", { card: cardLabel(entry.card) }));
  let text = t("log_sentence", { name: nameOf(entry.seat), what: parts.join(t("log_then")) });
  bumps.forEach((bump, i) => {
    const key = bump.to === "off" ? "knocked_off" : "bumped";
    text += t(i === 0 ? `log_${key}` : `log_${key}_chain`, {
      name: nameOf(bump.seat), colour: t(`colour_${colourOf(bump.seat)}`), from: square(bump.from), to: square(bump.to),
    });
  });
  return text + t("log_end");
}

export function cardLabel(card) {
  if (card === "A") return t("card_any");
  if (card === "S") return t("card_spin");
  return t("card_named", { colour: t(`colour_${CARD_COLOUR[card[0]]}`), n: card.slice(1) });
}

export function cardFace(card) {
  if (card === "A") {
    return [el("span", { class: "card-wheel", "aria-hidden": "true" }), el("span", { class: "card-word" }, t("card_any_short"))];
  }
  if (card === "S") {
    return [el("span", { class: "card-spin", "aria-hidden": "true" }, "↻"), el("span", { class: "card-word" }, t("card_spin_short"))];
  }
  const colour = CARD_COLOUR[card[0]];
  return [
    el("span", { class: "card-corner tl" }, symbolSvg(colour, 16)),
    el("span", { class: "card-number" }, card.slice(1)),
    el("span", { class: "card-corner br" }, symbolSvg(colour, 16)),
  ];
}

export function cardClass(card) {
  if (card === "A") return "card-any";
  if (card === "S") return "card-spin-wild";
  return `card-${CARD_COLOUR[card[0]]}`;
}

function parseRotation(rotation) {
  const ring = Number(rotation.split(/[+-]/)[0]);
  const amount = Number(rotation.slice(String(ring).length));
  return { ring, amount };
}

function rotationLabel(rotation) {
  const { ring, amount } = parseRotation(rotation);
  const arrow = amount > 0 ? "↻" : "↺";
  return t("ring_turn", { ring, arrow, n: Math.abs(amount) });
}

function rotationAria(rotation) {
  const { ring, amount } = parseRotation(rotation);
  const way = amount > 0 ? t("clockwise") : t("counter_clockwise");
  return t("ring_turn_aria", { ring, n: Math.abs(amount), way });
}

export function create(ctx) {
  const { root, send } = ctx;
  let msg = null; // the last state message shown
  let sel = { card: null, rotation: undefined, from: null };
  let shownSvg = null; // the SVG element on the board
  let previewing = null; // the rotation whose preview is (or is being) shown
  let previewMarkup = null;
  let previewAnimation = null;
  let actedWithPreview = null; // the rotation already on screen when we sent our play
  let revealed = null; // hot seat: the seat whose hand was last revealed on this device
  let inFlight = false; // a play of ours is on its way to the server
  let focusLost = false; // the keyboard focus was on a button a drawing took away

  const banner = el("div", { class: "turn-banner", id: "turn-banner", role: "status", "aria-live": "polite" });
  const board = el("div", { class: "board centrix-board-box", id: "board" });
  const trays = el("div", { class: "trays", id: "trays" });
  const hand = el("div", { class: "hand", id: "hand", role: "group" });
  const choices = el("div", { class: "choices", id: "choices", "aria-live": "polite" });
  const undo = el("button", { type: "button", class: "btn", id: "undo", hidden: true, onclick: () => {
    send({ type: "undo", seat: msg.active });
  } }, "");
  const curtain = el("div", { class: "curtain", id: "curtain", hidden: true });
  const players = el("ul", { class: "players", id: "players" });
  const log = el("ol", { class: "log", id: "log" });
  const handTitle = el("h3", { class: "hand-title", id: "hand-title" });
  const playersTitle = el("h3", {});
  // What the players' counters count, said once under them (a tooltip alone never shows on
  // a phone).
  const playersKey = el("p", { class: "players-key hint", id: "players-key" });
  const logTitle = el("h3", {});
  const pile = el("p", { class: "pile", id: "pile" });

  root.classList.add("centrix-table");
  const fitWords = keepWordsLegible(board);
  root.append(
    el("section", { class: "board-col" },
      banner,
      el("div", { class: "board-wrap" }, board),
      trays,
    ),
    el("aside", { class: "side" },
      el("div", { class: "card-box play-box" }, handTitle, hand, curtain, choices, el("div", { class: "play-actions" }, undo)),
      el("div", { class: "card-box" }, playersTitle, players, playersKey, pile),
      el("div", { class: "card-box" }, logTitle, log),
    ),
  );

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-square]");
    if (target) clickSquare(target.dataset.square, target);
  });
  // Escape steps out of a half-made play, as the Cancel link does.
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && sel.card && !document.querySelector(".overlay")) chooseCard(null);
  });

  /** Run ``draw``, which rebuilds buttons, and give the keyboard focus back to the button
   * that stands where the focused one stood (the same card, rotation, pawn or square);
   * if it is gone, to the first card that can be played, so keyboard players never land
   * back at the top of the page. */
  function keepFocus(draw) {
    const active = document.activeElement;
    const inside = Boolean(active) && root.contains(active);
    // Focus lost by an earlier drawing (nothing to take it then, e.g. while a play was on
    // its way) is given back by the next one.
    const wanted = inside || (focusLost && (!active || active === document.body));
    const key = inside ? focusSelector(active) : null;
    draw();
    if (!wanted || (inside && canHoldFocus(active))) return;
    const candidates = [
      key && root.querySelector(`:is(button, a, input)${key}`),
      root.querySelector(".play-card:not([disabled])"),
      root.querySelector("#choices button"),
    ];
    const again = candidates.find(canHoldFocus);
    again?.focus();
    focusLost = !again || document.activeElement !== again;
  }

  /** Still on the page, enabled and shown (a hidden or disabled button drops the focus). */
  function canHoldFocus(node) {
    return Boolean(node) && root.contains(node) && !node.disabled && node.offsetParent !== null;
  }

  function focusSelector(node) {
    for (const name of ["card", "rotation", "from", "to", "tray", "decision"]) {
      const value = node.dataset?.[name];
      if (value !== undefined) return `[data-${name}="${CSS.escape(value)}"]`;
    }
    return node.id ? `#${CSS.escape(node.id)}` : null;
  }

  // ---------------------------------------------------------------- helpers

  const myTurn = () => msg && msg.actor !== null && msg.actor === mySeat(msg) && !curtainShown();
  const curtainShown = () => !curtain.hidden;
  let legalPlays = []; // the legal plays of the state shown, listed again (expandLegal)
  const legal = () => (myTurn() ? legalPlays : []);
  const colourOf = (seat) => msg.view.players[seat].colour;
  const nameOf = (seat) => msg.names[seat];

  function playsFor(card, rotation = undefined, from = undefined) {
    return legal().filter((p) => p.card === card
      && (rotation === undefined || p.rotation === rotation)
      && (from === undefined || p.from === from));
  }

  function unique(values) {
    return [...new Set(values)];
  }

  function setBoard(markup, showing = "state") {
    if (showing !== "then") then.shownNow();
    board.dataset.showing = showing;
    const svg = svgElement(markup);
    svg.setAttribute("aria-label", t("board_aria"));
    const marks = document.createElementNS(SVG_NS, "g");
    marks.setAttribute("class", "last-move");
    const overlay = document.createElementNS(SVG_NS, "g");
    overlay.setAttribute("class", "ui-overlay");
    svg.append(marks, overlay);
    board.replaceChildren(svg);
    fitWords();
    shownSvg = svg;
    markLast(); // (on the board as it is only)
    return svg;
  }

  // ---------------------------------------------------------------- state

  /** Show a new state, animating the play that led to it (issue 16, contract A): every
   * duration times ``options.factor`` (0: none), jumping to the end when ``options.signal``
   * aborts. The board marks the play (data-animated: its number) while it is shown. */
  async function applyState(message, { factor = 1, signal = null } = {}) {
    const previous = msg;
    const last = message.last;
    const next = previous && message.version === previous.version + 1 && last && !last.undo;
    then.now(); // a play is shown on the board as it is now
    if (next && factor > 0 && !reduceMotion && shownSvg && !signal?.aborted) {
      board.dataset.animated = String(message.version);
      // The play being shown is the log's latest line and the board's mark from its start.
      renderLog(message);
      markLast(last, message.version);
      await animatePlay(last, previous, factor, signal);
      // A moment's rest on the play made, before the next is shown.
      await pause(350 * factor, signal);
    } else if (next) {
      board.dataset.animated = String(message.version);
    }
    if (next) soundsOf(last, factor > 0 && !signal?.aborted);
    legalPlays = expandLegal(message.view.legal);
    actedWithPreview = null;
    previewing = null;
    previewMarkup = null;
    inFlight = false;
    msg = message;
    then.follow(message);
    if (!previous || previous.version !== message.version || previous.actor !== message.actor) {
      sel = { card: null, rotation: undefined, from: null };
    }
    hotSeat();
    render();
  }

  function hotSeat() {
    // Several human seats on one device: hide the next hand until its owner is at the screen.
    const seats = msg.seats;
    if (seats.length > 1 && msg.actor !== null && seats.includes(msg.actor) && msg.actor !== revealed) {
      curtain.hidden = false;
      curtain.replaceChildren(
        el("p", {}, t("pass_device", { name: nameOf(msg.actor) })),
        el("button", { type: "button", class: "btn btn-primary", id: "reveal", onclick: () => {
          revealed = msg.actor;
          curtain.hidden = true;
          render();
        } }, t("reveal_hand", { name: nameOf(msg.actor) })),
      );
    } else if (seats.length <= 1 || msg.actor === revealed) {
      curtain.hidden = true;
    }
  }

  function render() {
    if (msg) keepFocus(renderAll);
  }

  function renderAll() {
    const v = msg.view;
    if (!previewing) setBoard(boardMarkup(v));
    renderBanner();
    renderHand();
    renderChoices();
    renderTrays();
    renderPlayers();
    renderLog();
    highlight();
    undo.hidden = !(msg.can_undo && myTurn());
    undo.textContent = `↶ ${t("undo")}`;
    // A seat of this device that a bot plays for is still this device's: its cards are not
    // watched, they are played for it.
    const standIn = msg.seats.some((seat) => (msg.seating?.stand_ins || []).includes(seat));
    handTitle.textContent = mySeat(msg) !== null ? t("your_cards") : standIn ? t("your_cards_stood_in") : t("spectating");
    playersTitle.textContent = t("players");
    playersKey.replaceChildren(
      el("span", {}, el("span", { class: "mini-card", "aria-hidden": "true" }), ` ${t("cards_in_hand")}`),
      el("span", {}, `▲ ${t("pawns_on_top")}`),
      el("span", {}, `○ ${t("pawns_off")}`),
    );
    logTitle.textContent = t("log");
    pile.textContent = t("draw_pile", { n: v.draw_size, d: v.discard_size });
  }

  function renderBanner() {
    const v = msg.view;
    renderTurnBanner(banner, msg, myTurn(), () => ({
      role: colourOf(msg.actor),
      detail: t(v.plays_left === 1 ? "one_play_left" : "plays_left", { n: v.plays_left }),
    }));
  }

  function renderHand() {
    const v = msg.view;
    hand.setAttribute("aria-label", t("your_cards"));
    // A device holding several seats shows no hand while someone else plays.
    const othersTurn = msg.seats.length > 1 && !msg.seats.includes(msg.actor);
    // Nor any hand once the game is over: nothing in it can be played.
    if (v.hand === null || curtainShown() || othersTurn || v.outcome) {
      hand.replaceChildren();
      return;
    }
    if (!v.hand.length) {
      hand.replaceChildren(el("p", { class: "hint" }, t("no_cards")));
      return;
    }
    hand.replaceChildren(...v.hand.map((card, i) => {
      const playable = playsFor(card).length > 0;
      return el("button", {
        type: "button", class: `play-card ${cardClass(card)}`, "data-card": card, "data-index": i,
        "aria-pressed": String(sel.card === card), "aria-label": cardLabel(card),
        disabled: !playable || inFlight, onclick: () => chooseCard(card),
      }, cardFace(card));
    }));
  }

  function renderChoices() {
    choices.replaceChildren();
    if (!myTurn()) {
      if (mySeat(msg) !== null && !msg.view.outcome && !curtainShown()) {
        choices.append(el("p", { class: "hint" }, t("wait_for", { name: nameOf(msg.actor) })));
      }
      return;
    }
    if (!sel.card) {
      choices.append(el("p", { class: "hint" }, t("choose_card")));
      return;
    }
    const plays = playsFor(sel.card);
    const rotations = unique(plays.map((p) => p.rotation).filter((r) => r !== null));
    const direct = plays.some((p) => p.rotation === null);
    if (rotations.length) {
      const group = el("div", { class: "choice-group", role: "group", "aria-label": t("rotation") },
        el("span", { class: "choice-label" }, t("rotation")));
      if (direct) {
        group.append(el("button", {
          type: "button", class: "btn chip", "data-rotation": "none", "aria-pressed": String(sel.rotation === null),
          onclick: () => chooseRotation(null),
        }, t("no_rotation")));
      }
      for (const r of rotations.sort(byRing)) {
        group.append(el("button", {
          type: "button", class: "btn chip", "data-rotation": r, "aria-pressed": String(sel.rotation === r),
          "aria-label": rotationAria(r), onclick: () => chooseRotation(r),
        }, rotationLabel(r)));
      }
      choices.append(group);
    }
    if (sel.rotation === undefined) return;
    const afterRotation = playsFor(sel.card, sel.rotation);
    const froms = unique(afterRotation.map((p) => p.from).filter((f) => f !== null));
    const group = el("div", { class: "choice-group", role: "group", "aria-label": t("move_which") },
      el("span", { class: "choice-label" }, t("move_which")));
    for (const f of froms) {
      group.append(el("button", {
        type: "button", class: "btn chip", "data-from": f, "aria-pressed": String(sel.from === f),
        onclick: () => chooseFrom(f),
      }, f === "off" ? t("off_board") : f));
    }
    if (afterRotation.some((p) => p.from === null)) {
      group.append(el("button", {
        type: "button", class: "btn chip btn-accent", id: "rotation-only", onclick: () => play(afterRotation.find((p) => p.from === null)),
      }, t("rotation_only")));
    }
    choices.append(group);
    if (sel.from !== null) {
      const tos = afterRotation.filter((p) => p.from === sel.from);
      choices.append(el("div", { class: "choice-group", role: "group", "aria-label": t("move_where") },
        el("span", { class: "choice-label" }, t("move_where")),
        tos.map((p) => el("button", { type: "button", class: "btn chip", "data-to": p.to, onclick: () => play(p) }, p.to === "top" ? t("top") : p.to)),
      ));
    }
    choices.append(el("button", { type: "button", class: "linkish", id: "cancel-play", onclick: () => chooseCard(null) }, t("cancel")));
  }

  function byRing(a, b) {
    const x = parseRotation(a);
    const y = parseRotation(b);
    return x.ring - y.ring || x.amount - y.amount;
  }

  function renderTrays() {
    const v = msg.view;
    trays.replaceChildren(el("span", { class: "tray-title" }, t("off_board")), ...v.players.map((p, seat) => {
      const movable = myTurn() && seat === mySeat(msg) && sel.rotation !== undefined
        && playsFor(sel.card, sel.rotation, "off").length > 0;
      const pawns = Array.from({ length: p.off }, () => el("span", { class: `pawn-chip dot-${p.colour}` }, p.letter));
      const label = t("tray_of", { name: nameOf(seat), n: p.off });
      if (movable) {
        return el("button", {
          type: "button", class: `tray tray-${p.colour} movable`, "data-tray": seat, "aria-pressed": String(sel.from === "off"),
          "aria-label": label, onclick: () => chooseFrom("off"),
        }, pawns.length ? pawns : "—");
      }
      return el("span", { class: `tray tray-${p.colour}`, "data-tray": seat, "aria-label": label, role: "img" }, pawns.length ? pawns : "—");
    }));
  }

  function renderPlayers() {
    const v = msg.view;
    players.replaceChildren(...v.players.map((p, seat) => el("li", {
      class: `player${seat === msg.actor && !v.outcome ? " active" : ""}${msg.seats.includes(seat) ? " mine" : ""}`, "data-seat": seat,
    },
    el("span", { class: `pawn-chip big dot-${p.colour}`, "aria-hidden": "true" }, p.letter),
    el("span", { class: "player-name" },
      el("strong", {}, nameOf(seat)),
      seatBadges(msg, seat),
    ),
    el("span", { class: "player-stats" },
      p.place ? el("span", { class: "place-badge" }, t("place_n", { place: ordinal(p.place) })) : [
        el("span", { class: "stat-cards", title: t("cards_in_hand") }, el("span", { class: "mini-card", "aria-hidden": "true" }), String(p.hand_size)),
        el("span", { class: "stat-top", title: t("pawns_on_top") }, `▲ ${p.top}`),
        el("span", { class: "stat-off", title: t("pawns_off") }, `○ ${p.off}`),
      ],
    ),
    el("span", { class: "sr-only" }, t("player_summary", { cards: p.hand_size, top: p.top, off: p.off })),
    )));
  }

  function renderLog(message = msg) {
    const entries = message.view.log;
    log.replaceChildren(...entries.map((entry, i) => el("li", {
      ...then.line(i + 1), title: entry.notation,
    },
    el("span", { class: `seat-dot dot-${colourOf(entry.seat)}`, "aria-hidden": "true" }),
    el("span", { class: "log-words" }, playWords(entry, nameOf, colourOf)),
    el("span", { class: "sr-only" }, ` (${entry.notation})`),
    )));
    log.scrollTop = log.scrollHeight;
  }

  // Hovering or tapping a line of the log shows the board as it was after that play.
  const then = boardThen({
    board, log, tableId: () => msg.table,
    busy: () => Boolean(previewing || sel.card), // the board shows a play being chosen
    drawThen: (view) => setBoard(boardMarkup(view), "then"),
    drawNow: () => {
      setBoard(boardMarkup(msg.view));
      highlight();
    },
  });


  // ---------------------------------------------------------------- choosing a play

  function chooseCard(card) {
    if (previewing) {
      previewing = null;
      previewAnimation = null;
      setBoard(boardMarkup(msg.view));
    }
    sel = { card, rotation: undefined, from: null };
    if (card) {
      const plays = playsFor(card);
      const rotations = unique(plays.map((p) => p.rotation));
      if (rotations.length === 1 && rotations[0] === null) sel.rotation = null;
    }
    keepFocus(() => {
      renderHand();
      renderChoices();
      renderTrays();
      highlight();
    });
  }

  function chooseRotation(rotation) {
    if (previewing !== rotation) {
      setBoard(boardMarkup(msg.view));
      previewing = null;
      previewMarkup = null;
      if (rotation !== null) {
        previewing = rotation;
        send({ type: "preview", rotation });
        const { ring, amount } = parseRotation(rotation);
        previewAnimation = turnRing(ring, amount).then(() => showPreview(rotation));
      }
    }
    sel = { card: sel.card, rotation, from: null };
    keepFocus(() => {
      renderChoices();
      renderTrays();
      highlight();
    });
  }

  function showPreview(rotation) {
    if (previewing === rotation && previewMarkup) {
      setBoard(previewMarkup, "preview");
      highlight();
    }
  }

  function onMessage(message) {
    if (message.type === "preview" && message.rotation === previewing) {
      previewMarkup = boardMarkup({ ...msg.view, ...message });
      // Swap in the turned board once the ring has finished turning on screen.
      if (previewAnimation) previewAnimation.then(() => showPreview(message.rotation));
    }
  }

  function chooseFrom(from) {
    sel.from = from;
    keepFocus(() => {
      renderChoices();
      renderTrays();
    });
    highlight();
  }

  function play(p) {
    if (!send({ type: "act", seat: mySeat(msg), action: p.notation })) return;
    actedWithPreview = p.rotation;
    // Until the server answers, the hand on screen is the one before this play: it takes
    // no new choice (a choice made now would be lost when the answer lands).
    inFlight = true;
    sel = { card: null, rotation: undefined, from: null };
    keepFocus(() => {
      renderHand();
      renderTrays();
      highlight();
      choices.replaceChildren(el("p", { class: "hint" }, "…"));
    });
  }

  function onError() {
    if (!inFlight) return;
    inFlight = false;
    render();
  }

  /** The squares one gesture plays to, with nothing chosen yet: those exactly one legal play
   * reaches (one card, no ring turned: a turn would move the squares under the click). */
  function oneGesturePlays() {
    const reaching = new Map();
    for (const p of legal()) if (p.to) reaching.set(p.to, [...(reaching.get(p.to) || []), p]);
    return new Map([...reaching].filter(([, plays]) => plays.length === 1 && plays[0].rotation === null)
      .map(([to, [only]]) => [to, only]));
  }

  function clickSquare(name, node) {
    if (!myTurn() || inFlight) return;
    if (!sel.card) {
      const only = oneGesturePlays().get(name);
      if (only) play(only);
      return;
    }
    if (sel.rotation === undefined) return;
    const plays = playsFor(sel.card, sel.rotation);
    const isMyPawn = node.closest(".pawn") && Number(node.closest(".pawn").dataset.seat) === mySeat(msg);
    if (sel.from !== null) {
      const target = plays.find((p) => p.from === sel.from && p.to === name);
      if (target) {
        play(target);
        return;
      }
    }
    if ((isMyPawn || sel.from === null) && plays.some((p) => p.from === name)) chooseFrom(name);
    // "Why not?" (issue 32, why-not.js): a square the chosen pawn may not go to is asked of the server.
    else if (sel.from !== null && name !== sel.from) askWhyNot(send, mySeat(msg), { card: sel.card, rotation: sel.rotation, from: sel.from, to: name });
  }

  /** Mark the movable pawns, or the chosen pawn and its destinations, on the board. */
  function highlight() {
    if (!shownSvg) return;
    const overlay = shownSvg.querySelector(".ui-overlay");
    overlay.replaceChildren();
    for (const node of shownSvg.querySelectorAll(".pawn-hit")) node.remove();
    for (const node of shownSvg.querySelectorAll(".movable, .target, .chosen, .one-gesture")) {
      node.classList.remove("movable", "target", "chosen", "one-gesture");
    }
    delete board.dataset.oneGesture;
    if (myTurn() && !sel.card && !inFlight) {
      // Nothing chosen: a click on a square only one play reaches makes that play.
      const squares = [...oneGesturePlays().keys()];
      for (const name of squares) {
        shownSvg.querySelector(name === "top" ? "g.top" : `path.square[data-square="${name}"]`)?.classList.add("one-gesture");
      }
      board.dataset.oneGesture = squares.join(" ");
    }
    if (!myTurn() || !sel.card || sel.rotation === undefined) return;
    if (previewing && !previewMarkup) return; // the board is still turning
    const plays = playsFor(sel.card, sel.rotation);
    if (sel.from === null) {
      for (const from of unique(plays.map((p) => p.from).filter((f) => f && f !== "off"))) {
        const pawn = shownSvg.querySelector(`.pawn[data-square="${from}"][data-seat="${mySeat(msg)}"]`)
          || shownSvg.querySelector(`.pawn[data-square="${from}"]`);
        pawn?.classList.add("movable");
        if (pawn && !pawn.querySelector(".pawn-hit")) {
          // A pawn to pick is as easy to touch as a button: 44 CSS px across at least.
          const [x, y] = centre(from);
          const hit = document.createElementNS(SVG_NS, "circle");
          hit.setAttribute("class", "pawn-hit");
          hit.setAttribute("cx", x);
          hit.setAttribute("cy", y);
          hit.setAttribute("r", Math.max(25, 22 * unitsPerPixel()));
          pawn.prepend(hit);
        }
        ring(overlay, from, "ring-movable");
      }
      return;
    }
    if (sel.from !== "off") {
      shownSvg.querySelector(`.pawn[data-square="${sel.from}"]`)?.classList.add("chosen");
      ring(overlay, sel.from, "ring-chosen");
    }
    for (const p of plays.filter((x) => x.from === sel.from)) {
      const node = shownSvg.querySelector(p.to === "top" ? "g.top" : `path.square[data-square="${p.to}"]`);
      node?.classList.add("target");
      const [x, y] = centre(p.to);
      // The dot is drawn small, on a disc that takes the touch: at least 44 CSS px across.
      const hit = document.createElementNS(SVG_NS, "circle");
      hit.setAttribute("class", "target-dot");
      hit.setAttribute("cx", x);
      hit.setAttribute("cy", y);
      hit.setAttribute("r", Math.max(p.to === "top" ? 30 : 14, 22 * unitsPerPixel()));
      hit.dataset.square = p.to;
      const dot = document.createElementNS(SVG_NS, "circle");
      dot.setAttribute("class", "target-mark");
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
      dot.setAttribute("r", p.to === "top" ? 30 : 14);
      overlay.append(hit, dot);
    }
  }

  function ring(overlay, square, cls) {
    const [x, y] = centre(square);
    const c = document.createElementNS(SVG_NS, "circle");
    c.setAttribute("class", cls);
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", 25);
    overlay.append(c);
  }

  /** The drawing's units in one CSS pixel on screen (the board is drawn 1000 units across). */
  function unitsPerPixel() {
    const scale = shownSvg?.getScreenCTM()?.a;
    return scale ? 1 / scale : 1;
  }

  // ---------------------------------------------------------------- animation

  /** Run ``animation`` to its end, or jump there when ``signal`` aborts. */
  function settle(animation, signal) {
    const finish = () => animation.finish();
    signal?.addEventListener("abort", finish, { once: true });
    return animation.finished.catch(() => {}).finally(() => signal?.removeEventListener("abort", finish));
  }

  function pause(ms, signal) {
    if (!ms || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  function turnRing(ringNo, amount, factor = 1, signal = null) {
    const group = shownSvg?.querySelector(`g.ring[data-ring="${ringNo}"]`);
    if (!group || reduceMotion || factor <= 0) return Promise.resolve();
    group.style.transformBox = "view-box";
    group.style.transformOrigin = "500px 500px";
    const animation = group.animate(
      [{ transform: "rotate(0deg)" }, { transform: `rotate(${amount * 30}deg)` }],
      { duration: (200 + 90 * Math.abs(amount)) * factor, easing: "ease-in-out", fill: "forwards" },
    );
    return settle(animation, signal);
  }

  /** The sounds of a play (contract B), when it was not shown: a bump, a pawn on the top. */
  function soundsOf(last, played) {
    if (played) return; // (the animation asked for them as they happened)
    if (last.moves.length > 1) sound("bump");
    if (last.moves.some((m) => m.to === "top")) sound("top");
  }

  async function animatePlay(last, previous, factor, signal) {
    const rotation = last.rotation;
    const turned = rotation && actedWithPreview !== `${rotation.ring}${rotation.amount >= 0 ? "+" : ""}${rotation.amount}`;
    if (rotation && turned && !previewing) await turnRing(rotation.ring, rotation.amount, factor, signal);
    const overlay = shownSvg.querySelector(".ui-overlay");
    overlay.replaceChildren();
    for (const [i, move] of last.moves.entries()) {
      // Where the pawn's drawing is now: on a ring turned by this play but not redrawn yet,
      // it is still filed under the square it stood on before the turn.
      let drawnAt = move.from;
      if (rotation && turned && !previewing && move.from !== "off" && move.from !== "top"
        && parseSquare(move.from).ring === rotation.ring) {
        const { slot } = parseSquare(move.from);
        drawnAt = `${SLOTS[(((slot - rotation.amount) % 12) + 12) % 12]}${rotation.ring}`;
      }
      const original = move.from === "off" ? null : shownSvg.querySelector(`.pawn[data-square="${drawnAt}"]`);
      if (original) original.style.opacity = "0";
      const colour = previous.view.players[move.seat].colour;
      const hint = move.to !== "off" && move.to !== "top" ? parseSquare(move.to).slot : parseSquare(move.from).slot ?? 0;
      const [x0, y0] = centre(move.from, hint);
      const [x1, y1] = centre(move.to, hint);
      const token = pawnToken(colour);
      token.dataset.move = String(i);
      overlay.append(token);
      const leap = i === 0 && isLeap(move.from, move.to);
      // A bumped pawn falls: it shrinks a little as it drops to the square below.
      if (i > 0) sound("bump");
      const frames = leap
        ? [
          { transform: `translate(${x0}px, ${y0}px) scale(1)` },
          { transform: `translate(${(x0 + x1) / 2}px, ${(y0 + y1) / 2 - 40}px) scale(1.45)` },
          { transform: `translate(${x1}px, ${y1}px) scale(1)` },
        ]
        : i > 0
          ? [
            { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: 1 },
            { transform: `translate(${(x0 + x1) / 2}px, ${(y0 + y1) / 2}px) scale(0.8)`, opacity: 1 },
            { transform: `translate(${x1}px, ${y1}px) scale(${move.to === "off" ? 0.5 : 0.95})`, opacity: move.to === "off" ? 0 : 1 },
          ]
          : [
            { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: move.from === "off" ? 0 : 1 },
            { transform: `translate(${x1}px, ${y1}px) scale(1)`, opacity: 1 },
          ];
      const animation = token.animate(frames, {
        duration: (leap ? 650 : i > 0 ? 520 : 420) * factor, easing: i > 0 ? "cubic-bezier(.5,0,.9,.6)" : "ease-in-out", fill: "forwards",
      });
      await settle(animation, signal);
      if (move.to === "top") sound("top");
    }
  }

  /** Mark the last play (``last``, the state's unless told) on the board until the next one
   * (as lichess does): where its pawn came from and went, the ring it turned, the pawns it
   * bumped. The board's data-marked-play is the notation of the play marked: always the
   * log's latest line while the board shows the state. */
  function markLast(last = msg?.last, version = msg?.version) {
    const layer = shownSvg?.querySelector(".last-move");
    if (!layer) return;
    layer.replaceChildren();
    delete board.dataset.markedPlay;
    if (!last || last.undo || !last.moves || board.dataset.showing !== "state") return;
    board.dataset.markedPlay = last.notation;
    const parts = [];
    if (last.rotation) {
      // The turned ring's two edges, dashed in white over dark.
      const edges = ringRadii(last.rotation.ring).map((r) => `<circle cx="500" cy="500" r="${n(r)}" stroke="${DARK}" stroke-width="7"/>`
        + `<circle cx="500" cy="500" r="${n(r)}" stroke="#fff" stroke-width="3.5" stroke-dasharray="14 8"/>`);
      parts.push(`<g class="mark-ring" data-ring="${last.rotation.ring}" fill="none">${edges.join("")}</g>`);
    }
    last.moves.forEach((move, i) => {
      const cls = i === 0 ? "mark-move" : "mark-bumped";
      for (const [end, square] of i === 0 ? [["from", move.from], ["to", move.to]] : [["to", move.to]]) {
        if (square === "off") continue;
        const shape = square === "top"
          ? `<circle cx="500" cy="500" r="${R_TOP - 4}"`
          : `<path d="${squarePath(parseSquare(square).ring, parseSquare(square).slot, 4)}"`;
        const colour = i === 0 ? (end === "from" ? "#ffe066" : "#fff3a3") : "#ff6b6b";
        parts.push(`<g class="${cls} mark-${end}" data-square="${square}" fill="none" stroke-linejoin="round">`
          + `${shape} stroke="${DARK}" stroke-width="9"/>${shape} stroke="${colour}" stroke-width="5"/></g>`);
      }
    });
    layer.innerHTML = parts.join("");
    board.dataset.marked = String(version);
  }

  function pawnToken(colour) {
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "anim-pawn");
    g.innerHTML = `<circle cx="2" cy="4" r="18" fill="#000" fill-opacity="0.35"/>`
      + `<circle r="18" fill="${PALETTE[colour]}" stroke="#1b1b1b" stroke-width="3.3"/>`
      + `<text y="6.5" font-size="19" font-weight="bold" text-anchor="middle" fill="${INK[colour]}">${LETTER[colour]}</text>`;
    return g;
  }

  return {
    applyState,
    onMessage,
    showPresence(online) {
      if (!msg) return;
      msg.online = online;
      renderPlayers();
    },
    onError,
    rerender: render,
    describe(seat, message) {
      const colour = message.view.players[seat].colour;
      return { role: colour, label: t(`colour_${colour}`) };
    },
  };
}
