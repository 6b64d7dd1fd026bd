"""letters keep the day the server relayed them to the partner by e-mail

002 §4.3.1 counts a player's think time from the day he received the partner's move. A player
who plays by e-mail receives it the day the server relays it: the day it arrived when the partner
wrote by e-mail or on the web, but the day the steward entered it when the partner wrote a
postcard or telephoned — days after the card's postmark. The letters written so far keep no such
day (NULL): their receipt reads as before (the partner's dispatch for an e-mail reply, the average
transit for a clock), so no stored total changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_letter_relayed_on"
down_revision = "0018_game_state_forced_plies"


def upgrade() -> None:
    op.add_column("letters", sa.Column("relayed_on", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("letters") as batch:
        batch.drop_column("relayed_on")
