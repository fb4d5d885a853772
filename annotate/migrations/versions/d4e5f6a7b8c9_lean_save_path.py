"""lean save path

The dictionary tick moves onto each answer (responses.used_dictionary): a word's tick is
the one of the annotator's latest save in that word (annotate.services.responses.word_flag), so a
save writes no separate word flag. Every existing answer takes its word's flag
(what every page showed for it), else its latest revision's tick; word_flags goes. The
next sentence is found by index: instances (dataset_id, position).

Revision ID: d4e5f6a7b8c9
Revises: 7f3a9c2e1d04
Create Date: 2026-12-02 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e5f6a7b8c9'
down_revision = '7f3a9c2e1d04'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('responses', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('used_dictionary', sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.execute(
        """
        UPDATE responses SET used_dictionary = COALESCE(
          (SELECT f.used_dictionary FROM word_flags f JOIN instances i ON i.lexelt_id = f.lexelt_id
            WHERE i.id = responses.instance_id AND f.user_id = responses.user_id),
          (SELECT r.used_dictionary FROM revisions r
            WHERE r.user_id = responses.user_id AND r.instance_id = responses.instance_id
            ORDER BY r.id DESC LIMIT 1),
          used_dictionary)
        """
    )
    with op.batch_alter_table('word_flags', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_word_flags_user_id'))
        batch_op.drop_index(batch_op.f('ix_word_flags_lexelt_id'))
    op.drop_table('word_flags')
    with op.batch_alter_table('instances', schema=None) as batch_op:
        batch_op.create_index('ix_instances_dataset_id_position', ['dataset_id', 'position'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('instances', schema=None) as batch_op:
        batch_op.drop_index('ix_instances_dataset_id_position')
    op.create_table('word_flags',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('lexelt_id', sa.Integer(), nullable=False),
    sa.Column('used_dictionary', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['lexelt_id'], ['lexelts.id'], name=op.f('fk_word_flags_lexelt_id_lexelts')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_word_flags_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_word_flags')),
    sa.UniqueConstraint('user_id', 'lexelt_id', name=op.f('uq_word_flags_user_id'))
    )
    with op.batch_alter_table('word_flags', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_word_flags_lexelt_id'), ['lexelt_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_word_flags_user_id'), ['user_id'], unique=False)
    # each (annotator, word) with an answer: the tick and time of its latest save there
    op.execute(
        """
        INSERT INTO word_flags (user_id, lexelt_id, used_dictionary, updated_at)
        SELECT r.user_id, i.lexelt_id, r.used_dictionary, r.updated_at
          FROM responses r JOIN instances i ON i.id = r.instance_id
         WHERE NOT EXISTS (
           SELECT 1 FROM responses later JOIN instances j ON j.id = later.instance_id
            WHERE later.user_id = r.user_id AND j.lexelt_id = i.lexelt_id
              AND (later.updated_at > r.updated_at
                   OR (later.updated_at = r.updated_at AND later.id > r.id)))
        """
    )
    with op.batch_alter_table('responses', schema=None) as batch_op:
        batch_op.drop_column('used_dictionary')
