// @ts-check
// The home page: choose a game, set up a table, list the tables in progress and finished.
import { api } from "./core/api.js";
import { byId, el, initPage } from "./core/dom.js";
import { onLanguageChange, refusalText, t } from "./core/i18n.js";
import { inviteRow, spectatorRow } from "./core/links.js";
import { keepHost, keepInvite, keepToken, keepWatch } from "./core/tokens.js";
import { clockFields } from "./endings.js";
import { loadMine, loadTables, renderMine, renderTables, setFilter } from "./home/lists.js";

const CENTRIX_COLOURS = ["red", "orange", "yellow", "green", "blue", "white"];
const GANGS = ["green", "purple"];
const SKILLS = ["exact", "steady", "normal", "shaky"];

const setup = {
  game: "centrix",
  variantsOpen: false,
  centrix: {
    seats: [
      { kind: "device", name: "", role: "red", level: 2 },
      { kind: "bot", name: "", role: "orange", level: 2 },
    ],
    first: 0,
    bottom: "protect",
    maxTurns: "",
  },
  colorcity: {
    seats: [
      { kind: "device", name: "", role: "green", level: 2, skill: "normal" },
      { kind: "bot", name: "", role: "purple", level: 2, skill: "normal" },
    ],
    first: "green",
    maxTurns: "",
  },
};
// The clock's fields (endings.js), drawn for what the set-up holds: main() makes them.
let clock = null;

function option(value, label, selected) {
  return el("option", { value, selected: value === selected }, label);
}

function kindSelect(seat, index, onChange) {
  const select = el(
    "select",
    { id: `seat-${index}-kind`, "aria-label": t("seat_kind_of", { n: index + 1 }), class: "seat-kind" },
    option("device", t("kind_device"), seat.kind),
    option("invite", t("kind_invite"), seat.kind),
    option("bot", t("kind_bot"), seat.kind),
  );
  select.addEventListener("change", () => {
    seat.kind = select.value;
    onChange();
  });
  return select;
}

function levelSelect(seat, index) {
  const select = el(
    "select",
    { id: `seat-${index}-level`, "aria-label": t("bot_level_of", { n: index + 1 }), class: "seat-level" },
    [1, 2, 3, 4, 5].map((n) => option(String(n), t("level_n", { n }), String(seat.level))),
  );
  select.addEventListener("change", () => (seat.level = Number(select.value)));
  return select;
}

/** The name a seat left blank gets, in the page's language ("Bot 3": numbered by seat, so
 * that bots of one level are told apart). */
function defaultName(seat, index) {
  return seat.kind === "bot" ? t("bot_name", { n: index + 1 }) : t("player_n", { n: index + 1 });
}

function nameInput(seat, index) {
  const placeholder = defaultName(seat, index);
  const input = el("input", {
    type: "text", id: `seat-${index}-name`, maxlength: 40, value: seat.name, placeholder,
    "aria-label": t("name_of", { n: index + 1 }), class: "seat-name", autocomplete: "off",
  });
  input.addEventListener("input", () => (seat.name = input.value));
  return input;
}

function renderCentrix(box) {
  const s = setup.centrix;
  const count = el("div", { class: "field-row" },
    el("span", { class: "field-label", id: "players-label" }, t("players")),
    el("div", { class: "segmented", role: "group", "aria-labelledby": "players-label" },
      [2, 3, 4, 5, 6].map((n) => el("button", {
        type: "button", class: "seg", "aria-pressed": String(s.seats.length === n), "data-count": n,
        onclick: () => setCentrixCount(n),
      }, String(n))),
    ),
  );
  const rows = s.seats.map((seat, i) => {
    const colour = el("select", {
      id: `seat-${i}-colour`, class: "seat-colour", "aria-label": t("colour_of", { n: i + 1 }),
    }, CENTRIX_COLOURS.map((c) => option(c, t(`colour_${c}`), seat.role)));
    colour.addEventListener("change", () => {
      // Colours stay distinct: the seat that had the chosen colour takes this one's.
      const other = s.seats.find((o) => o !== seat && o.role === colour.value);
      if (other) other.role = seat.role;
      seat.role = colour.value;
      renderSetup();
    });
    const youngest = el("label", { class: "youngest" },
      el("input", {
        type: "radio", name: "first", value: i, checked: s.first === i, id: `seat-${i}-first`,
        onchange: () => (s.first = i),
      }),
      el("span", {}, t("youngest")),
    );
    return el("div", { class: "seat-row", "data-seat": i },
      el("span", { class: `seat-dot dot-${seat.role}`, "aria-hidden": "true" }),
      colour, nameInput(seat, i), kindSelect(seat, i, renderSetup),
      seat.kind === "bot" ? levelSelect(seat, i) : el("span", { class: "level-gap" }),
      youngest,
    );
  });
  const bottom = el("select", { id: "rule-bottom" },
    ["protect", "knock_off", "floor"].map((b) => option(b, t(`bottom_${b}`), s.bottom)));
  bottom.addEventListener("change", () => (s.bottom = bottom.value));
  const cap = el("input", {
    type: "number", id: "rule-turns", min: 1, max: 999, value: s.maxTurns, placeholder: t("no_limit"),
  });
  cap.addEventListener("input", () => (s.maxTurns = cap.value));
  box.append(
    count,
    el("div", { class: "seat-list" }, rows),
    el("p", { class: "hint" }, t("youngest_hint")),
    variantsBox(
      el("summary", {}, t("rule_variants")),
      el("div", { class: "field-row" }, el("label", { for: "rule-bottom", class: "field-label" }, t("bottom_rule")), bottom),
      el("div", { class: "field-row" }, el("label", { for: "rule-turns", class: "field-label" }, t("turn_cap")), cap),
    ),
  );
}

