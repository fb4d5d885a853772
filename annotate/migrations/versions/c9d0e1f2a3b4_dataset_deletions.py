"""dataset deletions

an audit line per deleted dataset: its name, who deleted it, when, and how much went

Revision ID: c9d0e1f2a3b4
Revises: b8c9d0e1f2a3
Create Date: 2026-12-02 04:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9d0e1f2a3b4'
down_revision = 'b8c9d0e1f2a3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'dataset_deletions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('dataset_name', sa.String(length=120), nullable=False),
        sa.Column('deleted_by', sa.String(length=80), nullable=False),
        sa.Column('deleted_at', sa.DateTime(), nullable=False),
        sa.Column('answers', sa.Integer(), nullable=False),
        sa.Column('sentences', sa.Integer(), nullable=False),
        sa.Column('accounts', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('dataset_deletions') as batch_op:
        batch_op.create_index('ix_dataset_deletions_deleted_at', ['deleted_at'])


def downgrade():
    with op.batch_alter_table('dataset_deletions') as batch_op:
        batch_op.drop_index('ix_dataset_deletions_deleted_at')
    op.drop_table('dataset_deletions')
