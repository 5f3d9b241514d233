"""Table codes of 16 characters in four groups (19 with the dashes; issue 23, item 5).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Widen ``tables.code`` (the codes already given stay as they are)."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("code", type_=sa.String(24), existing_type=sa.String(12))


def downgrade() -> None:
    """Narrow ``tables.code`` again (fails while a longer code is stored)."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("code", type_=sa.String(12), existing_type=sa.String(24))
