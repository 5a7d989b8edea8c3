"""skill ratings per variant (rating_step, one row a player a finished game) and the seasons
the table names itself (season)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 14:10:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_order', ['variant', 'played_on', 'created_at', 'id'], unique=False)
    op.create_table('season',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('first_day', sa.Date(), nullable=False),
    sa.Column('last_day', sa.Date(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season')),
    sa.UniqueConstraint('name', name=op.f('uq_season_name'))
    )
    op.create_table('rating_step',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=20), nullable=False),
    sa.Column('played_on', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('season', sa.String(length=40), nullable=False),
    sa.Column('place', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=False),
    sa.Column('sigma_before', sa.Float(), nullable=False),
    sa.Column('mu_after', sa.Float(), nullable=False),
    sa.Column('sigma_after', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_rating_step_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_rating_step_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_rating_step'))
    )
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index('ix_rating_step_line', ['player_id', 'variant', 'games'], unique=False)
        batch_op.create_index('ix_rating_step_roster', ['variant', 'player_id', 'games'], unique=False)
        batch_op.create_index('ix_rating_step_order', ['variant', 'played_on', 'created_at', 'game_id'], unique=False)

    # The games already played are rated by 0020, the newest migration that changes the
    # ratings' table (the app's rebuild writes every column it has at the head).


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_order')
        batch_op.drop_index('ix_rating_step_roster')
        batch_op.drop_index('ix_rating_step_line')
    op.drop_table('rating_step')
    op.drop_table('season')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_order')
