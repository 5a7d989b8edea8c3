"""a version on every game, one more with each change

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 04:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    # Dropped in place: rebuilding the game table would cascade to its seats and hands.
    with op.batch_alter_table('game', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('version')
