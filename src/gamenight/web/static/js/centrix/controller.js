// @ts-check
// The Centrix table: the socket's states and answers into the model (the legal plays, the
// play being chosen), and the model into the views (board, hand, choices, players, log).
import { boardThen, el, mySeat, t } from "../common.js";
import { expandLegal, parseRotation, rotationText } from "./model.js";
import * as choosing from "./selection.js";
import { boardMarkup } from "./drawing.js";
import { animatePlay, pause, reduceMotion, soundsOf, turnRing } from "./animation.js";
import { boardView, drawBoard, highlight, markLast } from "./board.js";
import { choicesView } from "./choices.js";
import { curtainView } from "./dialogs.js";
import { focusKeeper } from "./focus.js";
import { handView } from "./hand.js";
import { logView } from "./log.js";
import { playersView } from "./players.js";

/** @typedef {import("./model.js").StateMessage} StateMessage */
/** @typedef {import("./model.js").Play} Play */
/** @typedef {import("./model.js").Scene} Scene */
/** @typedef {import("./selection.js").Selection} Selection */
/** @typedef {import("./selection.js").Step} Step */

/** The table's elements, in the order the page shows them. @param {HTMLElement} root */
function layout(root) {
  const nodes = {
    banner: el("div", { class: "turn-banner", id: "turn-banner", role: "status", "aria-live": "polite" }),
    board: el("div", { class: "board centrix-board-box", id: "board" }),
    trays: el("div", { class: "trays", id: "trays" }),
    hand: el("div", { class: "hand", id: "hand", role: "group" }),
    choices: el("div", { class: "choices", id: "choices", "aria-live": "polite" }),
    undo: el("button", { type: "button", class: "btn", id: "undo", hidden: true }, ""),
    curtain: el("div", { class: "curtain", id: "curtain", hidden: true }),
    players: el("ul", { class: "players", id: "players" }),
    log: el("ol", { class: "log", id: "log" }),
    handTitle: el("h3", { class: "hand-title", id: "hand-title" }),
    playersTitle: el("h3", {}),
    // What the players' counters count, said once under them (a tooltip alone never shows
    // on a phone).
    playersKey: el("p", { class: "players-key hint", id: "players-key" }),
    logTitle: el("h3", {}),
    pile: el("p", { class: "pile", id: "pile" }),
  };
  const n = nodes;
  root.classList.add("centrix-table");
  root.append(
    el("section", { class: "board-col" }, n.banner, el("div", { class: "board-wrap" }, n.board), n.trays),
    el("aside", { class: "side" },
      el("div", { class: "card-box play-box" }, n.handTitle, n.hand, n.curtain, n.choices, el("div", { class: "play-actions" }, n.undo)),
      el("div", { class: "card-box" }, n.playersTitle, n.players, n.playersKey, n.pile),
      el("div", { class: "card-box" }, n.logTitle, n.log),
    ),
  );
  return nodes;
}

/**
 * What the controller's steps share: the page's parts and views, the state shown and its
 * legal plays, the play being chosen, and a turned ring's preview.
 * @typedef {object} Table
 * @property {HTMLElement} root
 * @property {(message: object) => boolean} send
 * @property {ReturnType<typeof layout>} nodes
 * @property {StateMessage | null} msg    the last state shown
 * @property {Play[]} legalPlays          its legal plays, listed again
 * @property {Selection} sel
 * @property {boolean} inFlight           a play of ours is on its way to the server
 * @property {Preview} preview
 * @property {(draw: () => void) => void} keepFocus
 * @property {import("./board.js").BoardPage} board
 * @property {ReturnType<typeof handView>} hand
 * @property {ReturnType<typeof choicesView>} choices
 * @property {ReturnType<typeof playersView>} players
 * @property {ReturnType<typeof logView>} log
 * @property {ReturnType<typeof curtainView>} curtain
 * @property {ReturnType<typeof boardThen>} then
 */

/**
 * A turned ring shown before the play: the rotation (shown, or being turned to), the
 * server's drawing of the board so turned, the ring's turning on screen, and the rotation
 * already on screen when our play was sent (not turned again when the play comes back).
 * @typedef {{ rotation: string | null, markup: string | null, turning: Promise<void> | null, acted: string | null }} Preview
 */

/** @param {Table} k */
const myTurn = (k) => Boolean(k.msg && k.msg.actor !== null && k.msg.actor === mySeat(k.msg) && !k.curtain.shown());
/** @param {Table} k */
const legal = (k) => (myTurn(k) ? k.legalPlays : []);

/** What the views draw from. @param {Table} k @returns {Scene} */
function scene(k) {
  return {
    msg: /** @type {StateMessage} */ (k.msg), legal: legal(k), sel: k.sel, myTurn: myTurn(k),
    inFlight: k.inFlight, me: mySeat(k.msg), curtain: k.curtain.shown(),
  };
}

/** The board as the state is (or ``markup``: the state's board turned). @param {Table} k @param {string} [markup] */
function drawState(k, markup) {
  const m = /** @type {StateMessage} */ (k.msg);
  drawBoard(k.board, markup ?? boardMarkup(m.view), "state", m.last, m.version);
}

