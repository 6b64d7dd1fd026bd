"""One game reads the same figures on every page (002 §4.3.5, §4.3.6): the game page's header,
the player's home, the directors' dashboard, the claim page and the API all read the clock
through :func:`corrmail.games.page.read_clock`, and days used include the running days of the
side that owes the letter."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from corrmail.games.page import read_clock
from corrmail.games.state import stored_states
from corrmail.models import Game
from corrmail.people.player_home import player_home
from corrmail.web.api_play import _my_game
from tests.cases.test_russian_pages import _visible

if TYPE_CHECKING:
    from tests.cases.conftest import Cup


def _english(cup: Cup, who: str, url: str) -> str:
    client = cup.client(who)
    with client.session_transaction() as session:
        session["locale"] = "en"
    return " ".join(_visible(client.get(url).data.decode()).split())

#: White posted his first move; Black, who owes the reply, has been silent since.
SILENT = [("c3-d4", dt.date(2026, 9, 1), None)]
TODAY = dt.date(2026, 11, 1)


def test_a_silent_partner_reads_the_same_figures_on_every_page(cup: Cup, set_today) -> None:
    cup.play(1, 6, SILENT)
    set_today(TODAY)
    game_id = cup.games[(1, 6)]
    with cup.database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        clock = read_clock(game, stored_states(session, [game_id])[game_id], TODAY)
        white_player = game.white.player_id
        assert clock.to_move is not None and clock.to_move.value == "black"
        assert clock.days_left is not None and clock.days_left < 0
        over, limit = -clock.days_left, clock.limit
        # Black's days are his running days, not the 0 of the letters he has not written.
        assert clock.black_used == clock.days_used_in_period == limit - clock.days_left
        assert clock.black_used > 0 and clock.black_in_letters == 0
        home = player_home(session, white_player, lambda _: TODAY)
        mine = next(row for row in home.games if row.game.id == game_id)
        assert mine.partners_move and mine.partner_days_over == over
        assert mine.clock is not None and mine.clock.black_used == clock.black_used
        api = _my_game(mine)
        assert api["partner_days_over"] == over and api["your_move"] is False
        session.rollback()
    white, black = clock.white_used, clock.black_used

    page = _english(cup, "player1", f"/games/{game_id}")
    assert f"Days used W/B {white}/{black}" in page, page
    assert f"overstep: {over} days" in page
    me = _english(cup, "player1", "/me")
    assert f"partner's overstep: {over} days" in me, me
    dashboard = _english(cup, "referee", f"/dashboard/{cup.code}")
    assert re.search(rf"\b{white}/{black}\b", dashboard), dashboard
    assert f"overstep: {over} days" in dashboard
    claim = _english(
        cup, "player1", f"/cases/new/{cup.code}/overstep/preview?game={game_id}")
    assert f"{black} of {limit} days used, {-over} left" in claim, claim


def test_the_claim_link_shows_only_against_a_partner_who_owes_a_letter(
        cup: Cup, set_today) -> None:
    """On his own move a player has no overstep of his partner's to claim (002 §4.3.6); the
    partner, who owes the letter, is offered none against him either way."""
    cup.play(1, 6, SILENT)
    set_today(dt.date(2026, 9, 10))
    game_id = cup.games[(1, 6)]
    assert 'id="claim-overstep"' in cup.client("player1").get(f"/games/{game_id}").data.decode()
    assert 'id="claim-overstep"' not in cup.client("player6").get(
        f"/games/{game_id}").data.decode()
