"""session tokens

The session cookie names users.session_token, which logout, a password reset and
(de)activation change.

Revision ID: 7c2e9a41d5b3
Revises: 61afe1a3a51f
Create Date: 2026-11-28 10:00:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c2e9a41d5b3'
down_revision = '61afe1a3a51f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_token', sa.String(length=64), nullable=True))
    # Every existing account gets its own random token (their old cookies named the id,
    # so those sessions end: each user logs in once more).
    users = sa.table('users', sa.column('id', sa.Integer()),
                     sa.column('session_token', sa.String(length=64)))
    connection = op.get_bind()
    for (user_id,) in connection.execute(sa.select(users.c.id)).all():
        connection.execute(users.update().where(users.c.id == user_id)
                           .values(session_token=secrets.token_urlsafe(32)))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('session_token', existing_type=sa.String(length=64),
                              nullable=False)
        batch_op.create_unique_constraint(batch_op.f('uq_users_session_token'),
                                          ['session_token'])


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_users_session_token'), type_='unique')
        batch_op.drop_column('session_token')
