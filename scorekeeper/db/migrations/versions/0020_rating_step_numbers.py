"""a player's rating steps numbered in the order played, every variant's, each with the
wins in a row it ends: their page's chart reads only the steps it draws, and their runs come
from an index, however long their history

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 08:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None

FIGURES = ['player_id', 'played_on', 'created_at', 'game_id', 'variant', 'place',
           'mu_after', 'sigma_after']


def upgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.add_column(sa.Column('number', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('winning_run', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.drop_index('ix_rating_step_figures')
        batch_op.create_index('ix_rating_step_played',
                              ['player_id', 'played_on', 'created_at', 'game_id'], unique=False)
        batch_op.create_index('ix_rating_step_number', ['player_id', 'number', 'winning_run'],
                              unique=False)
        batch_op.create_index('ix_rating_step_chart', ['player_id', 'variant', 'number'],
                              unique=False)

    # The games already played are counted here, the newest migration that changes the
    # derived tables: the results cache is filled again by the app's own rules (a database
    # from before the cache, 0003, is filled here too), its tallies with it, then the
    # ratings, numbered, read from its seats.
    from sqlalchemy.orm import Session

    from scorekeeper.db import results
    from scorekeeper.reports import ratings

    session = Session(bind=op.get_bind())
    results.rebuild(session)
    ratings.rebuild(session)


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_chart')
        batch_op.drop_index('ix_rating_step_number')
        batch_op.drop_index('ix_rating_step_played')
        batch_op.create_index('ix_rating_step_figures', FIGURES, unique=False)
        batch_op.drop_column('winning_run')
        batch_op.drop_column('number')
