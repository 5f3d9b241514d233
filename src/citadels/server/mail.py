""" "Your turn" by e-mail, at turn-based tables (docs/accounts.md, "E-mail").

When the operator configures an SMTP server (:class:`MailConfig`) and a player's account has
an address, the player is mailed once per turn of theirs at a turn-based table: when it
begins while no page of theirs is open at the table, or when the last one closes during it.
Invariants, all kept here:

- **One e-mail per turn, never a flood.** A turn is identified by its seat and its deadline
  (a seat making several decisions in a row keeps one deadline, see
  :mod:`citadels.server.turns`). This process remembers the turn it handled for each seat, so
  the many ``schedule`` calls of one turn (presence changes, reconnections) do nothing after
  the first; and the database claims each turn once (``Store.claim_turn_mail``: one
  conditional update), so of several processes only one sends.
- **Sending never blocks the game.** The claim and the SMTP exchange run in a thread pool of
  the mailer's own (a slow or dead SMTP server never holds a thread the moves need), in a
  task nobody waits for. A failure is logged and forgotten: the turn is not mailed again (an
  SMTP server that is down makes no backlog that floods the player later), and no move waits
  for it or is lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt
import logging
import os
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import TYPE_CHECKING

from citadels.present import N_, translator
from citadels.server.errors import ServerError

if TYPE_CHECKING:
    from citadels.server.storage import Store
    from citadels.server.table import Table

log = logging.getLogger("citadels.server")

#: The longest address (RFC 5321's path limit less its brackets).
EMAIL_MAX = 254
#: An address as this server takes it: a dot-atom local part, a domain of at least two
#: labels of letters, digits and inner hyphens, a top label of letters (or an IDNA one).
_EMAIL = re.compile(
    r"^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}(?<!\.)@"
    r"(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$"
)
#: How the SMTP connection is secured.
SECURITY = ("starttls", "ssl", "none")

_SUBJECT = N_("Citadels: your turn at table {code}")
_GREETING = N_("Hello {name},")
_TURN = N_("It is your turn at the Citadels table {code}. Play it here:")
_WHEN = N_("Your turn's timer runs out on {when} (UTC).")
_STAND_IN = N_("Then a stand-in bot plays your turn.")
_SKIP = N_("Then your turn is skipped.")
_FOOTER = N_(
    "You get this e-mail because you gave this address on your page; remove it there to "
    "get no more:"
)


def clean_email(value: object) -> str | None:
    """An e-mail address as stored (trimmed; ``None`` for ``None`` or an empty one);
    ``ServerError("bad_email")`` for anything else that is not an address."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ServerError("bad_email", "email must be a string or null")
    value = value.strip()
    if not value:
        return None
    if len(value) > EMAIL_MAX or not _EMAIL.match(value):
        raise ServerError("bad_email", "email must be an address such as name@example.org")
    return value


@dataclass(frozen=True)
class MailConfig:
    """The SMTP server "your turn" e-mails go through (``host`` ``None``: no e-mails)."""

    host: str | None = None
    port: int = 587
    #: ``"starttls"`` (upgrade a plain connection), ``"ssl"`` (TLS from the start, port 465
    #: as a rule) or ``"none"`` (a relay on the same machine).
    security: str = "starttls"
    user: str | None = None
    password: str | None = None
    #: The ``From`` address.
    sender: str = "citadels@localhost"
    #: The site's address as players reach it, for the links in the mails.
    public_url: str = "http://localhost:8000"
    #: Seconds an SMTP exchange may take.
    timeout: float = 20.0

    @classmethod
    def from_env(cls) -> MailConfig:
        """The configuration from ``CITADELS_SMTP_*``, ``CITADELS_MAIL_FROM`` and
        ``CITADELS_PUBLIC_URL`` (docs/deploy.md); no host: no e-mails."""
        env = os.environ
        port = env.get("CITADELS_SMTP_PORT", "")
        return cls(
            host=env.get("CITADELS_SMTP_HOST") or None,
            port=int(port) if port.isdigit() else 587,
            security=env.get("CITADELS_SMTP_SECURITY", "starttls"),
            user=env.get("CITADELS_SMTP_USER") or None,
            password=env.get("CITADELS_SMTP_PASSWORD") or None,
            sender=env.get("CITADELS_MAIL_FROM", "citadels@localhost"),
            public_url=env.get("CITADELS_PUBLIC_URL", "http://localhost:8000"),
        )

    def check(self) -> None:
        """``ValueError`` for a configuration that cannot work."""
        if self.security not in SECURITY:
            raise ValueError(f"SMTP security must be one of {', '.join(SECURITY)}")
        if not 0 < self.port < 65536:
            raise ValueError("the SMTP port must be 1 to 65535")
        if (self.user is None) != (self.password is None):
            raise ValueError("an SMTP user needs a password, and a password a user")


