"""letters keep the day the server relayed them to the partner by e-mail; the stored state how
the last move came

002 §4.3.1 counts a player's think time from the day he received the partner's move. A player
who plays by e-mail receives it the day the server relays it: the day it arrived when the partner
wrote by e-mail or on the web, but the day the steward entered it when the partner wrote a
postcard or telephoned — days after the card's postmark. The letters written so far keep no such
day (NULL): their receipt reads as before (the partner's dispatch for an e-mail reply, the average
transit for a clock), so no stored total changes.

The stored state keeps the channel of the last move letter: an e-mail or web move to a partner who
plays by post waits for the steward, and the dashboard counts those games. The stored states are
dropped and ``corrmail db upgrade`` recomputes them after the last migration
(``corrmail.migrate.fill_game_states``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_relay_days"
down_revision = "0018_game_state_forced_plies"


def upgrade() -> None:
    op.add_column("letters", sa.Column("relayed_on", sa.Date(), nullable=True))
    op.add_column("game_states", sa.Column("last_move_channel", sa.String(length=8), nullable=True))
    op.execute("DELETE FROM game_states")


def downgrade() -> None:
    with op.batch_alter_table("game_states") as batch:
        batch.drop_column("last_move_channel")
    with op.batch_alter_table("letters") as batch:
        batch.drop_column("relayed_on")
