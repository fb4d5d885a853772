"""dataset archive

a dataset's archived_at: when the organiser archived it (none: in use)

Revision ID: 0a7c5e3d9b21
Revises: 0a1b2c3d4e5f
Create Date: 2026-11-27 08:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0a7c5e3d9b21'
down_revision = '0a1b2c3d4e5f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('datasets') as batch_op:
        batch_op.add_column(sa.Column('archived_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('datasets') as batch_op:
        batch_op.drop_column('archived_at')