function setCentrixCount(n) {
  const seats = setup.centrix.seats;
  while (seats.length < n) {
    const free = CENTRIX_COLOURS.find((c) => !seats.some((s) => s.role === c));
    seats.push({ kind: "bot", name: "", role: free || "", level: 2 });
  }
  seats.length = n;
  if (setup.centrix.first >= n) setup.centrix.first = 0;
  renderSetup();
}

function renderColorCity(box) {
  const s = setup.colorcity;
  const rows = s.seats.map((seat, i) => {
    const gang = el("select", { id: `seat-${i}-gang`, class: "seat-gang", "aria-label": t("gang_of", { n: i + 1 }) },
      GANGS.map((g) => option(g, t(`gang_${g}`), seat.role)));
    gang.addEventListener("change", () => {
      seat.role = gang.value;
      renderSetup();
    });
    const skill = el("select", { id: `seat-${i}-skill`, class: "seat-skill", "aria-label": t("skill_of", { n: i + 1 }), title: t("skill_help") },
      SKILLS.map((k) => option(k, t(`skill_${k}`), seat.skill)));
    skill.addEventListener("change", () => (seat.skill = skill.value));
    const remove = el("button", {
      type: "button", class: "btn btn-icon", "aria-label": t("remove_seat", { n: i + 1 }),
      disabled: s.seats.length <= 2, onclick: () => {
        s.seats.splice(i, 1);
        renderSetup();
      },
    }, "✕");
    return el("div", { class: "seat-row", "data-seat": i },
      el("span", { class: `seat-dot dot-${seat.role}`, "aria-hidden": "true" }),
      gang, nameInput(seat, i), kindSelect(seat, i, renderSetup),
      seat.kind === "bot" ? levelSelect(seat, i) : el("span", { class: "level-gap" }),
      skill, remove,
    );
  });
  const add = el("button", {
    type: "button", class: "btn", id: "add-seat", disabled: s.seats.length >= 8, onclick: () => {
      const greens = s.seats.filter((x) => x.role === "green").length;
      const role = greens > s.seats.length - greens ? "purple" : "green";
      s.seats.push({ kind: "device", name: "", role, level: 2, skill: "normal" });
      renderSetup();
    },
  }, `+ ${t("add_player")}`);
  const first = el("select", { id: "first-gang" }, GANGS.map((g) => option(g, t(`gang_${g}`), s.first)));
  first.addEventListener("change", () => (s.first = first.value));
  const cap = el("input", { type: "number", id: "rule-turns", min: 1, max: 999, value: s.maxTurns, placeholder: t("no_limit") });
  cap.addEventListener("input", () => (s.maxTurns = cap.value));
  box.append(
    el("p", { class: "hint" }, t("gangs_hint")),
    el("div", { class: "seat-list" }, rows),
    el("div", { class: "field-row" }, add),
    el("div", { class: "field-row" }, el("label", { for: "first-gang", class: "field-label" }, t("who_starts")), first),
    variantsBox(
      el("summary", {}, t("rule_variants")),
      el("div", { class: "field-row" }, el("label", { for: "rule-turns", class: "field-label" }, t("turn_cap")), cap),
    ),
  );
}

/** The "Rule variants" fold, which stays open or shut when the set-up is drawn again
 * (another game, another language). */
function variantsBox(...children) {
  const box = el("details", { class: "variants", open: setup.variantsOpen }, ...children);
  box.addEventListener("toggle", () => (setup.variantsOpen = box.open));
  return box;
}

