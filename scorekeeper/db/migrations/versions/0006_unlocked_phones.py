"""a key of its own for each phone that gave the table passcode

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 00:30:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('unlocked_phone',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('label', sa.String(length=80), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_unlocked_phone')),
    sa.UniqueConstraint('digest', name=op.f('uq_unlocked_phone_digest'))
    )


def downgrade():
    op.drop_table('unlocked_phone')
