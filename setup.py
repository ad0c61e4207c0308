"""The one compiled part of gamenight: Centrix move generation in C (docs/benchmarks.md).

Optional: where it cannot compile (no compiler, no Python headers) the install goes on
without it and gamenight.centrix.native falls back to the pure-Python engine.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """Floating point exactly as Python does it: the bots' evaluation and ISMCTS's UCB must
    give the same values, so the same ties, on both paths, and a fused multiply-add (which
    GCC and Clang make by default where the machine has one, as on ARM) rounds once."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for extension in self.extensions:
                extension.extra_compile_args.append("-ffp-contract=off")
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "gamenight.centrix._speedups",
            ["src/gamenight/centrix/_speedups.c"],
            optional=True,
        )
    ],
)
