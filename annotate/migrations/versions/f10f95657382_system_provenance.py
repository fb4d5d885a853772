"""system provenance

a stored system's provenance file (FILE.provenance.json, written by lexsub generate),
when it was uploaded with the system file: the model and parameters that made it

Revision ID: f10f95657382
Revises: c9d0e1f2a3b4
Create Date: 2026-12-02 16:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f10f95657382'
down_revision = 'c9d0e1f2a3b4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('system_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('provenance', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('system_runs', schema=None) as batch_op:
        batch_op.drop_column('provenance')
