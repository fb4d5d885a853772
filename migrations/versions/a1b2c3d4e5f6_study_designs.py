"""study designs

assignments, guidelines, crowd participants and overlap designs (issue 11, annotator side)

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
    pass


def downgrade():
    pass
