"""online tables: the table chat, and the director's switch for it

Revision ID: b6d8f0a2c4e1
Revises: a3c5e7f9b246
Create Date: 2026-12-05 14:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b6d8f0a2c4e1'
down_revision = 'a3c5e7f9b246'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('online_chats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('phrase', sa.String(length=20), nullable=True),
    sa.Column('text', sa.String(length=80), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_online_chats_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_online_chats'))
    )
    with op.batch_alter_table('online_chats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_online_chats_table_id'), ['table_id'], unique=False)

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chat_off', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('chat_off')

    with op.batch_alter_table('online_chats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_online_chats_table_id'))

    op.drop_table('online_chats')
