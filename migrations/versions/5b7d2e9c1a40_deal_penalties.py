"""A deal records its competition penalties (RULES §7): a JSON list of {kind, side} or, in red
five, {kind, seat}, in the order they happened

Revision ID: 5b7d2e9c1a40
Revises: 724c4f8dde96
Create Date: 2026-12-01 10:35:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5b7d2e9c1a40'
down_revision = '724c4f8dde96'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('penalties', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_column('penalties')
