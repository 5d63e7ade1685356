"""A deal of 争上游 records each seat's place and the tribute (进贡) paid before it: two JSON
columns, null for the trick games' deals

Revision ID: c1d5e8a2f437
Revises: 4fafe95f68e7
Create Date: 2026-12-07 02:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c1d5e8a2f437'
down_revision = '4fafe95f68e7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('places', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('tribute', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_column('tribute')
        batch_op.drop_column('places')
