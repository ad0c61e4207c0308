"""The one compiled part of gamenight: Centrix move generation in C (docs/benchmarks.md).

Optional: where it cannot compile (no compiler, no Python headers) the install goes on
without it and gamenight.centrix.native falls back to the pure-Python engine.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gamenight.centrix._speedups",
            ["src/gamenight/centrix/_speedups.c"],
            optional=True,
        )
    ]
)
