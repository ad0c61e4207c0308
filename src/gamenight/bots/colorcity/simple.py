"""The Random and Simple Color City bots."""

from __future__ import annotations

import math
import random

from gamenight.bots.base import Budget, SeededBot
from gamenight.bots.colorcity.aiming import aim, clamp
from gamenight.colorcity.actions import Decision
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.shots import SIGMAS, Shot, Skill, executed, noise_from, normals, predict
from gamenight.colorcity.state import ColorCityView, Phase, ShotSpace, winning_sets
from gamenight.colorcity.table import Gang, Table


class RandomBot(SeededBot):
    """A shot uniform over the valid ranges (position, direction, speed and spin each
    uniform between the table's limits — most such shots miss the city, which is the
    point of a baseline), and a power decision uniform over the legal ones."""

    name = "random"

    def choose(self, view: ColorCityView) -> Shot | Decision:
        if view.phase is Phase.POWER:
            return self.rng.choice(view.legal_decisions())
        return ShotSpace(view.table).sample(self.rng)


# ---------------------------------------------------------------------- Simple


def wobbled(table: Table, shot: Shot, aim: Skill, rng: random.Random) -> Shot:
    """The shot as a bot whose own aim is only as good as a hand of skill ``aim`` sends it:
    the lower levels' handicap, drawn from the bot's generator before the seat's hand adds
    its own noise. A dexterity game's levels should differ in dexterity: a larger search
    budget alone barely shows against the hands' noise (docs/ai.md)."""
    if aim is Skill.EXACT:
        return shot
    return clamp(table, executed(shot, noise_from(SIGMAS[aim], normals(rng))))


class SimpleBot(SeededBot):
    """Aims at the square that most extends one of its own lines or blocks, picks the
    speed from the textbook slide and corrects it once against the noise-free physics.
    Lucky Day when the cube gained nothing; Purple Pain at once. ``aim``: see ``wobbled``."""

    name = "simple"

    def __init__(
        self, seed: int | None = None, budget: Budget | None = None, aim: Skill = Skill.EXACT
    ) -> None:
        super().__init__(seed, budget)
        self.aim = Skill(aim)

    def target(self, view: ColorCityView) -> int:
        """The square that most extends one of its own lines or blocks (ties at random)."""
        gang = view.to_move
        assert gang is not None
        own = int(gang)
        cells = view.cells
        best: list[int] = []
        best_score = -1
        score = dict.fromkeys(range(view.table.num_squares), 0)
        for _, squares in winning_sets(view.table.city_size):
            mine = sum(1 for s in squares if cells[s] == own)
            theirs = sum(1 for s in squares if cells[s] not in (own, EMPTY))
            value = mine * 2 + theirs  # retaking their squares helps too
            for s in squares:
                if cells[s] != own:
                    score[s] = max(score[s], value)
        for s, v in score.items():
            if cells[s] == own:
                continue
            if v > best_score:
                best, best_score = [s], v
            elif v == best_score:
                best.append(s)
        return self.rng.choice(best) if best else self.rng.randrange(view.table.num_squares)

    def shot(self, view: ColorCityView) -> Shot:
        gang = view.to_move
        assert gang is not None
        table = view.table
        tx, ty = table.square_centre(self.target(view))
        shot = aim(table, gang, tx, ty)
        # One correction from the noise-free simulation, which slides a little differently.
        pose = predict(table, gang, shot).pose
        ox, oy, _ = table.launch_frame(gang)
        wanted = math.dist((tx, ty), (ox, oy))
        got = math.dist((pose.x, pose.y), (ox, oy))
        if got > 1:
            speed = shot.speed * math.sqrt(wanted / got)
            shot = shot._replace(speed=max(table.min_speed, min(table.max_speed, speed)))
        return shot

    def decision(self, view: ColorCityView) -> Decision:
        assert view.pending is not None
        if view.to_move is Gang.GREEN:
            covered = covered_squares(view.table, view.pending)
            gained = sum(1 for s in covered if view.cells[s] != int(Gang.GREEN))
            return Decision.LUCKY_DAY if gained == 0 else Decision.PASS
        return Decision.PURPLE_PAIN  # a cube destroyed is always worth something

    def choose(self, view: ColorCityView) -> Shot | Decision:
        if view.phase is Phase.POWER:
            return self.decision(view)
        return wobbled(view.table, self.shot(view), self.aim, self.rng)
