"""Research adapters: gamenight's games in OpenSpiel, PettingZoo and Gymnasium.

They need the ``rl`` extra (``pip install gamenight[rl]``). Import what you use:
``gamenight.envs.openspiel`` (registers the OpenSpiel games), ``gamenight.envs.centrix_v0``
and ``gamenight.envs.colorcity_v0`` (PettingZoo AEC), ``gamenight.envs.gym`` (Gymnasium).
The encodings are documented in docs/envs.md.
"""
