"""Game reviews and hints (issue 27): the host's hint setting, every review computed for a
finished game (computed once, then reused), and every hint used at a table.

Revision ID: 0004
Revises: 0003
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.hints`` (false for every table stored so far), ``reviews`` and
    ``hint_uses``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("budget", sa.Integer, nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "hint_uses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("event_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("hint_uses")
    op.drop_table("reviews")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
