"""judgement rounds

judgement studies: rounds, their items and candidates, judges, labels and their
history

Revision ID: 7f3a9c2e1d04
Revises: c3d4e5f6a7b8
Create Date: 2026-11-24 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7f3a9c2e1d04'
down_revision = 'c3d4e5f6a7b8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('judgement_rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('label_set', sa.String(length=32), nullable=False),
    sa.Column('layout', sa.String(length=16), nullable=False),
    sa.Column('dataset_id', sa.Integer(), nullable=True),
    sa.Column('seed', sa.Integer(), nullable=True),
    sa.Column('eligible', sa.Integer(), nullable=True),
    sa.Column('systems', sa.JSON(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('created_by', sa.String(length=80), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id'], name=op.f('fk_judgement_rounds_dataset_id_datasets')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_judgement_rounds')),
    sa.UniqueConstraint('name', name=op.f('uq_judgement_rounds_name'))
    )
    op.create_table('round_items',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('item', sa.String(length=255), nullable=False),
    sa.Column('word', sa.String(length=255), nullable=False),
    sa.Column('before', sa.Text(), nullable=False),
    sa.Column('target', sa.String(length=255), nullable=False),
    sa.Column('after', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['judgement_rounds.id'], name=op.f('fk_round_items_round_id_judgement_rounds')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_items')),
    sa.UniqueConstraint('round_id', 'item', name=op.f('uq_round_items_round_id'))
    )
    with op.batch_alter_table('round_items', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_items_round_id'), ['round_id'], unique=False)
    op.create_table('round_candidates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('round_item_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('text', sa.String(length=255), nullable=False),
    sa.Column('origin', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['judgement_rounds.id'], name=op.f('fk_round_candidates_round_id_judgement_rounds')),
    sa.ForeignKeyConstraint(['round_item_id'], ['round_items.id'], name=op.f('fk_round_candidates_round_item_id_round_items')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_candidates'))
    )
    with op.batch_alter_table('round_candidates', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_candidates_round_id'), ['round_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_round_candidates_round_item_id'), ['round_item_id'], unique=False)
    op.create_table('round_judges',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('added_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['judgement_rounds.id'], name=op.f('fk_round_judges_round_id_judgement_rounds')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_round_judges_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_judges')),
    sa.UniqueConstraint('round_id', 'user_id', name=op.f('uq_round_judges_round_id'))
    )
    with op.batch_alter_table('round_judges', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_judges_round_id'), ['round_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_round_judges_user_id'), ['user_id'], unique=False)
    op.create_table('candidate_labels',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('candidate_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=32), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('saves', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['candidate_id'], ['round_candidates.id'], name=op.f('fk_candidate_labels_candidate_id_round_candidates')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_candidate_labels_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_candidate_labels')),
    sa.UniqueConstraint('user_id', 'candidate_id', name=op.f('uq_candidate_labels_user_id'))
    )
    with op.batch_alter_table('candidate_labels', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_candidate_labels_candidate_id'), ['candidate_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_candidate_labels_user_id'), ['user_id'], unique=False)
    op.create_table('label_revisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('candidate_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=32), nullable=False),
    sa.Column('saved_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['candidate_id'], ['round_candidates.id'], name=op.f('fk_label_revisions_candidate_id_round_candidates')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_label_revisions_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_label_revisions'))
    )
    with op.batch_alter_table('label_revisions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_label_revisions_candidate_id'), ['candidate_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_label_revisions_user_id'), ['user_id'], unique=False)


def downgrade():
    for table in ('label_revisions', 'candidate_labels', 'round_judges', 'round_candidates',
                  'round_items', 'judgement_rounds'):
        op.drop_table(table)
