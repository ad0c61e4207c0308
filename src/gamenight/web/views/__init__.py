"""Each game's web adapter (``VIEW``), one module per registered game, found by
``gamenight.web.games.get_game``."""
