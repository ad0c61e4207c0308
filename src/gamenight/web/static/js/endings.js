// @ts-check
// Finishing every game (docs/rules/table.md): a clock per seat, ticking here from the
// server's figures; resign or leave, with a confirm; a seat's stand-in bot and taking the
// seat back; the rematch in the game-over dialog, and following the table to it.
import { byId, el, find } from "./core/dom.js";
import { onLanguageChange, t } from "./core/i18n.js";
import { mySeat } from "./core/seats.js";
import { heldTokens, invites, keepInvite, keepToken, keepWatch, watchToken } from "./core/tokens.js";

/** @typedef {import("./core/messages.js").StateOut} StateOut */
/** @typedef {import("./core/messages.js").SeatingOut} SeatingOut */

/** Time left as the page shows it: m:ss, h:mm:ss, or days and hours. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, "0");
  if (days) return t("finish_days_hours", { d: days, h: hours });
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

/** Whether the page goes to the rematch by itself: it asked for it (or watches). */
function follows(message) {
  const seating = message.seating;
  if (!seating?.next) return false;
  return !message.seats.length || message.seats.some((seat) => seating.rematch.includes(seat));
}

/** Go to the rematch ``table``: its seats open with the tokens this device holds here (the
 * server kept them), and so does the spectator link. */
function follow(from, table) {
  for (const [seat, token] of Object.entries(heldTokens(from))) keepToken(table, seat, token);
  for (const [seat, { token, renew }] of Object.entries(invites(from))) keepInvite(table, seat, token, renew);
  const watch = watchToken(from);
  if (watch) keepWatch(table, watch);
  document.body.dataset.movedTo = table;
  location.assign(`/table/${encodeURIComponent(table)}`);
}

/** The way to a rematch made while the page was away. */
function toRematch(from, table, id) {
  return el("button", { type: "button", class: "btn btn-primary", id, onclick: () => follow(from, table) }, t("finish_to_rematch"));
}

/** Ask ``question`` in a dialog; ``yes()`` when confirmed.
 * @param {string} question @param {() => void} yes */
function confirmDialog(question, yes) {
  document.getElementById("endings-confirm")?.remove();
  const box = el("div", { class: "overlay", id: "endings-confirm", role: "dialog", "aria-modal": "true", "aria-labelledby": "endings-confirm-title" },
    el("div", { class: "overlay-card" },
      el("h2", { id: "endings-confirm-title" }, question),
      el("div", { class: "form-actions" },
        el("button", { type: "button", class: "btn btn-primary", id: "endings-yes", onclick: () => { box.remove(); yes(); } }, t("finish_confirm")),
        el("button", { type: "button", class: "btn", onclick: () => box.remove() }, t("finish_cancel")),
      )));
  box.addEventListener("keydown", (e) => { if (e.key === "Escape") box.remove(); });
  document.body.append(box);
  find(box, ".btn-primary", HTMLElement).focus();
}

/** Each seat's clock (an empty row without clocks). @param {StateOut} message @param {SeatingOut} seating */
function clocksRow(message, seating) {
  const clock = message.clock;
  if (!clock) return el("div", { class: "endings-clocks" });
  const over = Boolean(message.view.outcome);
  return el("div", { class: "endings-clocks", role: "group", "aria-label": t("finish_clock") },
    message.names.map((name, seat) => {
      const bot = seating.stand_ins.includes(seat);
      return el("span", {
        class: `endings-clock${seat === clock.actor && !over ? " running" : ""}${bot ? " stood-in" : ""}`,
        "data-seat": seat,
        "aria-label": t("finish_clock_label", { name }),
        ...(bot ? { title: t("finish_stood_in", { name }) } : {}),
      }, el("span", { class: "endings-name" }, name), el("span", { class: "endings-time" }, ""),
      ...(bot ? [el("span", { class: "endings-bot" }, t("finish_bot_short"))] : []));
    }));
}

/** A bot standing in for a seat is said on every page; the seat's own page is told how its
 * time goes meanwhile and after taking the seat back (docs/rules/table.md T8, T9), with the
 * button that takes it back.
 * @param {StateOut} message @param {SeatingOut} seating @param {(message: {type: string, seat: number}) => void} send */
function standIns(message, seating, send) {
  /** @type {HTMLElement[]} */
  const parts = [];
  message.names.forEach((name, stood) => {
    if (message.view.outcome || !seating.stand_ins.includes(stood) || seating.resigned.includes(stood)) return;
    if (!message.seats.includes(stood)) {
      parts.push(el("p", { class: "endings-notice hint", "data-stood-in-other": stood }, t("finish_stood_in_other", { name })));
      return;
    }
    parts.push(el("p", { class: "endings-notice hint", "data-stood-in": stood }, t("finish_stood_in", { name }), " ", t("finish_stood_in_time")));
    parts.push(el("button", { type: "button", class: "btn btn-primary", "data-reclaim": stood, onclick: () => send({ type: "reclaim", seat: stood }) }, t("finish_reclaim")));
  });
  return parts;
}

