"""Duplicate events' audit trail: an audit entry belongs to a tournament or a duplicate event

Revision ID: e5a1c8d3f720
Revises: c7e3a9d15b42
Create Date: 2026-12-01 16:00:00.000000

Older entries all belong to a tournament and stay as they are (the check holds for them).
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "e5a1c8d3f720"
down_revision = "c7e3a9d15b42"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("duplicate_event_id", sa.Integer(), nullable=True))
        batch_op.alter_column("tournament_id", existing_type=sa.Integer(), nullable=True)
        batch_op.create_index(
            batch_op.f("ix_audit_entries_duplicate_event_id"), ["duplicate_event_id"], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_audit_entries_duplicate_event_id_duplicate_events"),
            "duplicate_events",
            ["duplicate_event_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_check_constraint(
            "one_owner", "(tournament_id IS NULL) <> (duplicate_event_id IS NULL)"
        )


def downgrade():
    # a duplicate event's entries have no tournament: they go with the column
    op.execute("DELETE FROM audit_entries WHERE tournament_id IS NULL")
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_audit_entries_one_owner"), type_="check")
        batch_op.drop_constraint(
            batch_op.f("fk_audit_entries_duplicate_event_id_duplicate_events"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_audit_entries_duplicate_event_id"))
        batch_op.alter_column("tournament_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("duplicate_event_id")
