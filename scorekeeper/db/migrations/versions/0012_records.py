"""records: each player's bests of each game (result_best: most kings left in one hand,
biggest pot won, biggest comeback, 5–0 deals), the table's records the most of them

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 16:30:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('result_best',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('fact', sa.String(length=40), nullable=False),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=20), nullable=False),
    sa.Column('played_on', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_result_best_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_result_best_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', 'fact', name=op.f('pk_result_best'))
    )
    with op.batch_alter_table('result_best', schema=None) as batch_op:
        batch_op.create_index('ix_result_best_records', ['variant', 'fact', 'value', 'played_on',
                              'created_at', 'game_id', 'player_id'], unique=False)
        batch_op.create_index('ix_result_best_player', ['player_id', 'variant', 'fact', 'value',
                              'played_on', 'created_at', 'game_id'], unique=False)

    # The games already played get their bests when the cache is filled again, by the
    # newest migration that changes its tables (0018).

def downgrade():
    with op.batch_alter_table('result_best', schema=None) as batch_op:
        batch_op.drop_index('ix_result_best_player')
        batch_op.drop_index('ix_result_best_records')
    op.drop_table('result_best')
