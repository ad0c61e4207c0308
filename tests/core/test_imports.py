"""No module imports a name starting with ``_`` from another package of gamenight (the
layers themselves are import-linter's contract in pyproject.toml, run by ``make lint``)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def package_of(module: str) -> str:
    """``gamenight.centrix`` for ``gamenight.centrix.state``: the unit privacy is kept in."""
    return ".".join(module.split(".")[:2])


def module_name(path: Path, src: Path) -> str:
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_imports(path: Path, src: Path = SRC) -> list[str]:
    """Each ``from X import _y`` (or ``import X._y``) in ``path`` where X is a gamenight
    module of another package than the module's own."""
    here = module_name(path, src)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("gamenight"):
                continue
            if package_of(node.module) == package_of(here):
                continue
            hidden = [a.name for a in node.names if is_private(a.name)]
            hidden += [p for p in node.module.split(".") if is_private(p)]
            found += [f"{here}: from {node.module} import {name}" for name in hidden]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith("gamenight") or package_of(alias.name) == package_of(
                    here
                ):
                    continue
                if any(is_private(p) for p in alias.name.split(".")):
                    found.append(f"{here}: import {alias.name}")
    return found


def test_no_module_imports_a_private_name_from_another_package() -> None:
    found = [hit for path in sorted(SRC.rglob("*.py")) for hit in private_imports(path)]
    assert found == []


def test_the_check_sees_a_private_import_across_packages(tmp_path: Path) -> None:
    bad = tmp_path / "gamenight" / "bots" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "from __future__ import annotations\n"
        "from gamenight.centrix.state import _neighbours\n"
        "from gamenight.bots.base import _private_here\n"  # the same package: allowed
        "import gamenight.centrix._hidden\n"
    )
    assert private_imports(bad, tmp_path) == [
        "gamenight.bots.x: from gamenight.centrix.state import _neighbours",
        "gamenight.bots.x: import gamenight.centrix._hidden",
    ]


def defined_privates(package: Path) -> set[str]:
    """The ``_names`` a package defines itself: functions, classes, attributes it assigns."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {name for name in names if is_private(name)}


# The standard library's public names despite their underscore: NamedTuple's API, and
# os._exit (a bot worker whose server died leaves at once, running no clean-up of its own).
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_exit"}


def foreign_private_attributes(package: Path) -> list[str]:
    """Each ``x._name`` in ``package`` (x not ``self``/``cls``) whose ``_name`` the package
    does not define: a private of another package's objects."""
    own = defined_privates(package) | NAMEDTUPLE_API
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if node.attr not in own:
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_package_reaches_into_another_packages_private_attributes() -> None:
    found = [
        hit
        for package in sorted((SRC / "gamenight").iterdir())
        if package.is_dir() and package.name != "__pycache__"
        for hit in foreign_private_attributes(package)
    ]
    assert found == []