/** @param {Table} k */
function mark(k) {
  if (k.msg) highlight(k.board, scene(k), Boolean(k.preview.rotation && !k.preview.markup));
}

/** @param {Table} k */
function clearPreview(k) {
  Object.assign(k.preview, { rotation: null, markup: null, turning: null });
}

// ---------------------------------------------------------------- choosing a play

/** @param {Table} k @param {string | null} card */
function chooseCard(k, card) {
  if (k.preview.rotation) {
    clearPreview(k);
    drawState(k);
  }
  const step = choosing.pickCard(legal(k), k.sel, card);
  if (step.refused) return;
  k.sel = step.selection;
  k.keepFocus(() => {
    k.hand.renderHand(scene(k));
    k.choices.render(scene(k));
    k.hand.renderTrays(scene(k));
    mark(k);
  });
}

/** The ring to turn chosen: turned on screen, then the server's picture of the board so
 * turned shown in its place. @param {Table} k @param {string | null} rotation */
function chooseRotation(k, rotation) {
  const step = choosing.pickRotation(legal(k), k.sel, rotation);
  if (step.refused) return;
  if (k.preview.rotation !== rotation) {
    drawState(k);
    clearPreview(k);
    if (rotation !== null) {
      k.preview.rotation = rotation;
      k.send({ type: "preview", rotation });
      const { ring, amount } = parseRotation(rotation);
      k.preview.turning = turnRing(k.board.svg, ring, amount).then(() => showPreview(k, rotation));
    }
  }
  k.sel = step.selection;
  k.keepFocus(() => {
    k.choices.render(scene(k));
    k.hand.renderTrays(scene(k));
    mark(k);
  });
}

/** Swap in the server's turned board, once it is here and the ring has turned on screen.
 * @param {Table} k @param {string} rotation */
function showPreview(k, rotation) {
  if (k.preview.rotation === rotation && k.preview.markup) {
    drawBoard(k.board, k.preview.markup, "preview");
    mark(k);
  }
}

/** A message other than a state: the preview of a turned ring asked for.
 * @param {Table} k @param {{ type: string, rotation?: string }} message */
function onMessage(k, message) {
  if (message.type === "preview" && message.rotation && message.rotation === k.preview.rotation && k.msg) {
    const rotation = message.rotation;
    k.preview.markup = boardMarkup({ ...k.msg.view, ...message });
    k.preview.turning?.then(() => showPreview(k, rotation));
  }
}

/** @param {Table} k @param {Step} step */
function pawnChosen(k, step) {
  if (step.refused) return;
  k.sel = step.selection;
  k.keepFocus(() => {
    k.choices.render(scene(k));
    k.hand.renderTrays(scene(k));
  });
  mark(k);
}

/** @param {Table} k @param {string} square @param {number | null} pawnOf whose pawn was clicked */
function clickSquare(k, square, pawnOf) {
  if (!k.msg || !myTurn(k) || k.inFlight) return;
  const step = choosing.clickSquare(legal(k), k.sel, square, pawnOf !== null && pawnOf === mySeat(k.msg));
  if (step.play) play(k, step.play);
  else pawnChosen(k, step);
}

/** @param {Table} k @param {Play} p */
function play(k, p) {
  if (!k.msg || !k.send({ type: "act", seat: mySeat(k.msg), action: p.notation })) return;
  k.preview.acted = p.rotation;
  // Until the server answers, the hand on screen is the one before this play: it takes no
  // new choice (a choice made now would be lost when the answer lands).
  k.inFlight = true;
  k.sel = choosing.NOTHING;
  k.keepFocus(() => {
    k.hand.renderHand(scene(k));
    k.hand.renderTrays(scene(k));
    mark(k);
    k.choices.waiting();
  });
}

/** What the views ask of the controller. @param {Table} k @returns {import("./model.js").Actions} */
function actionsOf(k) {
  /** @param {Step} step */
  const made = (step) => step.play && play(k, step.play);
  return {
    chooseCard: (card) => chooseCard(k, card),
    chooseRotation: (rotation) => chooseRotation(k, rotation),
    chooseFrom: (from) => pawnChosen(k, choosing.pickPawn(legal(k), k.sel, from)),
    chooseTarget: (to) => made(choosing.pickTarget(legal(k), k.sel, to)),
    playAlone: () => made(choosing.playAlone(legal(k), k.sel)),
  };
}

// ---------------------------------------------------------------- state

/**
 * Show a new state, animating the play that led to it (issue 16, contract A): every
 * duration times ``options.factor`` (0: none), jumping to the end when ``options.signal``
 * aborts. The board marks the play (data-animated: its number) while it is shown.
 * @param {Table} k @param {StateMessage} message
 * @param {{ factor?: number, signal?: AbortSignal | null }} [options]
 */
