"""the winners of each game from an index (result_seat's game, won and player): history's
list of nights reads the winners of twenty nights' games without each seat's row

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 10:00:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.create_index('ix_result_seat_winners', ['game_id', 'won', 'player_id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.drop_index('ix_result_seat_winners')
