"""a night for a crowd: its players, the tables of each round (each an ordinary game), and
the phones that joined it by its QR code

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 07:30:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('crowd',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('night_id', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=20), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('table_size', sa.Integer(), nullable=False),
    sa.Column('seating', sa.String(length=20), nullable=False),
    sa.Column('moving', sa.String(length=20), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['night_id'], ['night.id'], name=op.f('fk_crowd_night_id_night'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_crowd')),
    sa.UniqueConstraint('night_id', name=op.f('uq_crowd_night_id'))
    )
    op.create_table('crowd_player',
    sa.Column('crowd_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['crowd_id'], ['crowd.id'], name=op.f('fk_crowd_player_crowd_id_crowd'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_crowd_player_player_id_player')),
    sa.PrimaryKeyConstraint('crowd_id', 'player_id', name=op.f('pk_crowd_player'))
    )
    op.create_index(op.f('ix_crowd_player_player_id'), 'crowd_player', ['player_id'], unique=False)
    op.create_table('crowd_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('crowd_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['crowd_id'], ['crowd.id'], name=op.f('fk_crowd_table_crowd_id_crowd'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_crowd_table_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_crowd_table')),
    sa.UniqueConstraint('crowd_id', 'round', 'number', name=op.f('uq_crowd_table_crowd_id_round_number')),
    sa.UniqueConstraint('game_id', name=op.f('uq_crowd_table_game_id'))
    )
    op.create_table('crowd_phone',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('crowd_id', sa.Integer(), nullable=False),
    sa.Column('phone', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=80), nullable=False),
    sa.ForeignKeyConstraint(['crowd_id'], ['crowd.id'], name=op.f('fk_crowd_phone_crowd_id_crowd'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_crowd_phone_player_id_player'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_crowd_phone')),
    sa.UniqueConstraint('crowd_id', 'phone', name=op.f('uq_crowd_phone_crowd_id_phone'))
    )


def downgrade():
    op.drop_table('crowd_phone')
    op.drop_table('crowd_table')
    op.drop_index(op.f('ix_crowd_player_player_id'), table_name='crowd_player')
    op.drop_table('crowd_player')
    op.drop_table('crowd')
