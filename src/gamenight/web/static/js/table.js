// The table page: connects to the table's socket and hands each message to the game's UI.
import {
  TableSocket, api, checkInvite, claimTokenFromUrl, el, forgetToken, initPage, inviteRow, invites, keepInvite, keyed,
  onLanguageChange, ordinal, patch, refusalText, sound, spectatorRow, store, stored, t, toast, trackTopbar, watchToken,
} from "./common.js";
import { mountChat } from "./chat.js";
import { mountSounds } from "./sounds.js";
import { mountWatching } from "./watching.js";
import { createEndings } from "./endings.js";
import { mountHints } from "./hints.js"; // issue 32: "suggest a play"

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");

// How long the plays take to show: each animation's duration is multiplied by the pace's factor.
const PACES = { slow: 1.8, normal: 1, fast: 0.45, instant: 0 };
const PACE_KEY = "gamenight.pace";

function setConnection(status) {
  const conn = document.getElementById("conn");
  conn.dataset.status = status;
  conn.textContent = status === "open" ? "" : t("reconnecting");
  // While the page is reconnecting it takes no input: what it shows may be out of date.
  document.body.dataset.connection = status;
  document.getElementById("main")?.toggleAttribute("inert", status !== "open");
}

function nav(info) {
  const box = document.getElementById("table-nav");
  const mine = invites(tableId);
  box.replaceChildren(...[
    Object.keys(mine).length || (info.visibility === "unlisted" && watchToken(tableId))
      ? el("button", { type: "button", class: "linkish", id: "show-invites", onclick: () => showInvites(info) }, t("invites"))
      : null,
    el("a", { href: `/rules/${info.game}`, target: "_blank", rel: "noopener" }, t("rules")),
    el("a", { href: `/learn/${info.game}/0`, id: "learn-link", target: "_blank", rel: "noopener" }, t("learn_to_play")), // issue 32
    // The record holds the seed (every hand, every draw): the server gives it once the game is over.
    info.status !== "playing"
      ? el("a", { href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${info.game}-${tableId}.json`, id: "download-record" }, t("download_record"))
      : null,
    el("a", { href: `/replay/${tableId}` }, t("replay")),
  ].filter(Boolean));
}

async function showInvites(info) {
  const mine = invites(tableId);
  const rows = await Promise.all(Object.entries(mine).map(([seat, { token, renew }]) => {
    const again = async () => {
      const made = await api(`/api/tables/${encodeURIComponent(tableId)}/invites/${seat}`, { method: "POST", body: { renew } });
      keepInvite(tableId, seat, made.token, renew);
      return made.token;
    };
    return inviteRow(tableId, seat, info.seats[seat]?.name || `#${seat}`, token, renew ? again : null);
  }));
  const watch = info.visibility === "unlisted" && watchToken(tableId);
  const spectators = watch ? [el("p", { class: "hint" }, t("spectator_help")), await spectatorRow(tableId, watch)] : [];
  const help = rows.length ? [el("p", {}, t("invite_help")), el("p", { class: "hint" }, t("invite_renew_help"))] : [];
  openDialog(t("invite_title"), [...help, ...rows, el("p", { class: "hint" }, t("qr_help")), ...spectators]);
}

function openDialog(title, body, { id = "dialog", actions = [] } = {}) {
  document.getElementById(id)?.remove();
  const close = el("button", { type: "button", class: "btn", onclick: () => dialog.remove() }, t("close"));
  const dialog = el("div", { class: "overlay", id, role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title` },
    el("div", { class: "overlay-card" },
      el("h2", { id: `${id}-title` }, title),
      body,
      el("div", { class: "form-actions" }, actions, close),
    ),
  );
  dialog.addEventListener("keydown", (e) => {
    if (e.key === "Escape") dialog.remove();
  });
  document.body.append(dialog);
  (dialog.querySelector(".btn-primary") || close).focus();
  return dialog;
}

/** The game-over screen: every seat by place. ``describe(seat)`` gives its colour or gang;
 * ``extra``, more buttons (the rematch: endings.js). */
function gameOver(message, describe, extra = []) {
  const outcome = message.view.outcome;
  if (!outcome || document.getElementById("game-over")) return;
  const order = outcome.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
  // "You" only means someone on a device that holds one seat; on a shared screen the
  // winner is named.
  const mine = new Set(message.seats.length === 1 ? message.seats : []);
  const winners = order.filter(({ place }) => place === 1).map(({ seat }) => message.names[seat]);
  let headline = t("game_over");
  if (winners.length === outcome.places.length) headline = t("draw");
  else if (message.seats.length === 1 && outcome.places[message.seats[0]] === 1) headline = t("you_won");
  else if (winners.length) headline = t("won_by", { name: winners.join(", ") });
  const list = el("ol", { class: "places" }, order.map(({ place, seat }) => {
    const who = describe(seat);
    return el("li", { class: `place place-${place}`, "data-seat": seat },
      el("span", { class: "place-no" }, ordinal(place)),
      el("span", { class: `seat-dot dot-${who.role}`, "aria-hidden": "true" }),
      el("span", { class: "place-name" }, message.names[seat] + (mine.has(seat) ? ` (${t("you")})` : "")),
      el("span", { class: "place-role" }, who.label),
    );
  }));
  openDialog(headline, [
    el("p", { class: "reason" }, t(`reason_${outcome.reason}`)),
    list,
  ], {
    id: "game-over",
    actions: [
      ...extra,
      el("a", { class: "btn", href: keyed(tableId, `/api/tables/${tableId}/record`), download: `${message.view.game}-${tableId}.json` }, t("download_record")),
      el("a", { class: "btn", href: `/replay/${tableId}` }, t("replay")),
      el("a", { class: "btn btn-primary", href: "/" }, t("new_game")),
    ],
  });
}

/** The page in place of the table when its link does not lead to it: ``describe()`` gives
 * what went wrong (``title``, ``text``) and what can be done (``actions``: buttons or links;
 * the home page's is always there), asked again when the language changes. */
let problem = null;
let problemHeard = false;
function showProblem(describe) {
  if (!problemHeard) onLanguageChange(() => problem && renderProblem());
  problemHeard = true;
  problem = describe;
  renderProblem();
}

function renderProblem() {
  const { title, text, actions = [] } = problem();
  document.getElementById("main").replaceChildren(
    el("section", { class: "panel problem", id: "problem", role: "alert" },
      el("h1", {}, title),
      el("p", { class: "form-error" }, text),
      el("div", { class: "form-actions" }, actions, el("a", { class: "btn", href: "/", id: "go-home" }, t("go_home"))),
    ),
  );
  document.querySelector("#problem .btn-primary")?.focus();
}

/** When the invite link this page was opened with opens no seat, say why and wait: at a
 * public table the guest may watch instead (resolves then); otherwise the page stays. A
 * link that opens a seat (or a check that cannot be made) resolves at once. */
async function checkArrival(token) {
  let answer;
  try {
    answer = await checkInvite(tableId, token);
  } catch (exc) {
    if (exc.code === "no_table") forgetToken(tableId, token);
    return; // the table's own request says what is wrong
  }
  if (answer.invite === "open" || answer.invite === "yours") return;
  forgetToken(tableId, token);
  const why = () => t(`invite_${answer.invite}_page`);
  // A spectator link kept from before still lets this device watch an unlisted table.
  if (answer.visibility !== "public" && !watchToken(tableId)) {
    showProblem(() => ({ title: t("invite_problem"), text: `${why()} ${t("invite_no_watching")}` }));
    await new Promise(() => {}); // nothing more to show here
  }
  await new Promise((resolve) => {
    showProblem(() => ({
      title: t("invite_problem"),
      text: `${why()} ${t("invite_may_watch")}`,
      actions: [el("button", { type: "button", class: "btn btn-primary", id: "watch-instead", onclick: resolve }, t("watch_instead"))],
    }));
  });
  problem = null;
}

async function main() {
  await initPage();
  trackTopbar();
  const arrived = claimTokenFromUrl(tableId);
  // An invite link pasted into this very page changes only the fragment: load it afresh.
  window.addEventListener("hashchange", () => {
    if (location.hash.includes("token=") || location.hash.includes("watch=")) location.reload();
  });
  if (arrived) await checkArrival(arrived);
  let info;
  try {
    info = await api(keyed(tableId, `/api/tables/${encodeURIComponent(tableId)}`));
  } catch (exc) {
    showProblem(() => ({ title: t(exc.code === "no_table" ? "no_table_title" : "table_problem"), text: refusalText(exc) }));
    return;
  }
  const title = document.getElementById("table-title");
  const setTitle = () => {
    title.textContent = t(info.game);
    document.title = `${t(info.game)} — gamenight`;
  };
  setTitle();
  nav(info);
  document.body.classList.add(`game-${info.game}`);
  const module = info.game === "centrix" ? await import("./centrix.js") : await import("./colorcity.js");
  const root = document.getElementById("main");
  root.replaceChildren();
  let socket = null;
  // Every act and undo says which revision of the table the page showed, and has an id of
  // its own (a resent one is answered as the original was, never applied twice).
  let shown = null;
  let sent = 0;
  const page = Math.random().toString(36).slice(2, 10);
  // The plays waiting to be shown, one by one and in order (issue 16): the board and hand are
  // never ahead of what has been shown, and the page takes no action while it shows them.
  const queue = [];
  let showing = false;
  let skipping = false;
  let current = null; // the AbortController of the state being shown
  let pace = Object.hasOwn(PACES, stored(PACE_KEY)) ? stored(PACE_KEY) : "normal";
  const send = (message) => {
    // (Not connected: socket.send says so. Meanwhile #main is inert: no play can be asked for.)
    if (message.type === "act" || message.type === "undo") {
      if (showing || queue.length) {
        skipToNow();
        toast(t("showing_plays"));
        return false;
      }
      sent += 1;
      message = { ...message, id: `${page}-${sent}`, ...(shown === null ? {} : { revision: shown }) };
    }
    return socket.send(message);
  };
  const game = module.create({ root, send });
  // Social (issue 16): the chat, the spectator's panel and the sounds' toggle.
  const chat = mountChat({ send });
  const side = root.querySelector(".side") || root;
  const watching = mountWatching(side, { tableId, info, chat: chat.element, describe: (seat, m) => game.describe(seat, m) });
  mountSounds(document.querySelector("header.topbar"));
  const endings = createEndings({ tableId, send: (message) => socket.send(message) });
  const controls = playControls();
  // (Before resign / leave and the table's links.)
  (document.getElementById("endings-top") || document.getElementById("table-nav")).before(controls.box);
  const hints = mountHints({ box: side, info, send }); // issue 32

  function playControls() {
    const select = el("select", { id: "pace", class: "pace", "aria-label": t("pace"), onchange: () => {
      pace = select.value;
      store(PACE_KEY, pace);
    } });
    const skip = el("button", { type: "button", class: "btn skip-now", id: "skip-now", hidden: true, onclick: () => skipToNow() }, "");
    const label = el("label", { class: "pace-label", for: "pace" }, "");
    const box = el("div", { class: "play-queue", id: "play-queue" }, label, select, skip);
    const render = () => {
      label.textContent = t("pace");
      select.setAttribute("aria-label", t("pace"));
      select.replaceChildren(...Object.keys(PACES).map((name) => el("option", { value: name, selected: name === pace }, t(`pace_${name}`))));
      skip.textContent = t("skip_to_now");
    };
    render();
    return { box, skip, render };
  }

  function skipToNow() {
    if (!showing && !queue.length) return;
    skipping = true;
    current?.abort();
  }

  function updateShowing() {
    const busy = showing || queue.length > 0;
    document.body.dataset.showing = busy ? "true" : "false";
    document.body.dataset.queued = String(queue.length);
    controls.skip.hidden = !busy;
  }

  // Who is online, as last heard (states wait their turn to be shown; presence news does not).
  let online = [];
  let names = null; // the seats' names, once a state has told them (for the server's refusals)
  let received = null; // the last state the server sent, rebuilt from its changes
  let before = null; // the last state shown
  const onState = (message) => {
    queue.push(message);
    updateShowing();
    if (!showing) showAll();
  };

  async function showAll() {
    showing = true;
    while (queue.length) {
      // Who is online now, on a copy of the state (the next change is patched onto the one
      // received; the game keeps this one, and notes presence news on it). Nothing nested is
      // written: patch copies what it changes.
      const message = { ...queue.shift(), online };
      updateShowing();
      current = new AbortController();
      if (skipping) current.abort();
      shown = message.revision ?? null;
      try {
        await game.applyState(endings.shown(message), { factor: skipping ? 0 : PACES[pace], signal: current.signal });
      } catch (e) {
        console.warn(e);
      }
      afterShown(message);
    }
    showing = false;
    skipping = false;
    current = null;
    updateShowing();
  }

  function afterShown(message) {
    // Set once a state is on screen (after its animation): what the browser tests wait for.
    document.body.dataset.version = String(message.version);
    document.body.dataset.actor = String(message.actor);
    const mine = (m) => m && m.actor !== null && m.seats.includes(m.actor) && !m.view.outcome;
    if (mine(message) && !(mine(before) && before.actor === message.actor)) sound("turn");
    before = message;
    watching.onState(message);
    chat.onState(message);
    endings.onState(message);
    hints.onState(message); // issue 32
    if (message.view.outcome) {
      if (info.status === "playing") {
        info.status = message.view.outcome.reason;
        nav(info);
      }
      gameOver(message, (seat) => game.describe(seat, message), endings.gameOverActions(message));
      endings.afterGameOver();
    }
  }
  socket = new TableSocket(tableId, (message) => {
    if (message.type === "welcome") {
      document.body.dataset.seats = message.seats.join(",");
      // An invite link another device used first, or a seat its inviter gave a new link.
      if (message.taken?.length) toast(t("invite_taken"), "error");
      if (message.revoked?.length) toast(t("seat_revoked"), "error");
    } else if (message.type === "revoked") {
      document.body.dataset.seats = message.seats.join(",");
      toast(t("seat_revoked"), "error");
    } else if (message.type === "state" || message.type === "change") {
      received = message.type === "state" ? message : patch(received, message.diff);
      online = received.online;
      names = received.names;
      onState(received);
    } else if (message.type === "presence") {
      online = message.online;
      game.showPresence?.(online);
      watching.onPresence(online);
    } else if (message.type === "chat") {
      chat.onMessage(message);
    } else if (message.type === "error") {
      toast(refusalText(message, names), "error");
      game.onError?.(message);
      hints.onError(); // issue 32
    } else if (!hints.onMessage(message)) { // issue 32: a hint is the hints' own
      game.onMessage?.(message);
    }
  }, setConnection);
  onLanguageChange(() => {
    setTitle();
    nav(info);
    controls.render();
    game.rerender?.();
    endings.rerender();
  });
}

main();
