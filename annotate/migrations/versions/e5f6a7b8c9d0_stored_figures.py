"""stored figures

A dataset's figures are stored with it at import, so that the annotation page never
counts them over the whole dataset on a save: its sentences (datasets.sentences), its
words with a sentence (datasets.words) and, for each word, how many of those come up to
it, itself included (lexelts.word_index, the k of "word k of n"). Existing datasets get
them counted here, once.

Revision ID: e5f6a7b8c9d0
Revises: d4e5f6a7b8c9
Create Date: 2026-11-27 04:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f6a7b8c9d0'
down_revision = 'd4e5f6a7b8c9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sentences', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('words', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('lexelts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('word_index', sa.Integer(), nullable=False, server_default='0'))
    op.execute(
        """
        UPDATE datasets SET
          sentences = (SELECT COUNT(*) FROM instances i WHERE i.dataset_id = datasets.id),
          words = (SELECT COUNT(*) FROM lexelts l WHERE l.dataset_id = datasets.id
                    AND EXISTS (SELECT 1 FROM instances i WHERE i.lexelt_id = l.id))
        """
    )
    op.execute(
        """
        UPDATE lexelts SET word_index = ranked.n
          FROM (SELECT w.id, SUM(CASE WHEN EXISTS (
                         SELECT 1 FROM instances i WHERE i.lexelt_id = w.id) THEN 1 ELSE 0 END)
                       OVER (PARTITION BY w.dataset_id ORDER BY w.position) AS n
                  FROM lexelts w) AS ranked
         WHERE ranked.id = lexelts.id
        """
    )


def downgrade():
    # ALTER TABLE, not a batch copy: on SQLite a batch drops the old table, which the
    # instances' foreign keys refuse (SQLite 3.35+ and PostgreSQL drop a column in place)
    op.execute('ALTER TABLE lexelts DROP COLUMN word_index')
    op.execute('ALTER TABLE datasets DROP COLUMN words')
    op.execute('ALTER TABLE datasets DROP COLUMN sentences')
