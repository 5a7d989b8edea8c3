"""the wrong guesses (guess): of the passcode and the join codes, counted in the database
so that their limits hold for every server process of one database

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29 07:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('guess',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_guess'))
    )
    op.create_index(op.f('ix_guess_address'), 'guess', ['address'], unique=False)
    op.create_index(op.f('ix_guess_at'), 'guess', ['at'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_guess_at'), table_name='guess')
    op.drop_index(op.f('ix_guess_address'), table_name='guess')
    op.drop_table('guess')
