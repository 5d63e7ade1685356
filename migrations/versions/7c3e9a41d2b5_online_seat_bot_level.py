"""An online seat's bot has a strength chosen by the director: easy, normal or strong

Revision ID: 7c3e9a41d2b5
Revises: 5b7d2e9c1a40
Create Date: 2026-12-01 10:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c3e9a41d2b5'
down_revision = '5b7d2e9c1a40'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('online_seats', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('bot_level', sa.String(length=10), server_default='normal', nullable=False)
        )


def downgrade():
    with op.batch_alter_table('online_seats', schema=None) as batch_op:
        batch_op.drop_column('bot_level')
