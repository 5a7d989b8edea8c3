"""the index of each game's winners also holds whether the game is over: a season's wins and
games per player (the roster and the season's page) are then counted from the index alone,
not each seat's row

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 15:10:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.drop_index('ix_result_seat_winners')
        batch_op.create_index('ix_result_seat_winners', ['game_id', 'won', 'player_id', 'over'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.drop_index('ix_result_seat_winners')
        batch_op.create_index('ix_result_seat_winners', ['game_id', 'won', 'player_id'],
                              unique=False)
