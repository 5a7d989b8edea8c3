"""a player's rating steps in the order played also hold their place: their page's winning
runs are read with its rating chart, from the index alone (one statement of a player's part
fewer: at ten years, 1,026 rows of result_seat joined to game and sorted)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 16:10:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

FIGURES = ['player_id', 'played_on', 'created_at', 'game_id', 'variant']
RATING = ['mu_after', 'sigma_after']


def upgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_figures')
        batch_op.create_index('ix_rating_step_figures', FIGURES + ['place'] + RATING,
                              unique=False)


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_figures')
        batch_op.create_index('ix_rating_step_figures', FIGURES + RATING, unique=False)