async function applyState(k, message, { factor = 1, signal = null } = {}) {
  const previous = k.msg;
  const last = message.last;
  const next = previous && message.version === previous.version + 1 && last && !last.undo ? last : null;
  k.then.now(); // a play is shown on the board as it is now
  const svg = k.board.svg;
  if (previous && next && factor > 0 && !reduceMotion && svg && !signal?.aborted) {
    k.nodes.board.dataset.animated = String(message.version);
    // The play being shown is the log's latest line and the board's mark from its start.
    k.log.render(message);
    markLast(k.board, next, message.version);
    const turnedAlready = Boolean(k.preview.rotation) || (next.rotation !== null && k.preview.acted === rotationText(next.rotation));
    await animatePlay(svg, next, previous.view.players.map((p) => p.colour), { factor, signal, turnedAlready });
    // A moment's rest on the play made, before the next is shown.
    await pause(350 * factor, signal);
  } else if (next) {
    k.nodes.board.dataset.animated = String(message.version);
  }
  if (next) soundsOf(next, factor > 0 && !signal?.aborted);
  k.legalPlays = expandLegal(message.view.legal);
  clearPreview(k);
  k.preview.acted = null;
  k.inFlight = false;
  k.msg = message;
  k.then.follow(message);
  if (!previous || previous.version !== message.version || previous.actor !== message.actor) k.sel = choosing.NOTHING;
  k.curtain.follow(message);
  render(k);
}

/** @param {Table} k */
function render(k) {
  if (k.msg) k.keepFocus(() => renderAll(k));
}

/** @param {Table} k */
function renderAll(k) {
  const m = /** @type {StateMessage} */ (k.msg);
  if (!k.preview.rotation) drawState(k);
  const now = scene(k);
  k.players.render(now);
  k.hand.renderHand(now);
  k.choices.render(now);
  k.hand.renderTrays(now);
  k.log.render(m);
  mark(k);
  k.nodes.undo.hidden = !(m.can_undo && now.myTurn);
  k.nodes.undo.textContent = `↶ ${t("undo")}`;
  k.hand.renderTitle(now);
  k.nodes.logTitle.textContent = t("log");
}

/**
 * The views wired to the page's parts (``k`` is filled in as they are made: each speaks to
 * the controller only when the page is used).
 * @param {Table} k @param {ReturnType<typeof layout>} nodes
 */
function wire(k, nodes) {
  const actions = actionsOf(k);
  k.board = boardView(nodes.board, {
    onSquare: (square, pawnOf) => clickSquare(k, square, pawnOf),
    onDrawn: (showing) => showing !== "then" && k.then.shownNow(),
  });
  k.hand = handView({ hand: nodes.hand, title: nodes.handTitle, trays: nodes.trays }, actions);
  k.choices = choicesView(nodes.choices, actions);
  k.players = playersView({ players: nodes.players, title: nodes.playersTitle, key: nodes.playersKey, pile: nodes.pile, banner: nodes.banner });
  k.log = logView(nodes.log);
  k.curtain = curtainView(nodes.curtain, () => render(k));
  // Hovering or tapping a line of the log shows the board as it was after that play.
  k.then = boardThen({
    board: nodes.board, log: nodes.log, tableId: () => /** @type {StateMessage} */ (k.msg).table,
    busy: () => Boolean(k.preview.rotation || k.sel.card), // the board shows a play being chosen
    drawThen: (/** @type {import("./model.js").BoardData} */ view) => drawBoard(k.board, boardMarkup(view), "then"),
    drawNow: () => {
      drawState(k);
      mark(k);
    },
  });
  k.log.lines(k.then.line);
  nodes.undo.addEventListener("click", () => k.msg && k.send({ type: "undo", seat: k.msg.active }));
  // Escape steps out of a half-made play, as the Cancel link does.
  k.root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && k.sel.card && !document.querySelector(".overlay")) chooseCard(k, null);
  });
}

/**
 * The table's page for Centrix (table.js calls it with the page's root and its socket).
 * @param {{ root: HTMLElement, send: (message: object) => boolean }} ctx
 */
export function create({ root, send }) {
  const nodes = layout(root);
  // The views are added by wire(): each needs the table to speak to.
  const k = /** @type {Table} */ (/** @type {unknown} */ ({
    root, send, nodes, msg: null, legalPlays: [], sel: choosing.NOTHING, inFlight: false,
    preview: { rotation: null, markup: null, turning: null, acted: null }, keepFocus: focusKeeper(root),
  }));
  wire(k, nodes);
  return {
    /** @param {StateMessage} message @param {{ factor?: number, signal?: AbortSignal | null }} [options] */
    applyState: (message, options) => applyState(k, message, options),
    /** @param {{ type: string, rotation?: string }} message */
    onMessage: (message) => onMessage(k, message),
    /** @param {number[]} online the seats whose players have the table open */
    showPresence(online) {
      if (!k.msg) return;
      k.msg.online = online;
      k.players.renderList(k.msg);
    },
    onError() {
      if (!k.inFlight) return;
      k.inFlight = false;
      render(k);
    },
    rerender: () => render(k),
    /** @param {number} seat @param {StateMessage} message */
    describe(seat, message) {
      const colour = message.view.players[seat].colour;
      return { role: colour, label: t(`colour_${colour}`) };
    },
  };
}
