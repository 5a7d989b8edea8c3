"""an index of each season's ratings (rating_step's season, variant, player and games), so a
season's page finds every player's last rating of it, and a player's page theirs, without
reading every step

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 19:40:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index('ix_rating_step_season', ['season', 'variant', 'player_id', 'games'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_season')
