"""Refusals of a letter that belongs to no game (002 §4.2.3): a registered sender reads it in his
own language, a stranger in Russian with an English line; neither sees an internal code."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.mail.test_player_language import RAW_CODE, _speaks

D = dt.date(2026, 3, 2)


@pytest.mark.parametrize(("language", "words"), [
    ("en", "cannot accept it (002 §4.2.3): it carries no game signature"),
    ("ru", "не может его принять (002 §4.2.3): в письме нет подписи партии"),
])
def test_a_registered_sender_is_refused_in_his_language_without_codes(
    email_game, language: str, words: str,  # type: ignore[no-untyped-def]
) -> None:
    _speaks(email_game, "white", language)
    receipt = email_game.send("white", "1. c3-d4", D, to="turnir@turnir.example")
    assert receipt.outcome == "no_token"
    [refusal] = email_game.outbox(to=email_game.white_email, kind="refusal")
    assert words in refusal.body_text
    assert "no_token" not in refusal.body_text and not RAW_CODE.findall(refusal.body_text)
    assert ("(English)" in refusal.body_text) is False, "one language: his"


def test_a_stranger_is_refused_in_russian_and_english_without_codes(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D, sender="mallory@evil.example")
    [refusal] = email_game.outbox(to="mallory@evil.example", kind="refusal")
    assert "не может его принять (002 §4.2.3)" in refusal.body_text
    assert "(English) The tournament server received your letter" in refusal.body_text
    assert "sender_mismatch" not in refusal.body_text
    assert not RAW_CODE.findall(refusal.body_text.replace("mallory@evil.example", ""))
