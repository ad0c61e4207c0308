"""OpenSpiel's Python search bots made fit for ``evaluate_bots``.

``open_spiel.python.algorithms.evaluate_bots.evaluate_bots`` calls ``restart_at`` on every
bot before the game and ``inform_action`` after every other player's move; OpenSpiel's Python
``ISMCTSBot`` implements neither (``SpielError: RestartAt(state) not implemented``). It
searches afresh from the root at every step, so the state it would restart at, or an action
it would be told of, changes nothing: forgetting the last search is all either needs to do.

(OpenSpiel's C++ ``MCTSBot`` and ``ISMCTSBot`` crash on every Python game, its own
``python_tic_tac_toe`` included: use the Python ones, ``open_spiel.python.algorithms.mcts``
and this wrapper, for gamenight's games.)
"""

from __future__ import annotations

import pyspiel
from open_spiel.python.algorithms import ismcts


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTSBot with ``restart_at`` and ``inform_action``; the
    constructor's arguments are ``ismcts.ISMCTSBot``'s."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        del state, player_id, action  # the next step searches from the root again