/** Each clock of ``bar`` as it stands now: the actor's time runs down from ``received``
 * (when the state ``last`` came, this page's clock).
 * @param {HTMLElement} bar @param {StateOut} last @param {number} received */
function tickClocks(bar, last, received) {
  const clock = last.clock;
  if (!clock) return;
  for (const node of bar.querySelectorAll(".endings-clock")) {
    const seat = Number(node.getAttribute("data-seat"));
    const running = seat === clock.actor && !last.view.outcome;
    const ms = clock.left[seat] - (running ? Date.now() - received : 0);
    find(node, ".endings-time", HTMLElement).textContent = clockText(ms);
    node.classList.toggle("low", clock.kind === "realtime" && ms < 20000);
  }
}

/** Resign (two seats) or leave (more), for this page's seat while it plays: one name for
 * giving up one's seat, whatever follows (the question says what).
 * @param {StateOut} message @param {SeatingOut} seating @param {(message: {type: string, seat: number}) => void} send */
function resignButton(message, seating, send) {
  const seat = mySeat(message) ?? (message.seats.length ? message.seats[0] : null);
  if (message.view.outcome || seat === null || seating.resigned.includes(seat)) return [];
  const two = message.names.length === 2;
  // On a shared screen, say whose seat gives up (the one to act).
  const shared = message.seats.length > 1;
  const question = t(`${two ? "finish_resign_confirm" : "finish_leave_confirm"}${shared ? "_named" : ""}`, { name: message.names[seat] });
  return [el("button", {
    type: "button", class: "btn", id: "resign",
    onclick: () => confirmDialog(question, () => send({ type: "resign", seat })),
  }, t("finish_resign"))];
}

/** The game-over dialog's rematch status and button, for the latest state. @param {StateOut | null} last */
function updateRematch(last) {
  const status = document.getElementById("rematch-status");
  if (!status || !last) return;
  const asked = (last.seating?.rematch || []).map((seat) => last.names[seat]);
  const mineAsked = last.seats.some((seat) => (last.seating?.rematch || []).includes(seat));
  status.textContent = mineAsked ? t("finish_rematch_waiting") : asked.length ? t("finish_rematch_asked", { names: asked.join(", ") }) : "";
  const button = document.getElementById("rematch");
  if (button instanceof HTMLButtonElement) button.disabled = mineAsked;
}

/**
 * The table page's endings. ``send`` sends a message on the table's socket. Returns what
 * table.js calls: ``onState(message)`` after each state is shown (everything of the endings
 * comes inside the state), ``shown(message)``, ``gameOverActions(message)`` (the buttons of the
 * game-over dialog) and ``rerender()`` when the language changes.
 */
export function createEndings({ tableId, send }) {
  if (!document.getElementById("endings-style")) {
    // A stylesheet of its own (the pages' policy allows no inline style).
    document.head.append(el("link", { rel: "stylesheet", href: "/static/css/endings.css", id: "endings-style" }));
  }
  const bar = el("div", { class: "endings-bar", id: "endings", hidden: true });
  byId("main", HTMLElement).before(bar);
  // Resign / leave sits in the top bar, beside the table's links: a row of its own above the
  // board would push the board and the trays below the first screen.
  const top = el("div", { class: "endings-top", id: "endings-top" });
  byId("table-nav", HTMLElement).before(top);
  let last = null; // the latest state message
  let received = 0; // when it came (this page's clock): the actor's time runs down from here
  let timer = null;

  const tick = () => tickClocks(bar, last, received);

  const render = () => {
    if (!last) return;
    const message = last;
    const seating = message.seating || { stand_ins: [], resigned: [], rematch: [] };
    /** @type {HTMLElement[]} */
    const parts = [clocksRow(message, seating)];
    top.replaceChildren(...resignButton(message, seating, send));
    parts.push(...standIns(message, seating, send));
    if (seating.next) {
      // The rematch was made while this page was away: the way there.
      parts.push(toRematch(tableId, seating.next, "to-rematch-bar"));
    }
    bar.replaceChildren(...parts);
    bar.hidden = parts.length === 1 && !message.clock;
    top.hidden = !top.childElementCount;
    if (message.clock) tick();
    updateRematch(last);
  };

  return {
    /** The state as the game module is to show it: a seat a bot plays for this device is
     * not this device's to play (the server would refuse it), so it is not shown as such. */
    shown(message) {
      const standIns = message.seating?.stand_ins || [];
      if (message.active === null || !standIns.includes(message.active)) return message;
      return { ...message, active: null, can_undo: false };
    },
    onState(message) {
      last = message;
      received = Date.now();
      if (follows(message)) {
        follow(tableId, message.seating.next);
        return;
      }
      render();
      clearInterval(timer);
      if (message.clock && !message.view.outcome) timer = setInterval(tick, 250);
    },
    gameOverActions(message) {
      if (message.seating?.next) return [toRematch(tableId, message.seating.next, "to-rematch")];
      // Spectators watch the rematch when it comes; only players ask for one.
      if (!message.seats.length || !Object.keys(heldTokens(tableId)).length) return [];
      return [
        el("span", { class: "hint", id: "rematch-status", "aria-live": "polite" }, ""),
        el("button", { type: "button", class: "btn", id: "rematch", onclick: () => { send({ type: "rematch" }); } }, t("finish_rematch")),
      ];
    },
    afterGameOver() {
      updateRematch(last);
    },
    rerender() {
      render();
    },
  };
}

