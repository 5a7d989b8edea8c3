"""player figures summed from the results cache: the player tallies, and the change stamp's
row, are gone

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 05:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    op.drop_table('player_tally')
    op.execute(sa.text("DELETE FROM setting WHERE name = 'stamp'"))


def downgrade():
    # The table comes back empty: the version that read it fills it with `results rebuild`.
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
