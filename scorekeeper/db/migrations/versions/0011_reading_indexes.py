"""indexes that hold what the pages read: a game's hands (hand_entry's round, player,
cards and kings, so a game is read without its table's rows) and a player's finished
games in order (result_seat's player, over, game and won, for the night-by-night record),
the games of a season (game's played_on and id: a range of days), every player's record
with its games (result_seat's over, player, won and game: the roster of a season), and a
player's rating after each game in the order played (rating_step, for their page's chart)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 16:40:00.000000

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_played_on', ['played_on', 'id'], unique=False)
    with op.batch_alter_table('hand_entry', schema=None) as batch_op:
        batch_op.create_index('ix_hand_entry_read', ['round_id', 'player_id', 'cards', 'kings'],
                              unique=False)
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.create_index('ix_result_seat_games', ['player_id', 'over', 'game_id', 'won'],
                              unique=False)
        batch_op.drop_index('ix_result_seat_records')
        batch_op.create_index('ix_result_seat_records', ['over', 'player_id', 'won', 'game_id'],
                              unique=False)
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index('ix_rating_step_figures',
                              ['player_id', 'played_on', 'created_at', 'game_id', 'variant',
                               'mu_after', 'sigma_after'], unique=False)


def downgrade():
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_figures')
    with op.batch_alter_table('result_seat', schema=None) as batch_op:
        batch_op.drop_index('ix_result_seat_records')
        batch_op.create_index('ix_result_seat_records', ['over', 'player_id', 'won'],
                              unique=False)
        batch_op.drop_index('ix_result_seat_games')
    with op.batch_alter_table('hand_entry', schema=None) as batch_op:
        batch_op.drop_index('ix_hand_entry_read')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_played_on')
