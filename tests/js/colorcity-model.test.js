// @ts-check
/// <reference types="node" />
// Color City's page model: the shot's geometry, the pull's speed, the aim → flick state
// machine a drag on the launch cube runs, and the state read for this page.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DEAD_ZONE, PLACE_ZONE, START_AIM, canShoot, deciding, dragFlicks, dragMove, dragStart, frame, hotSeat, isLost, isNews,
  lastMarked, launchPoint, myGang, myTurn, powerLive, shotText, speedOfPull, squareName, viewGang,
} from "../../src/gamenight/web/static/js/colorcity/model.js";

// The table's measures as the view sends them (gamenight.web.views.colorcity.city, the
// default table).
const TABLE = {
  board_width: 420, board_length: 620, city_mm: 225, square_mm: 25, city_size: 9, cube_mm: 16, cubes_per_gang: 4,
  launch_y: 272.5, launch_half_width: 104.5, max_direction: 60, min_speed: 0.1, max_speed: 3, max_spin: 40,
  city_speeds: [1.048, 1.626],
};
const LINE = -TABLE.launch_y; // Green's launch line, y northward

/** A state message with ``seats`` held here and ``actor`` to act.
 * @param {{seats?: number[], actor?: number, expects?: string, phase?: string, outcome?: any, decisions?: string[]}} [given]
 * @returns {any} */
function state({ seats = [0], actor = 0, expects = "shot", phase = "shot", outcome = null, decisions = [] } = {}) {
  return {
    type: "state", active: seats.includes(actor) ? actor : seats[0] ?? null, actor, seats, version: 3,
    view: { seats: [{ gang: "green" }, { gang: "purple" }], expects, phase, outcome, decisions, to_move: actor ? "purple" : "green", log: [] },
  };
}

describe("the shot's geometry", () => {
  test("Green pitches north from the south line, Purple south from the north", () => {
    assert.deepEqual(frame("green", TABLE).origin, [0, LINE]);
    assert.deepEqual(frame("purple", TABLE).origin, [0, TABLE.launch_y]);
    const [gx, gy] = launchPoint("green", 30, TABLE);
    assert.ok(Math.abs(gx - 30) < 1e-9 && Math.abs(gy - LINE) < 1e-9, "Green's right is east");
    const [px, py] = launchPoint("purple", 30, TABLE);
    assert.ok(Math.abs(px + 30) < 1e-9 && Math.abs(py - TABLE.launch_y) < 1e-9, "Purple's right is west");
  });

  test("a square's name is its file letter then its row", () => {
    assert.equal(squareName(0, 9), "a1");
    assert.equal(squareName(8, 9), "i1");
    assert.equal(squareName(80, 9), "i9");
    assert.equal(squareName(9 * 4 + 3, 9), "d5");
  });

  test("the shot is written as the record writes it", () => {
    assert.equal(shotText(START_AIM), "0 0 1.3 0");
    assert.equal(shotText({ position: -12.25, direction: 3.5, speed: 1.255, spin: -0.04 }), "-12.3 3.5 1.25 0");
  });
});

describe("a pull's speed", () => {
  test("from the slowest shot to the fastest, the city's edges at the fine band's ends", () => {
    assert.equal(speedOfPull(0, TABLE), TABLE.min_speed);
    assert.equal(speedOfPull(1, TABLE), TABLE.max_speed);
    assert.ok(Math.abs(speedOfPull(0.2, TABLE) - (1.048 - 0.08)) < 1e-9);
    assert.ok(Math.abs(speedOfPull(0.8, TABLE) - (1.626 + 0.08)) < 1e-9);
  });

  test("a longer pull is never slower, on any table", () => {
    for (const city_speeds of [TABLE.city_speeds, [0.05, 0.07], [2.95, 3.5], undefined]) {
      const tb = { ...TABLE, city_speeds };
      let before = -Infinity;
      for (let i = 0; i <= 100; i += 1) {
        const speed = speedOfPull(i / 100, tb);
        assert.ok(speed >= before, `${JSON.stringify(city_speeds)} at ${i}%`);
        assert.ok(speed >= tb.min_speed && speed <= tb.max_speed);
        before = speed;
      }
    }
  });
});

