"""The engines' public surface: every public object says what it is, and every module
imports on its own."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

PACKAGES = ("gamenight.core", "gamenight.centrix", "gamenight.colorcity")


def engine_modules() -> list[ModuleType]:
    modules = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        modules.append(package)
        for info in pkgutil.iter_modules(package.__path__):
            modules.append(importlib.import_module(f"{name}.{info.name}"))
    return modules


def has_own_docstring(obj: object, name: str) -> bool:
    target = obj.fget if isinstance(obj, property) else obj
    doc = (getattr(target, "__doc__", None) or "").strip()
    # Dataclasses and NamedTuples make up a docstring from the signature: that is none.
    return bool(doc) and not (inspect.isclass(obj) and doc.startswith(f"{name}("))


def undocumented() -> list[str]:
    """Public functions, classes, methods and properties without a docstring of their own
    (enum members and NamedTuple or dataclass fields are values, not listed)."""
    missing: list[str] = []
    for module in engine_modules():
        if not has_own_docstring(module, module.__name__):
            missing.append(module.__name__)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue  # private, or imported from elsewhere (checked where it is defined)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            where = f"{module.__name__}.{name}"
            if not has_own_docstring(obj, name):
                missing.append(where)
            if not inspect.isclass(obj):
                continue
            for member_name, member in vars(obj).items():
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                if member_name.startswith("_") or not (
                    isinstance(member, property) or inspect.isfunction(member)
                ):
                    continue
                if not has_own_docstring(member, member_name):
                    missing.append(f"{where}.{member_name}")
    return missing


def test_every_public_object_of_the_engines_has_a_docstring() -> None:
    assert undocumented() == []


@pytest.mark.parametrize("module", [m.__name__ for m in engine_modules()])
def test_each_engine_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    # An import cycle can hide behind whatever the other tests happened to import first.
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
