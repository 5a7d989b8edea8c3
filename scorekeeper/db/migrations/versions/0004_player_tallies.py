"""player tallies, and an index on when a game last changed

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 06:40:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_tally',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('key', sa.String(length=40), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Integer(), nullable=False),
    sa.Column('ahead', sa.Integer(), nullable=False),
    sa.Column('behind', sa.Integer(), nullable=False),
    sa.Column('level', sa.Integer(), nullable=False),
    sa.Column('night_id', sa.Integer(), nullable=True),
    sa.Column('day', sa.Date(), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_tally_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'kind', 'key', name=op.f('pk_player_tally'))
    )
    with op.batch_alter_table('player_tally', schema=None) as batch_op:
        batch_op.create_index('ix_player_tally_nights', ['player_id', 'kind', 'day', 'night_id'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_updated_at'), ['updated_at'], unique=False)

    # The results cache is filled for the games already played by 0012, the newest
    # migration to change its tables, with the app's own rules (run here, they would write
    # tables that do not exist yet).


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_updated_at'))

    op.drop_table('player_tally')
