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
    help=N_("Accounts of the online game: create, list, reset a password (see docs/accounts.md)."),
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
