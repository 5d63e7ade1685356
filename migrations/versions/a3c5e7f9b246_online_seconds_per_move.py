"""online tables: seconds per move (a tournament's move clock)

Revision ID: a3c5e7f9b246
Revises: a7d4e2c9b813
Create Date: 2026-12-05 13:58:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a3c5e7f9b246'
down_revision = "a7d4e2c9b813"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('move_seconds', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('move_seconds')
