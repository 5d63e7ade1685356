"""Duplicate events: the VP scale's factor of a team event (B = factor × √N, default 10)

Revision ID: a8f3d2c61e94
Revises: 65c4026b4c55
Create Date: 2026-12-05 13:50:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a8f3d2c61e94"
down_revision = "65c4026b4c55"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("duplicate_events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("vp_factor", sa.Float(), server_default="10", nullable=False)
        )


def downgrade():
    with op.batch_alter_table("duplicate_events", schema=None) as batch_op:
        batch_op.drop_column("vp_factor")
