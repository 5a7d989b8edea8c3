"""settings of the install: the table passcode's hash

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 09:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('setting',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_setting'))
    )


def downgrade():
    op.drop_table('setting')
