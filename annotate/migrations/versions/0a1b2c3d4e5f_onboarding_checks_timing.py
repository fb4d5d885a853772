"""onboarding, attention checks and time per sentence

A crowd participant's onboarding: users.started_at (when they pressed Start, agreeing to
the consent text if there is one), comprehension_failures and screened_out_at (two failed
comprehension attempts: the screen-out code, no sentences ever after). The study's
datasets.consent and comprehension texts, check_threshold and check_action (warn or
block) and speeder_seconds. check_items: sentences made attention checks with the
substitutes they accept. sentence_views: when a participant first saw a sentence (with
their first save of it, their time on it). Participant accounts made before this have
started (at their creation): they keep their sentences without an onboarding page.

Revision ID: 0a1b2c3d4e5f
Revises: a7e1c5d9b3f2
Create Date: 2026-11-27 08:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0a1b2c3d4e5f'
down_revision = 'a7e1c5d9b3f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('consent', sa.Text(), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('comprehension', sa.Text(), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('check_threshold', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('check_action', sa.String(length=8), nullable=False,
                                      server_default='warn'))
        batch_op.add_column(sa.Column('speeder_seconds', sa.Integer(), nullable=True))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('started_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('comprehension_failures', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('screened_out_at', sa.DateTime(), nullable=True))
    # participants who joined before onboarding existed have started: their account opens
    # their sentences as it did
    op.execute("UPDATE users SET started_at = created_at WHERE participant_id IS NOT NULL")
    op.create_table('check_items',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('dataset_id', sa.Integer(), nullable=False),
    sa.Column('instance_id', sa.Integer(), nullable=False),
    sa.Column('accepted', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['dataset_id'], ['datasets.id'], name=op.f('fk_check_items_dataset_id_datasets')),
    sa.ForeignKeyConstraint(['instance_id'], ['instances.id'], name=op.f('fk_check_items_instance_id_instances')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_check_items')),
    sa.UniqueConstraint('instance_id', name=op.f('uq_check_items_instance_id'))
    )
    with op.batch_alter_table('check_items', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_check_items_dataset_id'), ['dataset_id'], unique=False)
    op.create_table('sentence_views',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('instance_id', sa.Integer(), nullable=False),
    sa.Column('first_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['instance_id'], ['instances.id'], name=op.f('fk_sentence_views_instance_id_instances')),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_sentence_views_user_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sentence_views')),
    sa.UniqueConstraint('user_id', 'instance_id', name=op.f('uq_sentence_views_user_id'))
    )
    with op.batch_alter_table('sentence_views', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sentence_views_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('sentence_views', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sentence_views_user_id'))
    op.drop_table('sentence_views')
    with op.batch_alter_table('check_items', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_check_items_dataset_id'))
    op.drop_table('check_items')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('screened_out_at')
        batch_op.drop_column('comprehension_failures')
        batch_op.drop_column('started_at')
    with op.batch_alter_table('datasets', schema=None) as batch_op:
        batch_op.drop_column('speeder_seconds')
        batch_op.drop_column('check_action')
        batch_op.drop_column('check_threshold')
        batch_op.drop_column('comprehension')
        batch_op.drop_column('consent')
