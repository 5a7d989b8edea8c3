"""a player's longest run of wins found in an index of their runs: one read, however many
games they played

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 10:20:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index('ix_rating_step_runs', ['player_id', 'winning_run'], unique=False)


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_runs')