def turn_mail(
    config: MailConfig, to: str, name: str, lang: str, code: str, deadline: int, rule: str
) -> EmailMessage:
    """The "your turn" e-mail, in ``lang``."""
    tr = translator(lang)
    base = config.public_url.rstrip("/")
    when = dt.datetime.fromtimestamp(deadline / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")
    then = _SKIP if rule == "skip" else _STAND_IN
    # The links stand on lines of their own, outside the translated sentences: nothing (such
    # as a right-to-left text's isolation marks) sticks to them.
    body = "\n\n".join(
        (
            tr.gettext(_GREETING, name=name),
            tr.gettext(_TURN, code=code) + f"\n{base}/t/{code}",
            tr.gettext(_WHEN, when=when) + " " + tr.gettext(then),
            tr.gettext(_FOOTER) + f"\n{base}/me",
        )
    )
    msg = EmailMessage()
    msg.set_content(body + "\n")  # first: it replaces every Content-* header
    msg["Subject"] = tr.gettext(_SUBJECT, code=code)
    msg["From"] = config.sender
    msg["To"] = to
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=config.sender.rpartition("@")[2] or None)
    msg["Content-Language"] = lang
    msg["Auto-Submitted"] = "auto-generated"
    return msg


class Mailer:
    """Sends the "your turn" e-mails of this process (see the module's invariants)."""

    def __init__(self, store: Store, config: MailConfig | None = None) -> None:
        self.store = store
        self.config = config or MailConfig()
        self.config.check()
        #: The deadline of the turn handled last, per (table id, seat).
        self._handled: dict[tuple[int, int], int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    @property
    def enabled(self) -> bool:
        """Whether an SMTP server is configured."""
        return self.config.host is not None

    def turn(self, t: Table) -> None:
        """A turn-based table's decision was arranged (``Turns.on_turn``; synchronous): if
        it begins a human seat's turn that was not handled yet and no page of that seat is
        open, mail its player in the background."""
        if not self.enabled:
            return
        game, deadline = t.game, t.turn.deadline
        if game is None or game.is_over or deadline is None:
            return
        seat = game.to_move
        assert seat is not None
        row = t.row.seats[seat]
        if row.kind != "human" or row.account_id is None:
            return
        key = (t.id, seat)
        if self._handled.get(key) == deadline or t.presence.connected(seat):
            return
        self._handled[key] = deadline
        task = asyncio.create_task(
            self._send(t.id, seat, deadline, t.row.code, t.row.on_timeout or "stand_in")
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, table_id: int, seat: int, deadline: int, code: str, rule: str) -> None:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="mail")
        try:
            claimed = await loop.run_in_executor(
                self._pool, self.store.claim_turn_mail, table_id, seat, deadline
            )
            if claimed is None:
                return  # no address, or another process (or an earlier run) mailed it
            to, name, lang = claimed
            msg = turn_mail(self.config, to, name, lang, code, deadline, rule)
            await loop.run_in_executor(self._pool, self._deliver, msg)
        except Exception as exc:
            log.warning("the turn e-mail of table %s, seat %s was not sent: %s", code, seat, exc)

    def _deliver(self, msg: EmailMessage) -> None:
        """Hand one message to the SMTP server (in the mailer's thread)."""
        c = self.config
        assert c.host is not None
        smtp: smtplib.SMTP
        if c.security == "ssl":
            smtp = smtplib.SMTP_SSL(
                c.host, c.port, timeout=c.timeout, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=c.timeout)
        with smtp:
            if c.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if c.user is not None and c.password is not None:
                smtp.login(c.user, c.password)
            smtp.send_message(msg)

    async def settled(self) -> None:
        """Wait until every e-mail under way was sent or given up (tests, shutdown)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    async def close(self) -> None:
        """Finish the e-mails under way, then stop the mailer's threads."""
        await self.settled()
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
