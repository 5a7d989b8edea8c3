"""a player's figures counted from indexes: the results cache's seats carry their game's
variant and whether it is over, head-to-head has a table of its own (result_pair)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 11:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('variant', sa.String(length=20), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('over', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    # Filled from the games they belong to; the defaults were only for the rows already there.
    op.execute(sa.text(
        "UPDATE result_seat SET "
        "variant = (SELECT game.variant FROM game WHERE game.id = result_seat.game_id), "
        '"over" = (SELECT game_result."over" FROM game_result '
        "WHERE game_result.game_id = result_seat.game_id)"))
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.alter_column('variant', server_default=None)
        batch_op.alter_column('over', server_default=None)
        batch_op.drop_index('ix_result_seat_player_id')
        batch_op.create_index('ix_result_seat_player_figures',
                              ['player_id', 'over', 'variant', 'won'], unique=False)
        batch_op.create_index('ix_result_seat_records', ['over', 'player_id', 'won'],
                              unique=False)
    with op.batch_alter_table('result_fact', schema=None) as batch_op:
        batch_op.drop_index('ix_result_fact_player_id')
        batch_op.create_index('ix_result_fact_player_sums', ['player_id', 'fact', 'value'],
                              unique=False)

    op.create_table('result_pair',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('other_id', sa.Integer(), nullable=False),
    sa.Column('outcome', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_result_pair_game_id_game'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['other_id'], ['player.id'], name=op.f('fk_result_pair_other_id_player')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_result_pair_player_id_player')),
    sa.PrimaryKeyConstraint('game_id', 'player_id', 'other_id', name=op.f('pk_result_pair'))
    )
    with op.batch_alter_table('result_pair', schema=None) as batch_op:
        batch_op.create_index('ix_result_pair_versus', ['player_id', 'other_id', 'outcome'],
                              unique=False)
    # Every two players of each finished game, from the seats' standings (lower is ahead).
    op.execute(sa.text(
        "INSERT INTO result_pair (game_id, player_id, other_id, outcome) "
        "SELECT one.game_id, one.player_id, other.player_id, "
        "CASE WHEN one.standing < other.standing THEN 1 "
        "WHEN one.standing > other.standing THEN -1 ELSE 0 END "
        "FROM result_seat one JOIN result_seat other ON other.game_id = one.game_id "
        "AND other.player_id != one.player_id WHERE one.\"over\""))

    # A database from before the cache (0003) holds games with no cached result yet: the
    # newest migration that changes the cache's tables fills it (0012, which rebuilds it),
    # as the app writes them as they are at the head.

def downgrade():
    with op.batch_alter_table('result_pair', schema=None) as batch_op:
        batch_op.drop_index('ix_result_pair_versus')
    op.drop_table('result_pair')
    with op.batch_alter_table('result_fact', schema=None) as batch_op:
        batch_op.drop_index('ix_result_fact_player_sums')
        batch_op.create_index('ix_result_fact_player_id', ['player_id'], unique=False)
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.drop_index('ix_result_seat_records')
        batch_op.drop_index('ix_result_seat_player_figures')
        batch_op.create_index('ix_result_seat_player_id', ['player_id'], unique=False)
        batch_op.drop_column('over')
        batch_op.drop_column('variant')
