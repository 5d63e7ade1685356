"""Duplicate events (复式): boards dealt from a seed, results typed from the travellers

Revision ID: 9d1f4b2c6e08
Revises: 3e8b6f1c7a52
Create Date: 2026-12-01 12:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9d1f4b2c6e08'
down_revision = '3e8b6f1c7a52'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'duplicate_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('variant', sa.String(length=20), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('kind', sa.String(length=12), nullable=False),
        sa.Column('entrants', sa.JSON(), nullable=False),
        sa.Column('boards_per_round', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('version', sa.Integer(), server_default='1', nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('created_by_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_duplicate_events_club_id_clubs'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], name=op.f('fk_duplicate_events_created_by_id_users'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_duplicate_events')),
        sa.UniqueConstraint('club_id', 'name', name=op.f('uq_duplicate_events_club_id_name')),
    )
    with op.batch_alter_table('duplicate_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_duplicate_events_club_id'), ['club_id'], unique=False)
    op.create_table(
        'duplicate_results',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('board', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('declarer', sa.Integer(), nullable=True),
        sa.Column('total', sa.Integer(), nullable=True),
        sa.Column('scores', sa.JSON(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['duplicate_events.id'], name=op.f('fk_duplicate_results_event_id_duplicate_events'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_duplicate_results')),
        sa.UniqueConstraint('event_id', 'board', 'round', 'table_no', name=op.f('uq_duplicate_results_event_id_board_round_table_no')),
    )
    with op.batch_alter_table('duplicate_results', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_duplicate_results_event_id'), ['event_id'], unique=False)


def downgrade():
    with op.batch_alter_table('duplicate_results', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_duplicate_results_event_id'))
    op.drop_table('duplicate_results')
    with op.batch_alter_table('duplicate_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_duplicate_events_club_id'))
    op.drop_table('duplicate_events')
