"""one account per study

A crowd participant's id names an account within one study only: users.study_id (the
dataset whose study link made the account), unique with participant_id (no longer
unique alone). A participant account that is a member of several datasets (made before
this, when another study's link opened the same account) is split: it keeps the dataset
it joined first, and each other dataset gets an account of its own (username
``p<dataset id>-<participant id>``, as the link now makes them) that takes over its
membership, sentence assignments, answers and their history there. Nothing is deleted.

The study's rules: datasets.screenout_code, release_minutes (30: an unfinished overlap
batch whose participant saved nothing for that long goes back to the pool) and
max_participants (none: no cap).

Downgrading keeps each participant id on its first account only (the others keep their
answers and can no longer be opened by a link).

Revision ID: f6a7b8c9d0e1
Revises: e5f6a7b8c9d0
Create Date: 2026-11-29 07:30:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6a7b8c9d0e1'
down_revision = 'e5f6a7b8c9d0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('screenout_code', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('release_minutes', sa.Integer(), nullable=True,
                                      server_default='30'))
        batch_op.add_column(sa.Column('max_participants', sa.Integer(), nullable=True))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('study_id', sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f('uq_users_participant_id'), type_='unique')
        batch_op.create_foreign_key(batch_op.f('fk_users_study_id_datasets'), 'datasets',
                                    ['study_id'], ['id'])
        batch_op.create_index(batch_op.f('ix_users_study_id'), ['study_id'], unique=False)
    _split_participants(op.get_bind())
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f('uq_users_study_id'),
                                          ['study_id', 'participant_id'])


def _split_participants(connection):
    users = sa.table('users', sa.column('id', sa.Integer()), sa.column('username', sa.String()),
                     sa.column('password_hash', sa.String()), sa.column('role', sa.String()),
                     sa.column('active', sa.Boolean()), sa.column('created_at', sa.DateTime()),
                     sa.column('session_token', sa.String()),
                     sa.column('participant_id', sa.String()), sa.column('study_id', sa.Integer()))
    members = sa.table('dataset_members', sa.column('id', sa.Integer()),
                       sa.column('dataset_id', sa.Integer()), sa.column('user_id', sa.Integer()))
    assignments = sa.table('assignments', sa.column('dataset_id', sa.Integer()),
                           sa.column('user_id', sa.Integer()))
    instances = sa.table('instances', sa.column('id', sa.Integer()),
                         sa.column('dataset_id', sa.Integer()))
    answers = [sa.table(name, sa.column('user_id', sa.Integer()),
                        sa.column('instance_id', sa.Integer()))
               for name in ('responses', 'revisions')]
    rows = connection.execute(
        sa.select(users.c.id, users.c.participant_id, users.c.active, members.c.dataset_id)
        .join(members, members.c.user_id == users.c.id)
        .where(users.c.participant_id.is_not(None))
        .order_by(users.c.id, members.c.id)
    ).all()
    first = set()
    for user_id, participant_id, active, dataset_id in rows:
        if user_id not in first:
            first.add(user_id)
            connection.execute(users.update().where(users.c.id == user_id)
                               .values(study_id=dataset_id))
            continue
        new_id = connection.execute(
            users.insert().values(
                username=f'p{dataset_id}-{participant_id}', password_hash='',
                role='annotator', active=active, created_at=sa.func.now(),
                session_token=secrets.token_urlsafe(32), participant_id=participant_id,
                study_id=dataset_id,
            ).returning(users.c.id)
        ).scalar_one()
        for table in (members, assignments):
            connection.execute(table.update().where(table.c.dataset_id == dataset_id,
                                                    table.c.user_id == user_id)
                               .values(user_id=new_id))
        theirs = sa.select(instances.c.id).where(instances.c.dataset_id == dataset_id)
        for table in answers:
            connection.execute(table.update().where(table.c.user_id == user_id,
                                                    table.c.instance_id.in_(theirs))
                               .values(user_id=new_id))


def downgrade():
    users = sa.table('users', sa.column('id', sa.Integer()),
                     sa.column('participant_id', sa.String()))
    connection = op.get_bind()
    seen = set()
    for user_id, participant_id in connection.execute(
        sa.select(users.c.id, users.c.participant_id)
        .where(users.c.participant_id.is_not(None)).order_by(users.c.id)
    ).all():
        if participant_id in seen:
            connection.execute(users.update().where(users.c.id == user_id)
                               .values(participant_id=None))
        seen.add(participant_id)
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_users_study_id'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_users_study_id'))
        batch_op.drop_constraint(batch_op.f('fk_users_study_id_datasets'), type_='foreignkey')
        batch_op.drop_column('study_id')
        batch_op.create_unique_constraint(batch_op.f('uq_users_participant_id'),
                                          ['participant_id'])
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.drop_column('max_participants')
        batch_op.drop_column('release_minutes')
        batch_op.drop_column('screenout_code')
