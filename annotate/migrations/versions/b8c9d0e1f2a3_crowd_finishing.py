"""crowd finishing, public title, platform

A participant's finishing is kept (users.finished_at, finish_decision, finish_matched,
finish_answered): the completion code is decided once, when their sentences are first
all answered. A study's public title (datasets.public_title, empty: "Study"), its
platform (datasets.platform: prolific, mturk or other, whose participant id format is
checked; other for the studies there are), a return URL for a closed study
(datasets.return_url) and a closed study link's token (datasets.closed_token: the link
says the study is closed).

Revision ID: b8c9d0e1f2a3
Revises: a7b8c9d0e1f2
Create Date: 2026-12-02 04:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8c9d0e1f2a3'
down_revision = 'a7b8c9d0e1f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('finished_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('finish_decision', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('finish_matched', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('finish_answered', sa.Integer(), nullable=True))
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('public_title', sa.String(length=200), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('platform', sa.String(length=16), nullable=False,
                                      server_default='other'))
        batch_op.add_column(sa.Column('return_url', sa.String(length=500), nullable=True))
        batch_op.add_column(sa.Column('closed_token', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_datasets_closed_token'),
                                          ['closed_token'])


def downgrade():
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_datasets_closed_token'), type_='unique')
        batch_op.drop_column('closed_token')
        batch_op.drop_column('return_url')
        batch_op.drop_column('platform')
        batch_op.drop_column('public_title')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('finish_answered')
        batch_op.drop_column('finish_matched')
        batch_op.drop_column('finish_decision')
        batch_op.drop_column('finished_at')