describe("aim → flick", () => {
  test("a drag starts by sliding the cube along its line, held within its reach", () => {
    const drag = dragStart([0, LINE]);
    assert.equal(drag.mode, "place");
    const slid = dragMove(drag, { ...START_AIM }, [30.2, LINE - PLACE_ZONE / 2], "green", TABLE);
    assert.equal(slid.drag.mode, "place");
    assert.equal(slid.aim.position, 30);
    assert.equal(slid.changed, true);
    const far = dragMove(slid.drag, slid.aim, [500, LINE], "green", TABLE);
    assert.equal(far.aim.position, TABLE.launch_half_width);
    assert.equal(dragFlicks(far.drag), false, "letting go while placing flicks nothing");
  });

  test("pulled back beyond the place zone it is a slingshot: the cube flies opposite to the pull", () => {
    const drag = dragStart([0, LINE]);
    const back = dragMove(drag, { ...START_AIM }, [0, LINE - 50], "green", TABLE);
    assert.equal(back.drag.mode, "aim");
    assert.equal(back.drag.length, 50);
    assert.ok(back.aim.direction === 0, "straight ahead (either zero)");
    assert.equal(back.aim.speed, Math.round(speedOfPull((50 - DEAD_ZONE) / 110, TABLE) * 100) / 100);
    assert.equal(back.aim.position, 0, "the pull leaves the cube where it was placed");
    assert.equal(dragFlicks(back.drag), true);
    // Pulled down and west: the cube flies north-east, to Green's right (a negative angle).
    const aside = dragMove(back.drag, back.aim, [-20, LINE - 20], "green", TABLE);
    assert.equal(aside.aim.direction, -45);
  });

  test("once a slingshot, back near the line it stays one, its angle held within the table's", () => {
    const aiming = dragMove(dragStart([0, LINE]), { ...START_AIM }, [0, LINE - 40], "green", TABLE);
    const wide = dragMove(aiming.drag, aiming.aim, [30, LINE - 2], "green", TABLE);
    assert.equal(wide.drag.mode, "aim");
    assert.equal(wide.aim.position, 0);
    assert.equal(wide.aim.direction, TABLE.max_direction);
  });

  test("a pull inside the dead zone changes nothing and, let go, flicks nothing", () => {
    const aiming = dragMove(dragStart([0, LINE]), { ...START_AIM }, [0, LINE - 40], "green", TABLE);
    const near = dragMove(aiming.drag, aiming.aim, [DEAD_ZONE / 2, LINE - DEAD_ZONE / 2], "green", TABLE);
    assert.equal(near.changed, false);
    assert.deepEqual(near.aim, aiming.aim);
    assert.equal(dragFlicks(near.drag), false);
  });

  test("Purple's pull is turned with its frame", () => {
    const purple = dragMove(dragStart([0, TABLE.launch_y]), { ...START_AIM }, [0, TABLE.launch_y + 50], "purple", TABLE);
    assert.equal(purple.drag.mode, "aim");
    assert.ok(purple.aim.direction === 0, "straight ahead (either zero)");
    assert.equal(purple.aim.speed, dragMove(dragStart([0, LINE]), { ...START_AIM }, [0, LINE - 50], "green", TABLE).aim.speed);
  });
});

describe("the state read for this page", () => {
  test("whose turn, which gang, whether it may shoot", () => {
    const mine = state();
    assert.equal(myTurn(mine), true);
    assert.equal(myGang(mine), "green");
    assert.equal(canShoot(mine, false), true);
    assert.equal(canShoot(mine, true), false, "not while a shot is unanswered");
    assert.equal(canShoot(state({ expects: "power" }), false), false);
    const theirs = state({ seats: [0], actor: 1 });
    assert.equal(myTurn(theirs), false);
    assert.equal(canShoot(theirs, false), false);
    const watching = state({ seats: [], actor: 0 });
    assert.equal(myGang(watching), null);
    assert.equal(viewGang(watching, false), "green", "a spectator sees from Green's side");
  });

  test("a shared screen turns the city to the pitcher unless kept still", () => {
    const shared = state({ seats: [0, 1], actor: 1 });
    assert.equal(hotSeat(shared), true);
    assert.equal(viewGang(shared, false), "purple");
    assert.equal(viewGang(shared, true), "green", "the first seat's, kept still");
    assert.equal(hotSeat(state({ seats: [1], actor: 1 })), false);
    assert.equal(viewGang(state({ seats: [1], actor: 0 }), true), "purple", "your own gang at the bottom");
  });

  test("the power is live in the power phase after this page's gang's shot", () => {
    assert.equal(powerLive(state({ phase: "power", expects: "power", decisions: ["pass", "lucky-day"] })), true);
    assert.equal(powerLive(state({ phase: "power", expects: "power", decisions: [] })), false);
    assert.equal(powerLive(state({ seats: [0], actor: 1, phase: "power", decisions: ["pass"] })), false);
    assert.equal(deciding(state({ phase: "power" })), true);
    assert.equal(deciding(state({ phase: "power", outcome: /** @type {any} */ ({ places: [1, 2] }) })), false);
    assert.equal(deciding(null), false);
  });
});

describe("the log's entries", () => {
  test("a power kept is no news; a cube off the city is lost", () => {
    assert.equal(isNews({ notation: "pass" }), false);
    assert.equal(isNews({ notation: "lucky-day" }), true);
    assert.equal(isLost({ covered: [], lost: [] }), true);
    assert.equal(isLost({ covered: ["a1"], lost: [], fell: true }), true);
    assert.equal(isLost({ covered: ["a1"], lost: [] }), false);
    assert.equal(isLost({ notation: "pass" }), false);
  });

  test("the last move marked is the latest pitch, or the Lucky Day that voided it", () => {
    const pitch = { covered: ["a1"], lost: [] };
    assert.equal(lastMarked({ log: [pitch, { notation: "pass" }] }), pitch);
    assert.deepEqual(lastMarked({ log: [pitch, { notation: "lucky-day" }] }), { notation: "lucky-day" });
    assert.equal(lastMarked({ log: [] }), undefined);
  });
});
