"""a member removed from a club is kept for 30 days, restorable (deleted_at, deleted_by)

Revision ID: e2b7c4a9d136
Revises: c1d5e8a2f437
Create Date: 2026-12-07 03:40:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "e2b7c4a9d136"
down_revision = "c1d5e8a2f437"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("deleted_by", sa.String(length=120), nullable=True))
        batch_op.create_index(batch_op.f("ix_members_deleted_at"), ["deleted_at"], unique=False)


def downgrade():
    # a removed member was gone before this revision: it goes for good
    op.execute("DELETE FROM members WHERE deleted_at IS NOT NULL")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_members_deleted_at"))
        batch_op.drop_column("deleted_by")
        batch_op.drop_column("deleted_at")
