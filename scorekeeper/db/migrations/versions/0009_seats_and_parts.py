"""a seat on each player's own phone, and each player's part of the hand in progress

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 13:40:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seat_phone',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('phone', sa.String(length=64), nullable=False),
    sa.Column('label', sa.String(length=80), nullable=False),
    sa.Column('taken_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_seat_phone_game_id_game'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_phone')),
    sa.UniqueConstraint('game_id', 'seat', name=op.f('uq_seat_phone_game_id_seat')),
    sa.UniqueConstraint('game_id', 'phone', name=op.f('uq_seat_phone_game_id_phone'))
    )
    op.create_table('hand_part',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('went_out', sa.Boolean(), nullable=False),
    sa.Column('cards', sa.Integer(), nullable=True),
    sa.Column('kings', sa.Integer(), nullable=False),
    sa.Column('deal', sa.JSON(), nullable=True),
    sa.Column('by_seat', sa.Integer(), nullable=True),
    sa.Column('by_label', sa.String(length=80), nullable=False),
    sa.Column('was', sa.String(length=80), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_hand_part_game_id_game'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hand_part')),
    sa.UniqueConstraint('game_id', 'number', 'seat', name=op.f('uq_hand_part_game_id_number_seat'))
    )


def downgrade():
    op.drop_table('hand_part')
    op.drop_table('seat_phone')
