"""The route table of ``docs/architecture.md``, written from the app's real ``url_map``.

``python -m corrmail.web.route_table docs/architecture.md`` rewrites the table between its two
markers; ``tests/corrmail/test_architecture_doc.py`` fails when the file is not what this writes,
so the table cannot drift from the app.
"""

from __future__ import annotations

import sys
from pathlib import Path

from flask import Flask

BEGIN = "<!-- route table: python -m corrmail.web.route_table docs/architecture.md -->"
END = "<!-- end of route table -->"


def route_table(app: Flask) -> str:
    """One row per rule: the blueprint, the methods (besides HEAD and OPTIONS), rule, endpoint."""
    rows = []
    for rule in app.url_map.iter_rules():
        methods = ",".join(sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))
        blueprint = rule.endpoint.rpartition(".")[0] or "(app)"
        rows.append((blueprint, rule.rule, methods, rule.endpoint))
    lines = ["| Blueprint | Method | Rule | Endpoint |", "|---|---|---|---|"]
    lines += [f"| `{blueprint}` | {methods} | `{rule}` | `{endpoint}` |"
              for blueprint, rule, methods, endpoint in sorted(rows)]
    return "\n".join(lines)


def with_table(text: str, table: str) -> str:
    """``text`` with the block between the markers replaced by ``table``."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the route table's markers are missing: {BEGIN!r} … {END!r}")
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def documentation_app() -> Flask:
    from corrmail.app import create_app
    from corrmail.config import Settings

    return create_app(Settings(database_url="sqlite:///:memory:", secret_key="route-table"))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m corrmail.web.route_table docs/architecture.md", file=sys.stderr)
        return 2
    path = Path(args[0])
    path.write_text(with_table(path.read_text(encoding="utf-8"),
                               route_table(documentation_app())), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
