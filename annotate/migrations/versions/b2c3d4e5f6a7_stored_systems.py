"""stored systems

the leaderboard's stored system files and their scores

Revision ID: b2c3d4e5f6a7
Revises: a1b2c3d4e5f6
Create Date: 2026-11-23 17:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b2c3d4e5f6a7'
down_revision = 'a1b2c3d4e5f6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('system_runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('dataset_id', sa.Integer(), nullable=False),
    sa.Column('file_name', sa.String(length=255), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('rules', sa.String(length=8), nullable=False),
    sa.Column('uploaded_by', sa.String(length=80), nullable=False),
    sa.Column('uploaded_at', sa.DateTime(), nullable=False),
    sa.Column('scored_at', sa.DateTime(), nullable=False),
    sa.Column('gold_signature', sa.Text(), nullable=False),
    sa.Column('gold_sha256', sa.String(length=64), nullable=False),
    sa.Column('answered', sa.Integer(), nullable=False),
    sa.Column('gold_items', sa.Integer(), nullable=False),
    sa.Column('scores', sa.JSON(), nullable=False),
    sa.Column('warnings', sa.JSON(), nullable=False),
    sa.Column('diagnosis', sa.JSON(), nullable=False),
    sa.Column('scorer_output', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id'], name=op.f('fk_system_runs_dataset_id_datasets')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_system_runs'))
    )
    with op.batch_alter_table('system_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_system_runs_dataset_id'), ['dataset_id'], unique=False)


def downgrade():
    with op.batch_alter_table('system_runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_system_runs_dataset_id'))

    op.drop_table('system_runs')
