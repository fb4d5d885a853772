"""model annotations

the provenance of each language model that answered a dataset as an annotator
(lexsub llm-annotate): the model, its annotator names, what fixed its replies

Revision ID: 448f6974b77d
Revises: f10f95657382
Create Date: 2026-12-02 15:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '448f6974b77d'
down_revision = 'f10f95657382'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'model_annotations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('dataset_id', sa.Integer(), nullable=False),
        sa.Column('model', sa.String(length=80), nullable=False),
        sa.Column('annotators', sa.JSON(), nullable=False),
        sa.Column('answered', sa.Integer(), nullable=False),
        sa.Column('provenance', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('dataset_id', 'model'),
    )
    with op.batch_alter_table('model_annotations') as batch_op:
        batch_op.create_index('ix_model_annotations_dataset_id', ['dataset_id'])


def downgrade():
    with op.batch_alter_table('model_annotations') as batch_op:
        batch_op.drop_index('ix_model_annotations_dataset_id')
    op.drop_table('model_annotations')
