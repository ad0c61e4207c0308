// The Centrix table: the board, your hand, choosing a play by clicking, and the animations.
import {
  el, keepWordsLegible, logEntry, mySeat, ordinal, renderTurnBanner, seatBadges, svgElement, t,
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

function symbolSvg(colour, size = 18) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "-1.2 -1.2 2.4 2.4");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("symbol-icon");
  const fill = INK[colour];
  const shape = SYMBOL[colour];
  let node;
  if (shape === "circle") {
    node = document.createElementNS(SVG_NS, "circle");
    node.setAttribute("r", "0.82");
  } else if (shape === "square") {
    node = document.createElementNS(SVG_NS, "rect");
    for (const [k, v] of Object.entries({ x: -0.75, y: -0.75, width: 1.5, height: 1.5 })) node.setAttribute(k, v);
  } else {
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
      const [s, e] = [0.32, 0.95];
      points = [[-s, -e], [s, -e], [s, -s], [e, -s], [e, s], [s, s], [s, e], [-s, e], [-s, s], [-e, s], [-e, -s], [-s, -s]];
    }
    node = document.createElementNS(SVG_NS, "polygon");
    node.setAttribute("points", points.map((p) => p.join(",")).join(" "));
  }
  node.setAttribute("fill", fill);
  svg.append(node);
  return svg;
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
      el("div", { class: "card-box" }, playersTitle, players, pile),
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
  const legal = () => (myTurn() ? msg.view.legal : []);
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
    board.dataset.showing = showing;
    const svg = svgElement(markup);
    svg.setAttribute("aria-label", t("board_aria"));
    const overlay = document.createElementNS(SVG_NS, "g");
    overlay.setAttribute("class", "ui-overlay");
    svg.append(overlay);
    board.replaceChildren(svg);
    fitWords();
    shownSvg = svg;
    return svg;
  }

  // ---------------------------------------------------------------- state

  /** Show a new state, animating the play that led to it unless told to ``hurry``. */
  async function applyState(message, hurry) {
    const previous = msg;
    const last = message.last;
    const next = previous && message.version === previous.version + 1 && last && !last.undo;
    if (next && !hurry && !reduceMotion && shownSvg) {
      await animatePlay(last, previous);
    }
    actedWithPreview = null;
    previewing = null;
    previewMarkup = null;
    inFlight = false;
    msg = message;
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
    if (!previewing) setBoard(v.svg);
    renderBanner();
    renderHand();
    renderChoices();
    renderTrays();
    renderPlayers();
    renderLog();
    highlight();
    undo.hidden = !(msg.can_undo && myTurn());
    undo.textContent = `↶ ${t("undo")}`;
    handTitle.textContent = mySeat(msg) === null ? t("spectating") : t("your_cards");
    playersTitle.textContent = t("players");
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
        el("span", { title: t("cards_in_hand") }, el("span", { class: "mini-card", "aria-hidden": "true" }), String(p.hand_size)),
        el("span", { title: t("pawns_on_top") }, `▲ ${p.top}`),
        el("span", { title: t("pawns_off") }, `○ ${p.off}`),
      ],
    ),
    el("span", { class: "sr-only" }, t("player_summary", { cards: p.hand_size, top: p.top, off: p.off })),
    )));
  }

  function renderLog() {
    const { log: entries, log_seats: seats } = msg.view;
    log.replaceChildren(...entries.map((notation, i) =>
      logEntry(msg, seats[i], colourOf(seats[i]), notation, { "data-step": i + 1 })));
    log.scrollTop = log.scrollHeight;
  }

  // ---------------------------------------------------------------- choosing a play

  function chooseCard(card) {
    if (previewing) {
      previewing = null;
      previewAnimation = null;
      setBoard(msg.view.svg);
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
      setBoard(msg.view.svg);
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
      previewMarkup = message.svg;
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

  function clickSquare(name, node) {
    if (!myTurn() || inFlight || !sel.card || sel.rotation === undefined) return;
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
  }

  /** Mark the movable pawns, or the chosen pawn and its destinations, on the board. */
  function highlight() {
    if (!shownSvg) return;
    const overlay = shownSvg.querySelector(".ui-overlay");
    overlay.replaceChildren();
    for (const node of shownSvg.querySelectorAll(".movable, .target, .chosen")) {
      node.classList.remove("movable", "target", "chosen");
    }
    if (!myTurn() || !sel.card || sel.rotation === undefined) return;
    if (previewing && !previewMarkup) return; // the board is still turning
    const plays = playsFor(sel.card, sel.rotation);
    if (sel.from === null) {
      for (const from of unique(plays.map((p) => p.from).filter((f) => f && f !== "off"))) {
        const pawn = shownSvg.querySelector(`.pawn[data-square="${from}"][data-seat="${mySeat(msg)}"]`)
          || shownSvg.querySelector(`.pawn[data-square="${from}"]`);
        pawn?.classList.add("movable");
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
      const dot = document.createElementNS(SVG_NS, "circle");
      dot.setAttribute("class", "target-dot");
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
      dot.setAttribute("r", p.to === "top" ? 30 : 14);
      dot.dataset.square = p.to;
      overlay.append(dot);
    }
  }

  function ring(overlay, square, cls) {
    const [x, y] = centre(square);
    const c = document.createElementNS(SVG_NS, "circle");
    c.setAttribute("class", cls);
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", 25);
    c.dataset.square = square;
    overlay.append(c);
  }

  // ---------------------------------------------------------------- animation

  function turnRing(ringNo, amount) {
    const group = shownSvg?.querySelector(`g.ring[data-ring="${ringNo}"]`);
    if (!group || reduceMotion) return Promise.resolve();
    group.style.transformBox = "view-box";
    group.style.transformOrigin = "500px 500px";
    const animation = group.animate(
      [{ transform: "rotate(0deg)" }, { transform: `rotate(${amount * 30}deg)` }],
      { duration: 200 + 90 * Math.abs(amount), easing: "ease-in-out", fill: "forwards" },
    );
    return animation.finished.catch(() => {});
  }

  async function animatePlay(last, previous) {
    const rotation = last.rotation;
    const turned = rotation && actedWithPreview !== `${rotation.ring}${rotation.amount >= 0 ? "+" : ""}${rotation.amount}`;
    if (rotation && turned && !previewing) await turnRing(rotation.ring, rotation.amount);
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
      overlay.append(token);
      const leap = i === 0 && isLeap(move.from, move.to);
      const frames = leap
        ? [
          { transform: `translate(${x0}px, ${y0}px) scale(1)` },
          { transform: `translate(${(x0 + x1) / 2}px, ${(y0 + y1) / 2 - 40}px) scale(1.45)` },
          { transform: `translate(${x1}px, ${y1}px) scale(1)` },
        ]
        : [
          { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: move.from === "off" ? 0 : 1 },
          { transform: `translate(${x1}px, ${y1}px) scale(${i > 0 ? 0.9 : 1})`, opacity: move.to === "off" ? 0 : 1 },
        ];
      const animation = token.animate(frames, {
        duration: leap ? 650 : 420, easing: i > 0 ? "cubic-bezier(.5,0,.9,.6)" : "ease-in-out", fill: "forwards",
      });
      await animation.finished.catch(() => {});
    }
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