function renderSetup() {
  for (const card of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".game-card"))) {
    const checked = card.dataset.game === setup.game;
    card.setAttribute("aria-checked", String(checked));
    card.tabIndex = checked ? 0 : -1; // a radio group is one Tab stop; arrows move in it
  }
  const box = byId("setup-fields", HTMLElement);
  box.replaceChildren();
  box.className = `${setup.game}-setup`;
  if (setup.game === "centrix") renderCentrix(box);
  else renderColorCity(box);
  clock?.draw(); // an invited seat, or the number of seats, changes which apply
}

/** What the clock's fields need of the set-up. */
function clockTable() {
  const seats = setup[setup.game].seats;
  return { invited: seats.some((seat) => seat.kind === "invite"), seats: seats.length };
}

function requestBody() {
  const s = setup[setup.game];
  const seats = s.seats.map((seat, index) => ({
    kind: seat.kind,
    name: seat.name.trim() || defaultName(seat, index),
    level: seat.kind === "bot" ? seat.level : null,
    role: seat.role,
    ...(setup.game === "colorcity" ? { skill: seat.skill } : {}),
  }));
  const rules = {};
  if (s.maxTurns) rules.max_turns = Number(s.maxTurns);
  if (setup.game === "centrix" && s.bottom !== "protect") rules.bottom = s.bottom;
  // Unset: the server's default (unlisted when a seat is invited).
  const visibility = byId("visibility", HTMLSelectElement).value || undefined;
  // Issue 32 (docs/rules/table.md, T11): unset, hints only where no seat is invited.
  const hints = { on: true, off: false }[byId("hints", HTMLSelectElement).value];
  return { game: setup.game, seats, first: s.first, rules, visibility, hints, clock: clock.settings() };
}

async function submit(event) {
  event.preventDefault();
  const error = byId("setup-error", HTMLElement);
  error.hidden = true;
  // Checked here so that the message is in the page's language (the server's is English).
  const turns = document.getElementById("rule-turns");
  if (turns instanceof HTMLInputElement && !turns.checkValidity()) {
    error.textContent = t("turns_invalid");
    error.hidden = false;
    turns.closest("details")?.setAttribute("open", "");
    turns.focus();
    return;
  }
  const body = requestBody();
  if (setup.game === "colorcity") {
    for (const gang of GANGS) {
      if (!body.seats.some((s) => s.role === gang)) {
        error.textContent = t("gang_needs_player", { gang: t(`gang_${gang}`) });
        error.hidden = false;
        return;
      }
    }
  }
  const button = byId("start", HTMLButtonElement);
  button.disabled = true;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    keepWatch(made.id, made.watch); // an unlisted table's spectator link, for its host
    keepHost(made.id, made.host);
    const invited = [];
    for (const seat of made.seats) {
      if (!seat.token) continue;
      if (seat.invite) {
        keepInvite(made.id, seat.seat, seat.token, seat.renew);
        invited.push(seat);
      } else {
        keepToken(made.id, seat.seat, seat.token);
      }
    }
    if (invited.length) await showInvites(made.id, invited, made.watch);
    else location.assign(`/table/${made.id}`);
  } catch (exc) {
    error.textContent = refusalText(exc);
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
}

async function showInvites(table, seats, watch) {
  const panel = byId("invite-panel", HTMLElement);
  const list = byId("invite-list", HTMLElement);
  list.replaceChildren(
    ...await Promise.all(seats.map((seat) => inviteRow(table, seat.seat, seat.name, seat.token))),
    el("p", { class: "hint" }, t("qr_help")),
    ...(watch ? [el("p", { class: "hint" }, t("spectator_help")), await spectatorRow(table, watch)] : []),
  );
  byId("go-table", HTMLAnchorElement).href = `/table/${table}`;
  panel.hidden = false;
  panel.scrollIntoView({ behavior: "smooth" });
}


async function main() {
  await initPage();
  const cards = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".game-card"))];
  for (const card of cards) {
    card.addEventListener("click", () => {
      setup.game = card.dataset.game || setup.game;
      renderSetup();
    });
    card.addEventListener("keydown", (event) => {
      const step = /** @type {Record<string, number>} */ ({ ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 })[event.key];
      if (!step) return;
      event.preventDefault();
      const next = cards[(cards.indexOf(card) + step + cards.length) % cards.length];
      next.click();
      next.focus();
    });
  }
  for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".tab"))) {
    tab.addEventListener("click", () => {
      setFilter(tab.getAttribute("data-filter") || "playing");
    });
  }
  byId("setup", HTMLFormElement).addEventListener("submit", submit);
  clock = clockFields(clockTable);
  byId("visibility", HTMLSelectElement).closest(".field-row")?.after(clock.box);
  onLanguageChange(() => {
    renderSetup();
    renderTables();
    renderMine();
  });
  renderSetup();
  await Promise.all([loadTables(), loadMine()]);
}

main();
