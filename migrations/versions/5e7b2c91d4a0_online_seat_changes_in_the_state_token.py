"""online tables count the changes of who plays their seats; a seat keeps its replaced link

Revision ID: 5e7b2c91d4a0
Revises: d33ca1e7e851
Create Date: 2026-12-05 12:55:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e7b2c91d4a0'
down_revision = 'd33ca1e7e851'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seats_version', sa.Integer(), server_default='0', nullable=False))

    with op.batch_alter_table('online_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('replaced_token', sa.String(length=40), nullable=True))
        batch_op.create_index(batch_op.f('ix_online_seats_replaced_token'), ['replaced_token'], unique=False)


def downgrade():
    with op.batch_alter_table('online_seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_online_seats_replaced_token'))
        batch_op.drop_column('replaced_token')

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('seats_version')
