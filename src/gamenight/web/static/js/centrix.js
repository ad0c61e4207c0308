// @ts-check
// The Centrix table's page, as modules under centrix/: the model (the state, the legal plays,
// the play being chosen), the views (board, hand, choices, players, log, the hot seat's
// curtain) and the controller. What other pages take from it is here.
export { create } from "./centrix/controller.js";
export { boardSvg } from "./centrix/board.js";
export { cardClass, cardFace, cardLabel } from "./centrix/cards.js";
export { playWords } from "./centrix/log.js";
export { fullEntry } from "./centrix/model.js";
