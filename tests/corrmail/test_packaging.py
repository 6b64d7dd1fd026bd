"""The templates are found from a checkout and from an installed wheel."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from corrmail.paths import CHECKOUT_DIR, TemplatesNotFound, template_candidates, templates_dir

TEMPLATES = CHECKOUT_DIR / "templates"


def test_checkout_templates_are_found() -> None:
    assert templates_dir() == TEMPLATES


def test_installed_layout_is_found_when_there_is_no_checkout(tmp_path: Path) -> None:
    package_dir = tmp_path / "site-packages" / "corrmail"
    package_dir.mkdir(parents=True)
    installed = tmp_path / "prefix" / "share" / "corrmail" / "templates"
    installed.mkdir(parents=True)
    (installed / "base.html").write_text("{% block content %}{% endblock %}")
    assert templates_dir(package_dir, [tmp_path / "prefix"]) == installed


def test_missing_templates_name_every_place_searched(tmp_path: Path) -> None:
    package_dir = tmp_path / "corrmail"
    with pytest.raises(TemplatesNotFound) as caught:
        templates_dir(package_dir, [tmp_path / "nowhere"])
    assert caught.value.searched == template_candidates(package_dir, [tmp_path / "nowhere"])
    assert str(tmp_path / "nowhere" / "share" / "corrmail" / "templates") in str(caught.value)


def test_every_template_directory_is_shipped_as_data_files() -> None:
    pyproject = tomllib.loads((CHECKOUT_DIR / "pyproject.toml").read_text())
    data_files = pyproject["tool"]["setuptools"]["data-files"]
    for directory in [TEMPLATES, *sorted(p for p in TEMPLATES.rglob("*") if p.is_dir())]:
        target = "share/corrmail/" + str(directory.relative_to(CHECKOUT_DIR))
        assert target in data_files, f"add {target!r} to [tool.setuptools.data-files]"


@pytest.mark.slow
def test_wheel_carries_templates_translations_and_migrations(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), "."],
        cwd=CHECKOUT_DIR,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("corrmail-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    data = f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.data/data/share/corrmail/"
    for template in TEMPLATES.rglob("*.*"):
        assert data + str(template.relative_to(CHECKOUT_DIR)) in names
    assert "corrmail/translations/ru/LC_MESSAGES/messages.mo" in names
    assert "corrmail/migrations/versions/0001_first_schema.py" in names
    assert "corrmail/static/corrmail.css" in names
