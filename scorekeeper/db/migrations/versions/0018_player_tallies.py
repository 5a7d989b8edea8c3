"""the players' all-time tallies (tally_seat, tally_fact, tally_pair): the results cache
summed by player, kept with every change, so the roster and a player's page for all time
read a few rows however long the history

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 12:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tally_seat',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=20), nullable=False),
    sa.Column('over', sa.Boolean(), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_tally_seat_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'variant', 'over', 'won', name=op.f('pk_tally_seat'))
    )
    op.create_table('tally_fact',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('fact', sa.String(length=40), nullable=False),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_tally_fact_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'fact', name=op.f('pk_tally_fact'))
    )
    op.create_table('tally_pair',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('other_id', sa.Integer(), nullable=False),
    sa.Column('outcome', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_tally_pair_player_id_player'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['other_id'], ['player.id'], name=op.f('fk_tally_pair_other_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'other_id', 'outcome', name=op.f('pk_tally_pair'))
    )

    # The games already played are counted by 0020, the newest migration that changes the
    # cache's tables (the app's rebuild writes them all).


def downgrade():
    op.drop_table('tally_pair')
    op.drop_table('tally_fact')
    op.drop_table('tally_seat')
