"""On PostgreSQL every written online deal row announces its table to the live pages from the
database (a trigger sending ``t:<table id>`` on the live channel), instead of a ``pg_notify``
statement the app sent after each flush: one database round trip less per move

Revision ID: b8e2f4a61c07
Revises: a7d3e1f96b20
Create Date: 2026-12-07 18:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b8e2f4a61c07'
down_revision = 'a7d3e1f96b20'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite: one process, announced in it after each commit
    # as app/models/online.py creates them (create_all), written out: a migration stays as it was
    op.execute(
        """
        CREATE OR REPLACE FUNCTION online_deal_announced() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('shengji_live', 't:' || NEW.table_id);
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER online_deal_announced AFTER INSERT OR UPDATE ON online_deals
        FOR EACH ROW EXECUTE FUNCTION online_deal_announced()
        """
    )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER online_deal_announced ON online_deals")
    op.execute("DROP FUNCTION online_deal_announced()")
