"""A player never sees or acts on another player's private data: every route of the players'
web and API, tried by the partner, a stranger, an official and nobody; and the error pages
in the reader's language, each with a way back."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from corrmail.models import Role, User
from corrmail.people.api_tokens import issue_token
from tests.play.conftest import START, WebGame

D = START + dt.timedelta(days=2)


def _token(web_game: WebGame, login: str) -> dict[str, str]:
    from sqlalchemy import select

    with web_game.database.transaction() as session:
        user = session.scalar(select(User).where(User.login == login))
        assert user is not None
        return {"Authorization": f"Bearer {issue_token(session, user, 'test')}"}


def test_a_stranger_gets_403_on_every_route_of_a_game_not_his(web_game: WebGame) -> None:
    web_game.play("white", "c3-d4", D, variants="если f6-g5, то g3-h4")
    stranger = web_game.client("third")
    game = web_game.game_id
    for path in (f"/games/{game}", f"/games/{game}/legal-moves.json", f"/games/{game}/game.pdn"):
        response = stranger.get(path)
        assert response.status_code == 403, path
        assert "g3-h4" not in response.get_data(as_text=True)
    posted = stranger.post(f"/games/{game}/play", data={"move": "f6-g5", "action": "confirm"})
    assert posted.status_code == 403
    assert web_game.plies() == ["c3-d4"]


def test_my_games_lists_only_his_games_and_never_the_partners_variants(web_game: WebGame) -> None:
    web_game.play("white", "c3-d4", D, variants="если f6-g5, то g3-h4")
    white = web_game.client("white").get("/me").get_data(as_text=True)
    black = web_game.client("black").get("/me").get_data(as_text=True)
    third = web_game.client("third").get("/me").get_data(as_text=True)
    assert f'data-game="{web_game.game_id}"' in white and f'data-game="{web_game.game_id}"' in black
    assert f'data-game="{web_game.game_id}"' not in third
    # The variant travels in White's letter to Black (002 §4.2.7): both see it, the stranger never.
    assert "g3-h4" in white and "g3-h4" in black
    assert "g3-h4" not in third and "f6-g5" not in third


def test_the_game_page_hides_the_board_controls_from_others(web_game: WebGame,
                                                            login: Callable[..., FlaskClient]) -> None:
    game = web_game.game_id
    white = web_game.client("white").get(f"/games/{game}").get_data(as_text=True)
    assert 'id="play-board"' in white and "board.js" in white
    black = web_game.client("black").get(f"/games/{game}").get_data(as_text=True)
    assert 'id="play-board"' not in black  # not his move: no board to move on
    assert 'id="play-form"' in black  # but a break notice or a resignation
    organizer = login(Role.ORGANIZER).get(f"/games/{game}").get_data(as_text=True)
    assert 'id="play-form"' not in organizer
    refused = login(Role.ORGANIZER, login="boss").post(f"/games/{game}/play",
                                                      data={"move": "c3-d4"})
    assert refused.status_code == 403


def test_the_tournament_page_links_only_games_the_reader_may_open(web_game: WebGame,
                                                                 other_game_id: int) -> None:
    from urllib.parse import quote

    page = web_game.client("white").get(f"/tournaments/{quote(web_game.tournament_code)}")
    text = page.get_data(as_text=True)
    assert f'href="/games/{web_game.game_id}"' in text
    assert f'href="/games/{other_game_id}"' not in text


@pytest.mark.parametrize("locale,title,back", [
    ("ru", "Эта страница вам недоступна", "Вернуться к моим партиям"),
    ("en", "Not yours to see", "Back to my games"),
])
def test_403_and_404_pages_speak_the_readers_language_with_a_way_back(
        web_game: WebGame, other_game_id: int, locale: str, title: str, back: str) -> None:
    client = web_game.client("white")
    client.post("/locale", data={"locale": locale})
    forbidden = client.get(f"/games/{other_game_id}")
    assert forbidden.status_code == 403
    text = forbidden.get_data(as_text=True)
    assert title in text and back in text and 'href="/me"' in text
    assert "Werkzeug" not in text and "Forbidden" not in text
    missing = client.get("/games/999999")
    assert missing.status_code == 404 and 'id="way-back"' in missing.get_data(as_text=True)


def test_a_player_lands_on_his_games_and_an_official_keeps_his_pages(
        web_game: WebGame, login: Callable[..., FlaskClient]) -> None:
    client = web_game.app.test_client()
    response = client.post("/login", data={"login": "white", "password": "correct horse battery"})
    assert response.headers["Location"] == "/me"
    assert client.get("/").headers["Location"] == "/me"
    official = login(Role.REFEREE)
    assert official.get("/").headers["Location"] == "/tournaments/"
    assert official.get("/me").headers["Location"] == "/dashboard/"


# -- the API ----------------------------------------------------------------------------------


def test_api_my_games_and_legal_moves(web_game: WebGame) -> None:
    client = web_game.app.test_client()
    white = _token(web_game, "white")
    games = client.get("/api/v1/me/games", headers=white).json["games"]
    assert [game["id"] for game in games] == [web_game.game_id]
    mine = games[0]
    assert mine["your_move"] is True and mine["to_move"] == "white"
    # Days used count White's running days since the start, as every page does (002 §4.3.6).
    assert mine["days_left"] is not None and mine["days_used"] == mine["days_used_in_period"] > 0
    moves = client.get(f"/api/v1/games/{web_game.game_id}/legal-moves", headers=white).json
    assert sorted(moves["moves"]) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    third = _token(web_game, "third")
    assert client.get("/api/v1/me/games", headers=third).json["games"][0]["id"] != web_game.game_id
    assert client.get(f"/api/v1/games/{web_game.game_id}/legal-moves",
                      headers=third).status_code == 403
    assert client.get("/api/v1/me/games").status_code == 401


def test_api_move_answers_with_the_rule_and_stores_only_a_good_letter(web_game: WebGame) -> None:
    client = web_game.app.test_client()
    url = f"/api/v1/games/{web_game.game_id}/moves"
    white, black, third = (_token(web_game, name) for name in ("white", "black", "third"))
    assert client.post(url, json={"move": "c3-d4"}).status_code == 401
    assert client.post(url, json={"move": "c3-d4"}, headers=third).status_code == 403
    early = client.post(url, json={"move": "f6-g5"}, headers=black)
    assert early.status_code == 409 and early.json["rule"] == "002 §4.2.8"
    short = client.post(url, json={"move": "cd4"}, headers=white)
    assert short.status_code == 422 and short.json["rule"] == "002 §4.2.2"
    illegal = client.post(url, json={"move": "c3-e5"}, headers=white)
    assert illegal.status_code == 422 and illegal.json["rule"] == "002 §4.2.10"
    bad_variant = client.post(url, json={"move": "c3-d4", "variants": "если f6-f5, то g3-h4"},
                              headers=white)
    assert bad_variant.status_code == 422 and bad_variant.json["rule"] in ("002 §4.2.7",
                                                                           "002 §4.2.12")
    for received in ("12.11.2026", 20261112, "2026-13-01"):
        bad_date = client.post(url, json={"move": "c3-d4", "received": received}, headers=white)
        assert bad_date.status_code == 400 and bad_date.json["rule"] == "002 §4.3.1", received
    assert web_game.letters() == [] and web_game.outbox() == []
    sent = client.post(url, json={"move": "c3-d4", "variants": "если f6-g5, то g3-h4"},
                       headers=white)
    assert sent.status_code == 201, sent.json
    assert sent.json["letter"]["channel"] == "web" and sent.json["letter"]["moves"] == "c3-d4"
    assert web_game.outbox(to=web_game.black_email, kind="move")
    again = client.post(url, json={"move": "g3-h4"}, headers=white)
    assert again.status_code == 409


def test_api_officials_read_legal_moves_but_cannot_move(web_game: WebGame,
                                                       make_user: Callable[..., User]) -> None:
    make_user("director", Role.ORGANIZER)
    organizer = _token(web_game, "director")
    client = web_game.app.test_client()
    moves = client.get(f"/api/v1/games/{web_game.game_id}/legal-moves", headers=organizer)
    assert moves.status_code == 200 and "c3-d4" in moves.json["moves"]
    refused = client.post(f"/api/v1/games/{web_game.game_id}/moves", json={"move": "c3-d4"},
                          headers=organizer)
    assert refused.status_code == 403
    assert web_game.letters() == []




def test_a_held_reply_is_kept_from_the_accused_player_on_every_route(web_game: WebGame) -> None:
    """002 §4.3.6: the claimant's reply stays with him and the officials until the decision."""
    from sqlalchemy import select

    from corrmail.models import Case

    web_game.play("white", "c3-d4", D)
    receipt = web_game.email("black", "1. c3-d4 h6-g5\nОбъявляю вам просрочку.",
                             D + dt.timedelta(days=3))
    assert receipt.outcome == "overstep_claimed"
    with web_game.database.session() as session:
        case_id = session.scalar(select(Case.id).where(Case.game_id == web_game.game_id))
    game = web_game.game_id
    accused, claimant = web_game.client("white"), web_game.client("black")
    for path in (f"/games/{game}", f"/cases/{case_id}"):
        assert "h6-g5" not in accused.get(path).get_data(as_text=True), path
        assert "h6-g5" in claimant.get(path).get_data(as_text=True), path
    api = web_game.app.test_client()
    letters = api.get(f"/api/v1/games/{game}/letters", headers=_token(web_game, "white")).json
    assert all("h6-g5" not in (letter["raw_text"] or "") for letter in letters["letters"])
    assert "h6-g5" not in str(api.get("/api/v1/me/games", headers=_token(web_game, "white")).json)
    mine = api.get(f"/api/v1/games/{game}/letters", headers=_token(web_game, "black")).json
    assert any("h6-g5" in (letter["raw_text"] or "") for letter in mine["letters"])
