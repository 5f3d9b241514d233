"""Turn-based tables: their turn timer, rule and stored deadline; the timers that ran out;
an account's e-mail address and the turns it was mailed about (issue 28).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``tables.turn_timer``, ``tables.on_timeout``, ``tables.deadline`` (null for every
    table stored so far: a live one); ``accounts.email`` and ``accounts.email_lang``;
    ``seats.mailed_deadline``; the new table ``timeouts``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_timer", sa.Integer, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(8), nullable=True))
        batch.add_column(sa.Column("deadline", sa.BigInteger, nullable=True))
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_lang", sa.String(8), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("mailed_deadline", sa.BigInteger, nullable=True))
    op.create_table(
        "timeouts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False,
                  index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("deadline", sa.BigInteger, nullable=False),
        sa.Column("rule", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("event_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat", "deadline", name="uq_timeouts_turn"),
    )  # fmt: skip


def downgrade() -> None:
    """Drop them (``ALTER TABLE … DROP COLUMN``: SQLite 3.35 and later have it, and copying
    ``tables`` or ``accounts`` anew, as a batch would, breaks the keys that point at them)."""
    op.drop_table("timeouts")
    op.drop_column("seats", "mailed_deadline")
    for column in ("email_lang", "email"):
        op.drop_column("accounts", column)
    for column in ("deadline", "on_timeout", "turn_timer"):
        op.drop_column("tables", column)
