"""a dataset's task (substitution, simplification, complexity) and its reference gold

Revision ID: a7b8c9d0e1f2
Revises: 0a7c5e3d9b21
Create Date: 2026-11-27 08:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a7b8c9d0e1f2"
down_revision = "0a7c5e3d9b21"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("datasets") as batch_op:
        batch_op.add_column(
            sa.Column("task", sa.String(length=16), server_default="substitution", nullable=False)
        )
        batch_op.add_column(sa.Column("reference", sa.Text(), server_default="", nullable=False))


def downgrade():
    with op.batch_alter_table("datasets") as batch_op:
        batch_op.drop_column("reference")
        batch_op.drop_column("task")
