"""study designs

assignments, guidelines, crowd participants and overlap designs (the annotator side of studies)

Dataset members (only they see a dataset), sentence assignments (overlap and crowd
designs), a dataset's guidelines, design, study link and completion code, and a crowd
participant's id. Every annotator already in the database becomes a member of every
dataset already there, so a study under way goes on as before.

Revision ID: a1b2c3d4e5f6
Revises: 7c2e9a41d5b3
Create Date: 2026-11-23 17:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1b2c3d4e5f6'
down_revision = '7c2e9a41d5b3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('dataset_members',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('dataset_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('added_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id'], name=op.f('fk_dataset_members_dataset_id_datasets')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_dataset_members_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_dataset_members')),
    sa.UniqueConstraint('dataset_id', 'user_id', name=op.f('uq_dataset_members_dataset_id'))
    )
    with op.batch_alter_table('dataset_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dataset_members_dataset_id'), ['dataset_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_dataset_members_user_id'), ['user_id'], unique=False)

    op.create_table('assignments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('dataset_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('instance_id', sa.Integer(), nullable=False),
    sa.Column('assigned_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id'], name=op.f('fk_assignments_dataset_id_datasets')),
    sa.ForeignKeyConstraint(['instance_id'], ['instances.id'], name=op.f('fk_assignments_instance_id_instances')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_assignments_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assignments')),
    sa.UniqueConstraint('user_id', 'instance_id', name=op.f('uq_assignments_user_id'))
    )
    with op.batch_alter_table('assignments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_assignments_dataset_id'), ['dataset_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_assignments_instance_id'), ['instance_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_assignments_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('guidelines', sa.Text(), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('design', sa.String(length=16), nullable=False, server_default='all'))
        batch_op.add_column(sa.Column('per_sentence', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('batch_size', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('study_token', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('completion_code', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_datasets_study_token'), ['study_token'])

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('participant_id', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_users_participant_id'), ['participant_id'])

    # Until now every annotator saw every dataset: keep it so for what is already there.
    connection = op.get_bind()
    users = sa.table('users', sa.column('id', sa.Integer()), sa.column('role', sa.String()))
    datasets = sa.table('datasets', sa.column('id', sa.Integer()))
    members = sa.table('dataset_members', sa.column('dataset_id', sa.Integer()),
                       sa.column('user_id', sa.Integer()), sa.column('added_at', sa.DateTime()))
    annotators = connection.execute(sa.select(users.c.id).where(users.c.role == 'annotator')
                                     .order_by(users.c.id)).scalars().all()
    dataset_ids = connection.execute(sa.select(datasets.c.id).order_by(datasets.c.id)).scalars().all()
    rows = [{'dataset_id': d, 'user_id': u, 'added_at': sa.func.now()} for d in dataset_ids
            for u in annotators]
    for row in rows:
        connection.execute(members.insert().values(**row))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_users_participant_id'), type_='unique')
        batch_op.drop_column('participant_id')

    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_datasets_study_token'), type_='unique')
        batch_op.drop_column('completion_code')
        batch_op.drop_column('study_token')
        batch_op.drop_column('batch_size')
        batch_op.drop_column('per_sentence')
        batch_op.drop_column('design')
        batch_op.drop_column('guidelines')

    with op.batch_alter_table('assignments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_assignments_user_id'))
        batch_op.drop_index(batch_op.f('ix_assignments_instance_id'))
        batch_op.drop_index(batch_op.f('ix_assignments_dataset_id'))
    op.drop_table('assignments')

    with op.batch_alter_table('dataset_members', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dataset_members_user_id'))
        batch_op.drop_index(batch_op.f('ix_dataset_members_dataset_id'))
    op.drop_table('dataset_members')
