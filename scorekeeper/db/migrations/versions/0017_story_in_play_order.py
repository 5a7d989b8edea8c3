"""the index of games by day also holds when each was entered: every game in the order
played (day, then entered, then id), which a night's story now reads back along, as a
player's ratings and runs count

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 16:50:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_played_on')
        batch_op.create_index('ix_game_played_on', ['played_on', 'created_at', 'id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_played_on')
        batch_op.create_index('ix_game_played_on', ['played_on', 'id'], unique=False)
