"""Only the game core (``append``, ``cases``, ``changes`` and ``state`` of ``corrmail/games/``)
changes a game.

A static check over the service's source, like ``test_pure_packages.py`` for the rule packages:
outside the core no module constructs, inserts, updates or deletes letters, the steward's
forwardings of them, results, penalties, breaks or cases, nor assigns a game's state or result
columns. Every channel — post, e-mail, web, the referee's desk and its effects, the sweep, the
API, the demo — calls the core.

Allowed exceptions, named here so they cannot grow unseen:

* ``corrmail/migrations/`` — schema and data migrations write tables directly, by design;
* ``corrmail/demo/devdata.py`` and ``corrmail/demo/federation.py`` — the generators of large test data
  sets bulk-insert letters as plain rows (``insert(Letter)``) for speed; they create data sets,
  they do not play a game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "corrmail"
#: The core's writing modules. The rest of ``corrmail/games/`` reads a game (its view, page,
#: ledger, clock) and is checked like every other module.
CORE = {ROOT / "games" / name for name in ("append.py", "cases.py", "changes.py", "state.py")}
ALLOWED = {
    ROOT / "demo" / "devdata.py": "bulk generator of test data sets",
    ROOT / "demo" / "federation.py": "bulk generator of a federation-sized data set",
}

#: Models whose rows only the core writes, as `corrmail.models` names them.
GAME_ROWS = {"Letter", "Penalty", "Break", "Case", "ProtestLetter", "Forwarding"}
#: A game's state and result columns (and a case row's columns only the core sets).
GAME_COLUMNS = {"state", "result", "result_kind", "result_rule", "result_on",
                "letter_text", "parent_case_id"}
WRITES = {"insert", "update", "delete"}
#: Assignments that look like a game's column but are not (the target as written → why).
NOT_A_GAME = {"check.result": "a postcard's verdict (play.postcards.PostcardCheck), stored by the core"}


def _modules() -> list[Path]:
    return sorted(
        path for path in ROOT.rglob("*.py")
        if path not in CORE and "migrations" not in path.parts and path not in ALLOWED
    )


def _model_names(tree: ast.Module) -> dict[str, str]:
    """Local name → model name, for the models imported from `corrmail.models`."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("corrmail.models"):
            for alias in node.names:
                if alias.name in GAME_ROWS:
                    names[alias.asname or alias.name] = alias.name
    return names


def _writes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    models = _model_names(tree)
    found: list[str] = []

    def where(node: ast.AST) -> str:
        return f"{path.relative_to(ROOT.parent)}:{getattr(node, 'lineno', 0)}"

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            if isinstance(func, ast.Name) and func.id in models:
                found.append(f"{where(node)}: constructs a {models[func.id]} row")
            elif name in WRITES and node.args:
                target = node.args[0]
                if isinstance(target, ast.Name) and target.id in models:
                    found.append(f"{where(node)}: {name}({target.id})")
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for item in ast.walk(target):
                if (isinstance(item, ast.Attribute) and item.attr in GAME_COLUMNS
                        and isinstance(item.ctx, ast.Store)
                        and ast.unparse(item) not in NOT_A_GAME):
                    found.append(f"{where(node)}: assigns .{item.attr}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "setattr" and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in GAME_COLUMNS):
            found.append(f"{where(node)}: setattr .{node.args[1].value}")
    # A bulk `insert(model)` over a list of models names no model at the call: a module that
    # imports both is a writer too.
    imports_insert = any(
        isinstance(node, ast.ImportFrom) and node.module == "sqlalchemy"
        and any(alias.name == "insert" for alias in node.names) for node in ast.walk(tree))
    if imports_insert and models:
        found.append(f"{path.relative_to(ROOT.parent)}: imports insert and "
                     + ", ".join(sorted(set(models.values()))))
    return found


def test_only_the_game_core_changes_a_game() -> None:
    offences = [offence for path in _modules() for offence in _writes(path)]
    assert offences == [], "\n".join(offences)


def test_the_check_sees_what_it_looks_for(tmp_path: Path) -> None:
    """The scan finds each kind of write (so an empty result above means something)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from sqlalchemy import update\n"
        "from corrmail.models import Penalty as P, Letter, Game\n"
        "def f(session, game):\n"
        "    session.add(P(days=6))\n"
        "    session.execute(update(Letter).values(sent=None))\n"
        "    game.state = 'finished'\n"
        "    game.result, game.result_on = 'draw', None\n"
        "    Game(id=1)\n",
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _writes(sample)
    finally:
        ROOT = saved
    kinds = sorted(line.split(": ", 1)[1] for line in found)
    assert kinds == ["assigns .result", "assigns .result_on", "assigns .state",
                     "constructs a Penalty row", "update(Letter)"]


@pytest.mark.parametrize("path", sorted(ALLOWED), ids=lambda p: p.name)
def test_allowed_exceptions_are_still_needed(path: Path) -> None:
    assert path.is_file() and _writes(path), f"{path} no longer writes game rows: drop it"


@pytest.mark.parametrize("module", ["corrmail.games", "corrmail.games.view", "corrmail.games.ledger",
                                    "corrmail.play.postcards", "corrmail.mail.cli", "corrmail.referee"])
def test_each_entry_module_imports_first(module: str) -> None:
    """The core and the modules around it import in any order (a fresh interpreter each)."""
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                               cwd=ROOT.parent, timeout=120)
    assert completed.returncode == 0, completed.stderr.decode()
