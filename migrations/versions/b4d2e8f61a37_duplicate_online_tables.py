"""Duplicate boards played online: which online table deals which (board, round, table)

Revision ID: b4d2e8f61a37
Revises: 9d1f4b2c6e08
Create Date: 2026-12-01 13:10:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b4d2e8f61a37"
down_revision = "9d1f4b2c6e08"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "duplicate_online_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["duplicate_events.id"],
            name=op.f("fk_duplicate_online_tables_event_id_duplicate_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_duplicate_online_tables_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_duplicate_online_tables")),
        sa.UniqueConstraint(
            "event_id",
            "board",
            "round",
            "table_no",
            name=op.f("uq_duplicate_online_tables_event_id_board_round_table_no"),
        ),
        sa.UniqueConstraint("table_id", name=op.f("uq_duplicate_online_tables_table_id")),
    )
    with op.batch_alter_table("duplicate_online_tables", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_duplicate_online_tables_event_id"), ["event_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("duplicate_online_tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_duplicate_online_tables_event_id"))
    op.drop_table("duplicate_online_tables")
