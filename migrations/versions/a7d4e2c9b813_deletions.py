"""seasons, divisions and duplicate events can be deleted reversibly (deleted_at, deleted_by); a
season has an audit trail (an audit entry belongs to exactly one tournament, duplicate event or
season)

Revision ID: a7d4e2c9b813
Revises: a8f3d2c61e94
Create Date: 2026-12-05 13:50:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a7d4e2c9b813"
down_revision = "a8f3d2c61e94"
branch_labels = None
depends_on = None

ONE_OWNER = (
    "(CASE WHEN tournament_id IS NULL THEN 0 ELSE 1 END"
    " + CASE WHEN duplicate_event_id IS NULL THEN 0 ELSE 1 END"
    " + CASE WHEN season_id IS NULL THEN 0 ELSE 1 END) = 1"
)
TABLES = ("seasons", "divisions", "duplicate_events")


def upgrade():
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))
            batch_op.add_column(sa.Column("deleted_by", sa.String(length=120), nullable=True))
            batch_op.create_index(
                batch_op.f(f"ix_{table}_deleted_at"), ["deleted_at"], unique=False
            )
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_audit_entries_one_owner"), type_="check")
        batch_op.add_column(sa.Column("season_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_audit_entries_season_id"), ["season_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_audit_entries_season_id_seasons"),
            "seasons",
            ["season_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_check_constraint("one_owner", ONE_OWNER)


def downgrade():
    # a season's entries have neither a tournament nor an event: they go with the column
    op.execute("DELETE FROM audit_entries WHERE season_id IS NOT NULL")
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_audit_entries_one_owner"), type_="check")
        batch_op.drop_constraint(
            batch_op.f("fk_audit_entries_season_id_seasons"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_audit_entries_season_id"))
        batch_op.drop_column("season_id")
        batch_op.create_check_constraint(
            "one_owner", "(tournament_id IS NULL) <> (duplicate_event_id IS NULL)"
        )
    for table in reversed(TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f"ix_{table}_deleted_at"))
            batch_op.drop_column("deleted_by")
            batch_op.drop_column("deleted_at")
