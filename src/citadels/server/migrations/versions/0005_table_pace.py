"""Tables get a pace: the host's default delay between the moves a browser shows one by one
(issue 24, item 6).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.pace`` (milliseconds, or null: no table default; null for every table
    stored so far)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("pace", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("pace")