// ---------------------------------------------------------------- the set-up's clock

const clockSetup = {
  kind: "none", bank_minutes: 5, increment_seconds: 5, turn_hours: 24, bot_level: 2,
  grace_seconds: 120, on_timeout: "bot", abandon_hours: 72,
};

/** What of the clock applies to the table being set up: a flag's choice only at a timed
 * two-seat table (at a larger one a bot always takes the seat, T2), the grace only with an
 * invited seat (T8), the stand-ins' level wherever a bot may stand in (a flag, a guest
 * away, a seat leaving a larger table: T1, T8), the abandonment limit always (T3). */
function applying({ invited, seats }) {
  const timed = clockSetup.kind !== "none";
  return { timed, flag: timed && seats === 2, grace: invited, bot: timed || invited || seats > 2 };
}

/** The home page's clock fields (docs/rules/table.md T6–T8, T3): none, real-time (minutes a
 * seat plus seconds a turn) or turn-based (hours a turn), what a flag does, the grace for a
 * guest away, the stand-in bots' level and the abandonment limit. ``table()`` tells what the
 * set-up holds ({invited, seats}); ``draw()`` draws the fields again when that changes (and
 * when the language does). Returns {box, draw, settings}. */
export function clockFields(table) {
  const box = el("div", { class: "field-row endings-setup", id: "clock-setup" });
  const number = (id, key, min, max, step, label) => {
    const input = el("input", { type: "number", id, min, max, step, value: clockSetup[key], "aria-label": t(label), class: "endings-number" });
    input.addEventListener("input", () => (clockSetup[key] = Number(input.value)));
    return el("label", { class: "endings-field" }, t(label), " ", input);
  };
  const draw = () => {
    const kind = el("select", { id: "clock-kind", "aria-label": t("finish_clock") },
      ["none", "realtime", "turn"].map((k) => el("option", { value: k, selected: clockSetup.kind === k }, t(`finish_clock_${k}`))));
    kind.addEventListener("change", () => {
      clockSetup.kind = kind.value;
      draw();
    });
    const applies = applying(table());
    const extra = clockSetup.kind === "realtime"
      ? [number("clock-bank", "bank_minutes", 0.25, 120, "any", "finish_bank_minutes"), number("clock-increment", "increment_seconds", 0, 180, 1, "finish_increment_seconds")]
      : clockSetup.kind === "turn" ? [number("clock-turn", "turn_hours", 0.05, 336, "any", "finish_turn_hours")] : [];
    const flag = el("select", { id: "clock-on-timeout", "aria-label": t("finish_on_timeout") },
      ["bot", "lose"].map((k) => el("option", { value: k, selected: clockSetup.on_timeout === k }, t(`finish_on_timeout_${k}`))));
    flag.addEventListener("change", () => (clockSetup.on_timeout = flag.value));
    box.replaceChildren(
      el("label", { for: "clock-kind", class: "field-label" }, t("finish_clock")), kind, ...extra,
      ...(applies.flag ? [el("label", { class: "endings-field" }, t("finish_on_timeout"), " ", flag)] : []),
      ...(applies.grace ? [number("clock-grace", "grace_seconds", 10, 86400, 1, "finish_grace_seconds")] : []),
      ...(applies.bot ? [number("clock-bot", "bot_level", 1, 5, 1, "finish_stand_in_level")] : []),
      number("clock-abandon", "abandon_hours", 0.05, 720, "any", "finish_abandon_hours"),
    );
  };
  if (!document.getElementById("endings-style")) {
    document.head.append(el("link", { rel: "stylesheet", href: "/static/css/endings.css", id: "endings-style" }));
  }
  draw();
  onLanguageChange(draw);
  /** The set-up's ``clock`` for ``POST /api/tables`` (the server checks its bounds): what
   * the form shows, the rest left to the server's defaults. */
  const settings = () => {
    const { kind } = clockSetup;
    const applies = applying(table());
    return {
      kind,
      ...(kind === "turn" ? { turn_hours: clockSetup.turn_hours } : {}),
      ...(kind === "realtime" ? { bank_seconds: Math.round(clockSetup.bank_minutes * 60), increment_seconds: clockSetup.increment_seconds } : {}),
      ...(applies.flag ? { on_timeout: clockSetup.on_timeout } : {}),
      ...(applies.grace ? { grace_seconds: clockSetup.grace_seconds } : {}),
      ...(applies.bot ? { bot_level: clockSetup.bot_level } : {}),
      abandon_hours: clockSetup.abandon_hours,
    };
  };
  return { box, draw, settings };
}
