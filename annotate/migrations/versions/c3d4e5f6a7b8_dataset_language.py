"""dataset language

a dataset's language, an ISO 639-1 code, 'en' by default

Revision ID: c3d4e5f6a7b8
Revises: b2c3d4e5f6a7
Create Date: 2026-11-23 09:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3d4e5f6a7b8'
down_revision = 'b2c3d4e5f6a7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('datasets') as batch_op:
        batch_op.add_column(
            sa.Column('language', sa.String(length=8), nullable=False, server_default='en')
        )


def downgrade():
    with op.batch_alter_table('datasets') as batch_op:
        batch_op.drop_column('language')
