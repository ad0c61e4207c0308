// @ts-check
// The shared modules of every page, under one name for the modules not yet moved to them
// (centrix.js): a barrel only. New code imports js/core/*.js directly; this file goes once
// nothing imports it.
export { api, checkInvite } from "./core/api.js";
export { el, initPage, keepWordsLegible, setBoardAspect, sound, svgElement, toast, trackTopbar } from "./core/dom.js";
export { lang, onLanguageChange, ordinal, refusalText, t } from "./core/i18n.js";
export { inviteRow, spectatorRow } from "./core/links.js";
export { patch } from "./core/patch.js";
export { logEntry, mySeat, renderTurnBanner, seatBadges } from "./core/seats.js";
export { TableSocket } from "./core/socket.js";
export { boardThen, replaySteps } from "./core/then.js";
export {
  claimTokenFromUrl, forgetTable, forgetToken, heldTables, heldTokens, invites, keepHost, keepInvite, keepToken, keepWatch,
  keyed, store, stored, watchToken,
} from "./core/tokens.js";
