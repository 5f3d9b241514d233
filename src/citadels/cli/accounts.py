"""``citadels accounts``: the server operator's commands for accounts (docs/accounts.md).

They work on the server's database directly (``--db``, as ``citadels serve`` takes it), so
they run beside a running server or without one.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from citadels.cli.i18n import TranslatedCommand, TranslatedGroup, run_lang
from citadels.present import translator
from citadels.present.i18n import N_

if TYPE_CHECKING:
    from citadels.server.accounts import Accounts
    from citadels.server.storage import Store

accounts_app = typer.Typer(
    name="accounts",
    cls=TranslatedGroup,
    no_args_is_help=True,
    rich_markup_mode=None,
    help=N_(
        "Accounts of the online game: create, list, reset a password, the bots' ratings "
        "(see docs/accounts.md)."
    ),
)

DbOpt = Annotated[
    str | None,
    typer.Option(help=N_("Database URL (default: the SQLite file ./citadels.sqlite3).")),
]
NameArg = Annotated[str, typer.Argument(help=N_("The account's name."))]
StdinOpt = Annotated[
    bool,
    typer.Option(
        "--password-stdin",
        help=N_("Read the password from the first line of standard input instead of asking."),
    ),
]


def _password(from_stdin: bool) -> str:
    tr = translator(run_lang())
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    got: str = typer.prompt(tr.gettext("New password"), hide_input=True,
                            confirmation_prompt=True)  # fmt: skip
    return got


def _open(db: str | None) -> tuple[Store, Accounts]:
    from citadels.server import default_db_url
    from citadels.server.accounts import Accounts
    from citadels.server.storage import Store

    store = Store(db or default_db_url())
    store.migrate()
    return store, Accounts(store)


def _fail(message: str) -> None:
    from citadels.cli.app import fail

    fail(message)


@accounts_app.command("create", cls=TranslatedCommand, help=N_("Create an account."))
def create(name: NameArg, db: DbOpt = None, password_stdin: StdinOpt = False) -> None:
    """Create an account."""
    from citadels.server.errors import ServerError

    store, accounts = _open(db)
    try:
        accounts.create(name, _password(password_stdin))
    except ServerError as exc:
        _fail(exc.message)
    finally:
        store.close()
    print(translator(run_lang()).gettext("Account {name} created.", name=name))


@accounts_app.command("list", cls=TranslatedCommand, help=N_("List the accounts."))
def list_accounts(db: DbOpt = None) -> None:
    """List the accounts."""
    store, _accounts = _open(db)
    try:
        rows = store.accounts()
    finally:
        store.close()
    if not rows:
        print(translator(run_lang()).gettext("No accounts."))
    for row in rows:
        print(f"{row.name}\t{row.created_at:%Y-%m-%d %H:%M}")


@accounts_app.command(
    "reset-password",
    cls=TranslatedCommand,
    help=N_("Set a new password for an account and end its sessions."),
)
def reset_password(name: NameArg, db: DbOpt = None, password_stdin: StdinOpt = False) -> None:
    """Set a new password for an account."""
    from citadels.server.errors import ServerError

    store, accounts = _open(db)
    try:
        accounts.reset_password(name, _password(password_stdin))
    except ServerError as exc:
        _fail(exc.message)
    finally:
        store.close()
    print(
        translator(run_lang()).gettext(
            "The password of {name} is reset; its sessions are ended.", name=name
        )
    )


EditionOpt = Annotated[
    str | None,
    typer.Option(help=N_("Only this edition (default: every edition with rated games).")),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print JSON instead of a table."))]


@accounts_app.command(
    "bot-ratings",
    cls=TranslatedCommand,
    help=N_("The bot levels' fixed ratings and their ratings measured against people."),
)
def bot_ratings(db: DbOpt = None, edition: EditionOpt = None, as_json: JsonOpt = False) -> None:
    """The bot levels' fixed ratings beside their measure from rated games with people."""
    import json

    from rich.table import Table

    from citadels.cli.app import console
    from citadels.editions import EDITIONS
    from citadels.server.measured import measure
    from citadels.server.ratings import MEASURED_MIN

    tr = translator(run_lang())
    if edition is not None and edition not in EDITIONS:
        _fail(tr.gettext("No edition is named {name}.", name=edition))
    store, _accounts = _open(db)
    try:
        editions = [edition] if edition else list(EDITIONS)
        found = {e: measure(store, e) for e in editions}
    finally:
        store.close()
    if edition is None:  # the editions where no bot played a rated game are left out
        found = {e: m for e, m in found.items() if any(v["games"] for v in m.values())}
    if as_json:
        print(json.dumps({"measured_min": MEASURED_MIN, "editions": found}, indent=2))
        return
    if not found:
        print(tr.gettext("No rated games with bots yet."))
        return
    for ed, levels in found.items():
        table = Table(
            title=tr.gettext(
                "The bots' ratings in {edition} (measured from {n} games on)",
                edition=ed, n=tr.number(MEASURED_MIN),
            ),
            title_style="bold", header_style="bold",
        )  # fmt: skip
        table.add_column(tr.gettext("Level"))
        table.add_column(tr.gettext("Fixed rating"), justify="right")
        table.add_column(tr.gettext("Games against people"), justify="right")
        table.add_column(tr.gettext("Measured rating"), justify="right")
        table.add_column("μ", justify="right")
        table.add_column("σ", justify="right")
        for level, m in levels.items():
            shown = m["rating"] is not None
            table.add_row(
                level,  # the level's id, as the server and --bots name it
                tr.number(m["anchor"]),
                tr.number(m["games"]),
                tr.number(m["rating"]) if shown else "—",
                tr.decimal(m["mu"], 2) if shown else "—",
                tr.decimal(m["sigma"], 2) if shown else "—",
            )
        console.print(table)
