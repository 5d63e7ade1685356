"""A match by time gets a round clock and a last-deal call; a tournament records its rule preset

Revision ID: 3e8b6f1c7a52
Revises: 7c3e9a41d2b5
Create Date: 2026-12-01 12:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3e8b6f1c7a52'
down_revision = '7c3e9a41d2b5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('preset', sa.String(length=30), nullable=True))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock_started_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('clock_paused_at', sa.DateTime(), nullable=True))
        batch_op.add_column(
            sa.Column('clock_paused_seconds', sa.Integer(), server_default='0', nullable=False)
        )
        batch_op.add_column(sa.Column('last_deal_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_deal', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('last_deal')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('last_deal_at')
        batch_op.drop_column('clock_paused_seconds')
        batch_op.drop_column('clock_paused_at')
        batch_op.drop_column('clock_started_at')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('preset')
