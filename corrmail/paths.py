"""Where the app finds its files, from a checkout and from an installed wheel.

The wheel installs `templates/` as data files under `<prefix>/share/corrmail/templates`
(see `[tool.setuptools.data-files]` in pyproject.toml); a checkout keeps it next to the package.
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
CHECKOUT_DIR = PACKAGE_DIR.parent


class TemplatesNotFound(FileNotFoundError):
    def __init__(self, searched: list[Path]) -> None:
        super().__init__(
            f"no corrmail templates directory in any of: {', '.join(map(str, searched))}"
        )
        self.searched = searched


def template_candidates(
    package_dir: Path = PACKAGE_DIR, data_prefixes: Iterable[Path] | None = None
) -> list[Path]:
    """Directories that may hold the templates, most specific first."""
    if data_prefixes is None:
        data_prefixes = [Path(sysconfig.get_path("data")), Path(sys.prefix)]
    candidates = [package_dir.parent / "templates"]
    candidates += [prefix / "share" / "corrmail" / "templates" for prefix in data_prefixes]
    return candidates


def templates_dir(
    package_dir: Path = PACKAGE_DIR, data_prefixes: Iterable[Path] | None = None
) -> Path:
    searched = template_candidates(package_dir, data_prefixes)
    for candidate in searched:
        if (candidate / "base.html").is_file():
            return candidate
    raise TemplatesNotFound(searched)


def is_checkout() -> bool:
    return (CHECKOUT_DIR / "pyproject.toml").is_file() and (CHECKOUT_DIR / "templates").is_dir()


def var_dir() -> Path:
    """Writable state (the default SQLite file): `var/` of the checkout, else of the working dir."""
    return (CHECKOUT_DIR if is_checkout() else Path.cwd()) / "var"


MIGRATIONS_DIR = PACKAGE_DIR / "migrations"
# The one catalog of every text a person reads (pages, letters, papers, refusals).
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
