"""substitutes: from a round on, another player plays a seat of an entrant

Revision ID: 4fafe95f68e7
Revises: b6d8f0a2c4e1
Create Date: 2026-12-05 17:13:31.429659

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4fafe95f68e7'
down_revision = 'b6d8f0a2c4e1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('substitutions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('from_round', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('member_id', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.Column('created_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_substitutions_created_by_id_users'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['entrant_id'], ['entrants.id'], name=op.f('fk_substitutions_entrant_id_entrants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['member_id'], ['members.id'], name=op.f('fk_substitutions_member_id_members'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_substitutions')),
    sa.UniqueConstraint('entrant_id', 'seat', 'from_round', name=op.f('uq_substitutions_entrant_id_seat_from_round'))
    )
    with op.batch_alter_table('substitutions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_substitutions_entrant_id'), ['entrant_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_substitutions_member_id'), ['member_id'], unique=False)



def downgrade():
    with op.batch_alter_table('substitutions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_substitutions_member_id'))
        batch_op.drop_index(batch_op.f('ix_substitutions_entrant_id'))

    op.drop_table('substitutions')
