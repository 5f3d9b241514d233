"""Seats get a presence version: every write of a seat's away flag counts it up, so that a
process holding a newer flag never takes an older stored one for news (issue 23 item 2).

Revision ID: 0002
Revises: 0001
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.away_version`` (0 for every seat stored so far)."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_version")
