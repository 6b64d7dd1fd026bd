"""The outbox viewer names each letter by its own kind, in Russian and English: an invitation
is an invitation, not a password reset (both carry a set-password link and stay closed). Every
kind the code writes into the outbox has a name in both languages — found by reading the code's
calls that queue letters, so a new kind without a name fails here."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from email.message import EmailMessage

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from adjudication.effects import LetterTemplate
from corrmail.db import Database
from corrmail.letters.outbox import enqueue
from corrmail.models import Role
from corrmail.models.bulletins import BulletinKind
from corrmail.paths import CHECKOUT_DIR
from corrmail.web.outbox_labels import CASE_LETTER_PREFIX, outbox_kind

#: The calls that put a letter into the outbox, and where their ``kind`` is when not a keyword.
QUEUEING_CALLS = {"post": None, "enqueue": None, "enqueue_composed": None, "_post_once": None,
                  "_deliver_once": None, "post_to_player": 2, "post_to_official": 2,
                  "post_to_officials": 2}
#: Kinds written from values the call does not spell out, and what those values are.
COMPUTED_KINDS = {
    "issue.kind.value": {kind.value for kind in BulletinKind},
    "f'case.{effect.template.value}'": {CASE_LETTER_PREFIX + t.value for t in LetterTemplate},
}


def _functions_with_kind_parameter(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [a.arg for a in node.args.args + node.args.kwonlyargs]
            if "kind" in names:
                yield node


def _kinds(expression: ast.expr, forwarding: bool) -> set[str]:
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return {expression.value}
    if isinstance(expression, ast.IfExp):
        return _kinds(expression.body, forwarding) | _kinds(expression.orelse, forwarding)
    if forwarding and isinstance(expression, ast.Name) and expression.id == "kind":
        return set()  # a function passing on the kind its own caller gave
    text = ast.unparse(expression)
    assert text in COMPUTED_KINDS, f"a letter kind this test cannot read: {text}"
    return COMPUTED_KINDS[text]


def kinds_written() -> set[str]:
    found: set[str] = set()
    for path in sorted((CHECKOUT_DIR / "corrmail").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        forwarders = {id(node) for fn in _functions_with_kind_parameter(tree)
                      for node in ast.walk(fn)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(
                function, "id", None)
            if name not in QUEUEING_CALLS:
                continue
            kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
            position = QUEUEING_CALLS[name]
            if kind is None and position is not None and len(node.args) > position:
                kind = node.args[position]
            if kind is not None:
                found |= _kinds(kind, id(node) in forwarders)
    return found


def test_the_scan_finds_the_kinds_of_every_part_of_the_service() -> None:
    kinds = kinds_written()
    for kind in ("invitation", "password_reset", "move", "repeat", "refusal", "round_sheet",
                 "final_report", "case.overstep.confirmed", "player_sheet", "start_sheet"):
        assert kind in kinds


def test_every_kind_the_code_writes_has_a_name_in_russian_and_english(app: Flask) -> None:
    unnamed = {}
    with app.test_request_context():
        for kind in sorted(kinds_written()):
            with force_locale("en"):
                english = outbox_kind(kind)
            with force_locale("ru"):
                russian = outbox_kind(kind)
            if english == kind or russian == english or not re.search("[а-яё]", russian, re.I):
                unnamed[kind] = (english, russian)
        assert unnamed == {}
        with force_locale("ru"):
            assert outbox_kind("invitation") == "Приглашение: установите пароль"
            assert outbox_kind("password_reset") == "Сброс пароля"
            assert outbox_kind("case.overstep.confirmed") == "Решение: просрочка подтверждена"
        with force_locale("en"):
            assert outbox_kind("invitation") == "Invitation: set your password"


def _letter(database: Database, kind: str) -> int:
    message = EmailMessage()
    message["From"] = "turnir@turnir.example"
    message["To"] = "player@example.org"
    message["Subject"] = f"{kind} letter"
    message["Message-ID"] = f"<{kind}@turnir.example>"
    message.set_content("Follow https://turnir.example/password#secret-token to set it.")
    with database.transaction() as session:
        return enqueue(session, message, kind=kind, tournament_id=None).id


def _kind_cells(client: FlaskClient, locale: str) -> dict[str, str]:
    with client.session_transaction() as session:
        session["locale"] = locale
    page = client.get("/admin/outbox").get_data(as_text=True)
    return dict(re.findall(r'<td class="kind" data-kind="([^"]+)">([^<]*)</td>', page))


def test_the_viewer_names_an_invitation_as_such_and_opens_neither(
    login: Callable[..., FlaskClient], database: Database,
) -> None:
    invitation = _letter(database, "invitation")
    reset = _letter(database, "password_reset")
    _letter(database, "repeat")
    director = login(Role.ORGANIZER, login="director")
    russian = _kind_cells(director, "ru")
    assert russian == {"invitation": "Приглашение: установите пароль",
                       "password_reset": "Сброс пароля",
                       "repeat": "Повтор хода без ответа"}
    english = _kind_cells(director, "en")
    assert english["invitation"] == "Invitation: set your password"
    assert english["password_reset"] == "Password reset"
    page = director.get("/admin/outbox").get_data(as_text=True)
    assert "secret-token" not in page
    for message_id in (invitation, reset):
        assert f"/admin/outbox/{message_id}\"" not in page
        assert director.get(f"/admin/outbox/{message_id}").status_code == 404
    with director.session_transaction() as session:
        session["locale"] = "ru"
    page = director.get("/admin/outbox").get_data(as_text=True)
    assert page.count("(не показывается: в письме ссылка для установки пароля)") == 2
    assert "сброс пароля: не показывается" not in page
