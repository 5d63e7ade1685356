"""Duplicate Swiss of teams: an event's pairing (round robin or Swiss) and each paired Swiss round

Revision ID: c7e3a9d15b42
Revises: b4d2e8f61a37
Create Date: 2026-12-01 15:30:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "c7e3a9d15b42"
down_revision = "b4d2e8f61a37"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("duplicate_events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("pairing", sa.String(length=12), server_default="round-robin", nullable=False)
        )
    op.create_table(
        "duplicate_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("pairs", sa.JSON(), nullable=False),
        sa.Column("bye", sa.Integer(), nullable=True),
        sa.Column("vps", sa.JSON(), nullable=False),
        sa.Column("paired_at", sa.DateTime(), nullable=False),
        sa.Column("paired_by_id", sa.Integer(), nullable=True),
        sa.Column("paired_by", sa.String(length=120), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["duplicate_events.id"],
            name=op.f("fk_duplicate_rounds_event_id_duplicate_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["paired_by_id"],
            ["users.id"],
            name=op.f("fk_duplicate_rounds_paired_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_duplicate_rounds")),
        sa.UniqueConstraint("event_id", "round", name=op.f("uq_duplicate_rounds_event_id_round")),
    )
    with op.batch_alter_table("duplicate_rounds", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_duplicate_rounds_event_id"), ["event_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("duplicate_rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_duplicate_rounds_event_id"))
    op.drop_table("duplicate_rounds")
    with op.batch_alter_table("duplicate_events", schema=None) as batch_op:
        batch_op.drop_column("pairing")
