"""annotator exclusions

An organiser leaves an annotator out of a dataset's gold, agreement and scores with a
reason, answers kept (annotate.services.exclusions): one row per (dataset, annotator).

Revision ID: a7e1c5d9b3f2
Revises: f6a7b8c9d0e1
Create Date: 2026-11-27 08:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7e1c5d9b3f2'
down_revision = 'f6a7b8c9d0e1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'annotator_exclusions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('dataset_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('reason', sa.String(length=255), nullable=False),
        sa.Column('excluded_by', sa.String(length=80), nullable=False),
        sa.Column('excluded_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id']),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('dataset_id', 'user_id'),
    )
    with op.batch_alter_table('annotator_exclusions', schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f('ix_annotator_exclusions_dataset_id'), ['dataset_id'], unique=False
        )


def downgrade():
    with op.batch_alter_table('annotator_exclusions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_annotator_exclusions_dataset_id'))
    op.drop_table('annotator_exclusions')
