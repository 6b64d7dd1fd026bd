"""The domain libraries stay pure: no web framework, no ORM, no service code (brief, issue #2)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("notation", "timekeeping", "scoring", "adjudication")
FORBIDDEN_ROOTS = {"flask", "flask_login", "flask_wtf", "flask_babel", "sqlalchemy", "alembic", "corrmail"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_no_framework(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package} has no modules"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FORBIDDEN_ROOTS)
        for f in files
        if imported_roots(f) & FORBIDDEN_ROOTS
    }
    assert offenders == {}


def test_forbidden_import_is_detected(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from flask import Flask\nimport sqlalchemy.orm\nfrom . import sibling\n")
    assert imported_roots(sample) == {"flask", "sqlalchemy"}
