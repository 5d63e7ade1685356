"""A deal of 打百分 keeps what its score sheet (记分表, HUNDRED.md §8) has beyond the trick games'
columns: the winning bid or 40分下台's turned card, the friend card, 抠底 yes/no and the buried
cards' points when written, in one JSON column, null for the other games' deals

Revision ID: a7d3e1f96b20
Revises: e2b7c4a9d136
Create Date: 2026-12-07 05:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7d3e1f96b20'
down_revision = 'e2b7c4a9d136'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hundred', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_column('hundred')
