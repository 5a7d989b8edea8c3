"""the players' nights (tally_night): each player's finished games and wins by night,
numbered in the order played, with the running sums, kept with every change, so their page's
chart for all time reads its points by number however long the history

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 18:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tally_night',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('night_id', sa.Integer(), nullable=True),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Integer(), nullable=False),
    sa.Column('played', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_tally_night_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'number', name=op.f('pk_tally_night'))
    )
    op.create_index('ix_tally_night_best', 'tally_night', ['player_id', 'wins', 'games', 'number'], unique=False)

    # The games already played are counted by 0020, the newest migration that changes the
    # derived tables (the app's rebuild writes them all).


def downgrade():
    op.drop_index('ix_tally_night_best', table_name='tally_night')
    op.drop_table('tally_night')
