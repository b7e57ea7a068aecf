"""The layers of docs/architecture.md: what each part of the package may import. Nothing above
core names a game (they find games through the registry), so a game plugs in from outside."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "eixample"

ALLOWED = {
    "core": {"core"},
    "ai": {"core", "ai"},
    "interop": {"core", "ai", "interop"},
    "server": {"core", "ai", "server"},
    "cli": {"core", "ai", "server", "cli"},
}
EXCEPTIONS = {
    # a game's evaluation is fitted by self-play between bots
    "games/barcelona/training.py": {"ai"},
    "games/rose_of_fire/training.py": {"ai"},
    # a game's own terminal renderer draws from its board geometry
    "cli/render/barcelona.py": {"games"},
}


def imported_layers(path: Path) -> set[str]:
    """The top-level parts of eixample (core, games, ai...) that a module imports."""
    layers = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        layers |= {name.split(".")[1] for name in names if name.startswith("eixample.") and "." in name}
    return layers


@pytest.mark.parametrize("layer", [*sorted(ALLOWED), "games"])
def test_each_layer_imports_only_what_it_may(layer: str) -> None:
    wrong = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        allowed = {"core", "games"} if layer == "games" else ALLOWED[layer]
        extra = imported_layers(path) - allowed - EXCEPTIONS.get(relative, set())
        if extra:
            wrong.append(f"{relative} imports {sorted(extra)}")
    assert not wrong, "\n".join(wrong)


def test_a_game_imports_no_other_game() -> None:
    games = [folder for folder in (PACKAGE / "games").iterdir() if (folder / "__init__.py").exists()]
    wrong = []
    for game in games:
        for path in game.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            others = [other.name for other in games
                      if other != game and f"eixample.games.{other.name}" in text]
            if others:
                wrong.append(f"{path.relative_to(PACKAGE)} names {others}")
    assert not wrong, "\n".join(wrong)
