"""The ``citadels`` command: play, demo games, simulations, benchmarks, editions, replays."""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from citadels import __version__
from citadels.bench import markdown_table, run_bench
from citadels.cli import editions as editions_view
from citadels.cli import render, stats
from citadels.cli.i18n import (
    TranslatedCommand,
    TranslatedGroup,
    argv_lang,
    run_lang,
    usage_error_text,
)
from citadels.editions import EDITIONS, canonical_options, get_edition, resolve_setup
from citadels.engine.game import Game, game_from_json, new_game, replay
from citadels.errors import CitadelsError
from citadels.present import seat_label, translator
from citadels.present.errors import error_with_detail
from citadels.present.i18n import LANGUAGES, N_, Translator, env_lang, normalize_lang
from citadels.sim import game_seeds, play_game, random_bots, run_games
from citadels.sim.report import plots_available
from citadels.sim.tournament import BACKENDS, parse_bots, run_tournament

app = typer.Typer(
    name="citadels",
    cls=TranslatedGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    # Plain help: a switch shows as "--json", not "--json <bool>" as the rich panels print it.
    rich_markup_mode=None,
)

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

EditionOpt = Annotated[str, typer.Option("--edition", "-e", help=N_("Edition id: {editions}."))]
PlayersOpt = Annotated[int, typer.Option("--players", "-p", help=N_("Number of players."))]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help=N_("Seed (default: a fresh one, printed)."))
]
CompleteAtOpt = Annotated[
    int | None,
    typer.Option(
        "--complete-at",
        help=N_("Districts that complete a city (classic: 8, 7 or 6; 2016: 7 or 8)."),
    ),
]
CharactersOpt = Annotated[
    str | None,
    typer.Option(
        "--characters",
        help=N_("Character ids, comma-separated: one per rank 1–8, at most one of rank 9."),
    ),
]
DistrictsOpt = Annotated[
    str | None,
    typer.Option(
        "--districts",
        help=N_("The purple district ids of the deck, comma-separated (see 'citadels editions')."),
    ),
]
PresetOpt = Annotated[
    str | None,
    typer.Option(
        "--preset",
        help=N_("A named setup: characters and purple districts (see 'citadels editions')."),
    ),
]
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        "-l",
        help=N_(
            "Language of the text: {languages} (default: from LANGUAGE, LC_ALL, "
            "LC_MESSAGES or LANG, e.g. fa_IR.UTF-8 is fa; English otherwise)."
        ),
    ),
]


# The language given before the command (``citadels --lang fa demo``), set by the root callback.
_given_lang: dict[str, str | None] = {"root": None}


def choose_lang(lang: str | None) -> str:
    """The language of a command's text: ``--lang`` when given (``fa``, ``ru_RU``…; after the
    command or before it), else the environment's (``LANG=ko_KR.UTF-8`` is ``ko``), else
    English."""
    if lang is None:
        return _given_lang["root"] or env_lang()
    found = normalize_lang(lang)
    if found is None:
        said = env_lang()
        fail(
            translator(said).gettext(
                "--lang must be one of {languages}, not {value}",
                languages=", ".join(LANGUAGES),
                value=repr(lang),
            ),
            lang=said,
        )
    return found


def fail(message: str, code: int = 2, lang: str | None = None) -> NoReturn:
    """Print one error line on stderr (``error: …``, in ``lang``, by default the language of
    the run) and leave with ``code``."""
    tr = translator(run_lang() if lang is None else lang)
    err_console.print(Text(tr.gettext("error: {reason}", reason=message)))
    raise typer.Exit(code)


def _said(error: Exception, lang: str) -> str:
    """An error of the engine or the presentation in ``lang`` (see ``error_with_detail``);
    any other error as Python says it."""
    if isinstance(error, CitadelsError):
        return error_with_detail(error, lang)
    return str(error)


def _id_list(value: str | None, option: str, lang: str = "en") -> list[str] | None:
    """A comma-separated list of card ids; ``None`` when the option was not given.

    The ids are passed on as typed: ``new_game`` matches them loosely (``Tax-Collector`` is
    ``tax_collector``, see :mod:`citadels.ids`). An empty value is an empty list.
    """
    if value is None:
        return None
    if not value.strip():
        return []
    ids = [v.strip() for v in value.split(",")]
    if not all(ids):
        fail(
            translator(lang).gettext(
                "{option} takes ids separated by single commas, not {value}",
                option=option,
                value=repr(value),
            ),
            lang=lang,
        )
    return ids


def _options(
    complete_at: int | None = None,
    characters: str | None = None,
    districts: str | None = None,
    preset: str | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """The ``new_game`` options given on the command line (the others are left out); a
    malformed id list is said in ``lang``."""
    options: dict[str, Any] = {}
    if preset is not None:
        options["preset"] = preset
    chosen = _id_list(characters, "--characters", lang)
    if chosen is not None:
        options["characters"] = chosen
    purple = _id_list(districts, "--districts", lang)
    if purple is not None:
        options["districts"] = purple
    if complete_at is not None:
        options["complete_at"] = complete_at
    return options


def _option_args(options: dict[str, Any]) -> str:
    """The command-line form of ``options`` (for the replay line of ``demo``)."""
    parts = []
    if "preset" in options:
        parts.append(f"--preset {options['preset']}")
    if "characters" in options:
        parts.append(f"--characters {','.join(options['characters'])}")
    if "districts" in options:
        parts.append(f"--districts {','.join(options['districts']) or repr('')}")
    if "complete_at" in options:
        parts.append(f"--complete-at {options['complete_at']}")
    return "".join(f" {p}" for p in parts)


def _fresh_seed() -> int:
    # Short enough to type back in; any integer works as a seed.
    return secrets.randbits(32)


def _print_json(data: Any) -> None:
    # Plain JSON on stdout (no colours, no wrapping), for pipes and scripts.
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def _version(value: bool) -> None:
    if value:
        console.print(f"citadels {__version__}")
        raise typer.Exit()


@app.callback(
    help=N_("Citadels rules engine: narrated demo games, simulations, benchmarks and replays.")
)
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Print the version.")),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The options before a command: ``--version``, and ``--lang`` for every command after it
    (``citadels --lang fa demo``; a command's own ``--lang`` wins)."""
    _given_lang["root"] = None if lang is None else choose_lang(lang)


def show_game(game: Game, lang: str = "en", names: Sequence[str] | None = None) -> None:
    """Print a game's spectator log round by round, the cities and the score table, in
    ``lang``, seats called by ``names`` when given."""
    tr = translator(lang)
    view = game.view(None)
    edition = game.edition
    setup = resolve_setup(edition, game.num_players, game.record()["options"])
    render.print_narration(
        console, edition, view["log"], render.setup_summary(edition, setup, lang), lang, names
    )
    console.print()
    console.print(render.cities_table(edition, view, lang, names))
    # A game in progress shows only what a spectator may count (C-10), like its log.
    outcome = game.provisional_result(None)
    console.print(render.result_table(outcome, final=game.is_over, lang=lang, names=names))
    if not game.is_over:
        console.print(
            Text(
                tr.gettext("The game is not over: seat {seat} is to move.", seat=game.to_move),
                style="yellow",
            )
        )


@app.command(
    cls=TranslatedCommand, help=N_("Play one game among random bots and narrate it turn by turn.")
)
def demo(
    edition: EditionOpt = "classic",
    players: PlayersOpt = 4,
    seed: SeedOpt = None,
    complete_at: CompleteAtOpt = None,
    characters: CharactersOpt = None,
    districts: DistrictsOpt = None,
    preset: PresetOpt = None,
    save: Annotated[
        Path | None, typer.Option("--save", help=N_("Write the game record (JSON) to this file."))
    ] = None,
    lang: LangOpt = None,
) -> None:
    """The ``demo`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    tr = translator(lang)
    options = _options(complete_at, characters, districts, preset, lang)
    if seed is None:
        seed = _fresh_seed()
    try:
        game = new_game(edition, players, seed=seed, **options)
    except ValueError as exc:
        fail(_said(exc, lang), lang=lang)
    _, bot_seeds = game_seeds(seed, 0, players)
    play_game(game, random_bots(players, bot_seeds))
    show_game(game, lang)
    replay_cmd = (
        f"citadels demo --edition {game.edition.id} --players {players} --seed {seed}"
        + _option_args(game.record()["options"])
    )
    console.print(
        Text.assemble(
            (tr.gettext("Seed") + " ", "dim"),
            (str(seed), "bold"),
            (" — " + tr.gettext("replay: {command}", command=replay_cmd), "dim"),
        ),
        soft_wrap=True,  # one line, to copy and paste
    )
    if save is not None:
        try:
            save.write_text(json.dumps(game.record()) + "\n", encoding="utf-8")
        except OSError as exc:
            cause = str(exc.strerror or exc)
            fail(tr.gettext("Cannot write {path}: {cause}", path=str(save), cause=cause), lang=lang)
        console.print(
            Text(tr.gettext("Game record written to {path}", path=str(save)), style="dim")
        )


@app.command(
    cls=TranslatedCommand,
    help=N_(
        "Play many games among bots; print speed, game length, wins and scores.\n\n"
        "Without --bots, every seat is a random bot and the report is per seat. With --bots "
        "(or --workers, --backend, --out) it is a tournament: seats rotate every game and win "
        "rates come with confidence intervals (95%) per bot, per seat and per character."
    ),
)
def simulate(
    edition: EditionOpt = "classic",
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", help=N_("Number of players (default 4; with --bots, one per bot).")
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help=N_("Number of games."))] = 100,
    seed: SeedOpt = None,
    complete_at: CompleteAtOpt = None,
    characters: CharactersOpt = None,
    districts: DistrictsOpt = None,
    preset: PresetOpt = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help=N_(
                "One bot per seat, comma-separated: random, heuristic, ismcts, easy, medium, "
                "hard; parameters after colons (ismcts:iterations=200). Seats rotate every game."
            ),
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help=N_("Worker processes (or Ray tasks)."))
    ] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help=N_("processes (this machine) or ray (a Ray cluster)."))
    ] = "processes",
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help=N_("Ray cluster to join (default: a local instance).")),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", help=N_("Write summary.json, games.csv and PNG plots here.")),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the statistics as JSON."))
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The ``simulate`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    tr = translator(lang)
    if games < 1:
        fail(tr.gettext("--games must be at least 1, not {n}", n=games), lang=lang)
    if workers < 1:
        fail(tr.gettext("--workers must be at least 1, not {n}", n=workers), lang=lang)
    options = _options(complete_at, characters, districts, preset, lang)
    if seed is None:
        seed = _fresh_seed()
    tournament = bots is not None or workers > 1 or backend != "processes" or out is not None
    try:
        if bots is not None:
            entries = parse_bots(bots)
            if players is not None and players != len(entries):
                fail(
                    tr.ngettext(
                        "--players {players} contradicts --bots, which names {n} bot (one per "
                        "seat): leave out --players or give one bot per player",
                        "--players {players} contradicts --bots, which names {n} bots (one per "
                        "seat): leave out --players or give one bot per player",
                        len(entries),
                        players=players,
                    ),
                    lang=lang,
                )
            players = len(entries)
        else:
            players = 4 if players is None else players
            entries = parse_bots(",".join(["random"] * players)) if players >= 2 else []
        edition = get_edition(edition).id
        options = canonical_options(get_edition(edition), options)
        new_game(edition, players, seed=0, **options)
        if backend not in BACKENDS:
            fail(
                tr.gettext(
                    "unknown backend {backend}; choose one of {known}",
                    backend=repr(backend),
                    known=", ".join(BACKENDS),
                ),
                lang=lang,
            )
    except ValueError as exc:
        fail(_said(exc, lang), lang=lang)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=as_json or not err_console.is_terminal,
    )
    title = tr.gettext(get_edition(edition).title)
    what = tr.ngettext("{edition}, {n} player", "{edition}, {n} players", players, edition=edition)
    if tournament:
        with progress:
            task = progress.add_task(what, total=games)
            try:
                result = run_tournament(
                    edition,
                    entries,
                    games,
                    seed=seed,
                    workers=workers,
                    backend=backend,
                    options=options,
                    ray_address=ray_address,
                    on_progress=lambda done: progress.update(task, completed=done),
                )
            except ValueError as exc:
                fail(_said(exc, lang), lang=lang)
        written = []
        if out is not None:
            try:
                written = result.write(out)
            except OSError as exc:
                cause = str(exc.strerror or exc)
                fail(
                    tr.gettext("cannot write the report to {path}: {cause}", path=out, cause=cause),
                    lang=lang,
                )
            if not plots_available():
                note = tr.gettext(
                    "note: no plots written; the PNG plots need matplotlib: {command}",
                    command="pip install 'citadels[plots]'",
                )
                err_console.print(Text(note))
        if as_json:
            _print_json({**result.summary(), "written": written})
            return
        console.print(
            Text.assemble(
                (title, "bold"),
                " — " + _run_line(tr, players, games, seed),
                tr.ngettext(
                    ", {n} worker on {backend}",
                    ", {n} workers on {backend}",
                    workers,
                    backend=backend,
                ),
            )
        )
        if options:
            line = tr.gettext("options:") + _option_args(options)
            console.print(Text(line, style="dim"), soft_wrap=True)
        console.print(stats.tournament_tables(result, lang))
        for path in written:
            console.print(Text(tr.gettext("wrote {path}", path=path), style="dim"))
        return
    with progress:
        task = progress.add_task(what, total=games)
        figures = run_games(
            edition,
            players,
            games,
            seed,
            options=options,
            on_game=lambda _summary: progress.advance(task),
        )
    if as_json:
        _print_json({"seed": seed, "options": options, **figures.to_json()})
        return
    console.print(Text.assemble((title, "bold"), " — " + _run_line(tr, players, games, seed)))
    if options:
        line = tr.gettext("options:") + _option_args(options)
        console.print(Text(line, style="dim"), soft_wrap=True)
    console.print(stats.sim_tables(figures, lang))


def _run_line(tr: Translator, players: int, games: int, seed: int) -> str:
    """``4 players, 100 games, seed 7`` in ``tr``'s language (the seed as typed back)."""
    return tr.gettext(
        "{players}, {games}, seed {seed}",
        players=tr.ngettext("{n} player", "{n} players", players),
        games=tr.ngettext("{n} game", "{n} games", games),
        seed=str(seed),
    )


@app.command(
    cls=TranslatedCommand,
    help=N_(
        "Time random playouts, copy(), view() and one decision for every edition at 4 players."
    ),
)
def bench(
    games: Annotated[
        int, typer.Option("--games", "-g", help=N_("At most this many games per edition."))
    ] = 1000,
    seconds: Annotated[
        float,
        typer.Option("--seconds", help=N_("At most this many seconds of playouts per edition.")),
    ] = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the figures as JSON."))] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help=N_("Print the figures as a Markdown table."))
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The ``bench`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    tr = translator(lang)
    if games < 1:
        fail(tr.gettext("--games must be at least 1, not {n}", n=games), lang=lang)
    if seconds <= 0:
        fail(tr.gettext("--seconds must be positive, not {n}", n=seconds), lang=lang)
    timing = tr.gettext("Timing…")
    with err_console.status(timing, spinner="dots") if err_console.is_terminal else _null():
        report = run_bench(games, seconds)
    if as_json:
        _print_json(report.to_json())
    elif markdown:
        print(markdown_table(report, lang))
    else:
        console.print(stats.bench_table(report, lang))


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@app.command(
    cls=TranslatedCommand, help=N_("List the editions: players, city size, characters and deck.")
)
def editions(
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the editions as JSON."))
    ] = False,
    lang: LangOpt = None,
) -> None:
    """The ``editions`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    if as_json:
        _print_json([editions_view.edition_summary(e) for e in EDITIONS.values()])
    else:
        console.print(editions_view.editions_table(EDITIONS.values(), lang))


@app.command(
    "cards",
    cls=TranslatedCommand,
    help=N_("List the cards of an edition, or show one card's power and rulings."),
)
def cards_command(
    name: Annotated[
        str | None,
        typer.Argument(help=N_("A card's name or id, or a unique prefix of one (any case).")),
    ] = None,
    edition: EditionOpt = "classic",
    lang: LangOpt = None,
) -> None:
    """The ``cards`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    from citadels.cli.cards import card_panel, cards_table
    from citadels.present import find_card
    from citadels.present.labels import get_edition as find_edition

    try:
        ed = find_edition(edition)
        if name is None:
            console.print(cards_table(ed, lang))
        else:
            console.print(card_panel(ed, find_card(ed, name, lang), lang))
    except CitadelsError as exc:
        fail(_said(exc, lang), lang=lang)


def load_game(path: Path, lang: str = "en") -> Game:
    """Read a game record (``Game.record()``) or a saved game (``Game.to_json()``); a file
    that cannot be read is said in ``lang``."""
    return load_named_game(path, lang)[0]


def load_named_game(path: Path, lang: str = "en") -> tuple[Game, list[str] | None]:
    """``load_game`` with the seats' display names a save of ``citadels play`` keeps (the
    names the players gave, else ``Seat N`` in ``lang``); ``None`` for other files."""
    tr = translator(lang)
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        reason = str(exc.strerror or exc)
        fail(tr.gettext("cannot read {path}: {reason}", path=str(path), reason=reason), lang=lang)
    except UnicodeDecodeError:
        fail(tr.gettext("{path} is not a text file", path=str(path)), lang=lang)
    except json.JSONDecodeError as exc:
        fail(
            tr.gettext(
                "{path} is not valid JSON: {reason} (line {line}, column {column})",
                path=str(path),
                reason=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            ),
            lang=lang,
        )
    kind = obj.get("format") if isinstance(obj, dict) else None
    try:
        if isinstance(kind, str) and kind.startswith("citadels.play/"):
            # A game saved by ``citadels play``: the whole game is inside it.
            seats = obj.get("seats")
            obj = obj.get("game")
            if not isinstance(obj, dict):
                raise KeyError("game")
            game = game_from_json(obj)
            given = [s.get("name") if isinstance(s, dict) else None for s in seats or []]
            if len(given) != game.num_players:
                given = [None] * game.num_players
            return game, [
                name if isinstance(name, str) and name else seat_label(seat, None, lang)
                for seat, name in enumerate(given)
            ]
        if isinstance(kind, str) and kind.startswith("citadels.game/"):
            return game_from_json(obj), None
        return replay(obj), None
    except CitadelsError as exc:
        fail(f"{path}: {_said(exc, lang)}", lang=lang)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A damaged file the loader did not recognise as such: still one line, no traceback.
        detail = f"it lacks {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
        fail(
            tr.gettext(
                "{path} does not load as a game record or saved game: {detail}",
                path=str(path),
                detail=detail,
            ),
            lang=lang,
        )


@app.command(
    "replay",
    cls=TranslatedCommand,
    help=N_("Narrate a recorded or saved game and print its result."),
)
def replay_command(
    file: Annotated[Path, typer.Argument(help=N_("A game record or saved game (JSON)."))],
    lang: LangOpt = None,
) -> None:
    """The ``replay`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    game, names = load_named_game(file, lang)
    show_game(game, lang, names)


def _first_human_seat(path: Path) -> int:
    """The first seat a person played in a ``citadels play`` save (0 for any other file)."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    seats = obj.get("seats") if isinstance(obj, dict) else None
    if isinstance(obj, dict) and str(obj.get("format", "")).startswith("citadels.play/"):
        for i, seat in enumerate(seats if isinstance(seats, list) else []):
            if isinstance(seat, dict) and seat.get("kind") == "human":
                return i
    return 0


@app.command(
    "review",
    cls=TranslatedCommand,
    help=N_(
        "Review one seat's decisions in a recorded or saved game: the search's estimated win "
        "chance of each choice and of the best ones, from what the seat knew (see "
        "docs/review.md)."
    ),
)
def review_command(
    file: Annotated[Path, typer.Argument(help=N_("A game record or saved game (JSON)."))],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", help=N_("The seat to review (default: the player's in a save, else 0).")
        ),
    ] = None,
    budget: Annotated[
        int,
        typer.Option("--budget", help=N_("Search iterations per decision (more: slower, surer).")),
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", "-s", help=N_("Seed of the search (the same seed, the same review).")
        ),
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the review as JSON."))] = False,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", help=N_("Draw the win-chance curves into this PNG file.")),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """The ``review`` command (its help is the ``help`` above, translated when shown)."""
    lang = choose_lang(lang)
    tr = translator(lang)
    from citadels.review import review_game

    if budget < 1:
        fail(tr.gettext("--budget must be at least 1, not {n}", n=budget), lang=lang)
    if out is not None and not plots_available():
        fail(
            tr.gettext(
                "--out draws a PNG with matplotlib, which is not installed: {command}",
                command="pip install 'citadels[plots]'",
            ),
            lang=lang,
        )
    game, names = load_named_game(file, lang)
    if seat is None:
        seat = _first_human_seat(file)
    if not 0 <= seat < game.num_players:
        fail(
            tr.gettext(
                "--seat must be from 0 to {last} in this game, not {n}",
                last=game.num_players - 1,
                n=seat,
            ),
            lang=lang,
        )
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=as_json or not err_console.is_terminal,
    )
    with progress:
        task = progress.add_task(tr.gettext("Reviewing…"), total=None)
        try:
            result = review_game(
                game,
                seat,
                budget=budget,
                seed=seed,
                on_progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
        except CitadelsError as exc:
            fail(f"{file}: {_said(exc, lang)}", lang=lang)
    if out is not None:
        from citadels.cli.review import write_curves

        try:
            write_curves(result, out, lang, names)
        except OSError as exc:
            cause = str(exc.strerror or exc)
            fail(tr.gettext("cannot write {path}: {cause}", path=out, cause=cause), lang=lang)
    if as_json:
        from citadels.present.review import key_moment_lines

        data = result.to_json()
        data["key_moment_texts"] = key_moment_lines(result, lang, names)
        if out is not None:
            data["written"] = [out]
        _print_json(data)
        return
    from citadels.cli.review import review_tables

    console.print(review_tables(result, lang, names))
    if out is not None:
        console.print(Text(tr.gettext("wrote {path}", path=out), style="dim"))


@app.command(
    cls=TranslatedCommand,
    help=N_("Run the online game: tables, bots and the browser client (see docs/protocol.md)."),
)
def serve(
    host: Annotated[str, typer.Option(help=N_("The address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("The port to listen on."))] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help=N_("Database URL (default: the SQLite file ./citadels.sqlite3).")),
    ] = None,
    redis: Annotated[
        str | None, typer.Option(help=N_("Redis URL, to share tables between server processes."))
    ] = None,
    bot_workers: Annotated[int, typer.Option(help=N_("Worker processes for the bots."))] = 2,
    grace: Annotated[
        float, typer.Option(help=N_("Seconds before a stand-in bot plays for a player who left."))
    ] = 5.0,
    throttle: Annotated[
        bool,
        typer.Option(
            help=N_(
                "Limit the requests and connections of each client address (see "
                "docs/protocol.md); --no-throttle for tests whose clients share one address."
            )
        ),
    ] = True,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            help=N_(
                'The SMTP server of the "your turn" e-mails at turn-based tables (default: '
                "CITADELS_SMTP_HOST; none: no e-mails; see docs/accounts.md)."
            )
        ),
    ] = None,
    smtp_port: Annotated[
        int | None,
        typer.Option(help=N_("Its port (default: CITADELS_SMTP_PORT, else 587).")),
    ] = None,
    smtp_security: Annotated[
        str | None,
        typer.Option(
            help=N_("starttls, ssl or none (default: CITADELS_SMTP_SECURITY, else starttls).")
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(help=N_("The e-mails' From address (default: CITADELS_MAIL_FROM).")),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "The site's address as players reach it, for the links in e-mails (default: "
                "CITADELS_PUBLIC_URL)."
            )
        ),
    ] = None,
) -> None:
    """The ``serve`` command (its help is the ``help`` above, translated when shown)."""
    from citadels.server import ServerConfig, browser_url, default_db_url
    from citadels.server import serve as run_server
    from citadels.server.limits import Limits

    tr = translator(run_lang())
    if not 1 <= port <= 65535:
        fail(tr.gettext("--port must be 1 to 65535, not {n}", n=port))
    if bot_workers < 1:
        fail(tr.gettext("--bot-workers must be at least 1, not {n}", n=bot_workers))
    if grace < 0:
        fail(tr.gettext("--grace must not be negative, not {n}", n=grace))
    from dataclasses import replace

    from citadels.server.accounts import AccountConfig, SignInLimits
    from citadels.server.mail import SECURITY, MailConfig

    # The options win over the environment (CITADELS_SMTP_*); the password comes only from it.
    given: dict[str, Any] = {"host": smtp_host, "port": smtp_port, "security": smtp_security,
                             "sender": mail_from, "public_url": public_url}  # fmt: skip
    mail = replace(MailConfig.from_env(), **{k: v for k, v in given.items() if v is not None})
    if mail.security not in SECURITY:
        fail(tr.gettext("--smtp-security must be starttls, ssl or none, not {value}",
                        value=mail.security))  # fmt: skip
    if not 1 <= mail.port <= 65535:
        fail(tr.gettext("--smtp-port must be 1 to 65535, not {n}", n=mail.port))
    if (mail.user is None) != (mail.password is None):
        fail(tr.gettext("CITADELS_SMTP_USER and CITADELS_SMTP_PASSWORD go together: set both "
                        "or neither"))  # fmt: skip

    config = ServerConfig(
        db=db or default_db_url(), redis=redis, bot_workers=bot_workers, grace=grace,
        limits=Limits(throttle=throttle),
        # --no-throttle: no throttle on wrong passwords and new accounts either.
        accounts=AccountConfig(limits=SignInLimits(throttle=throttle)),
        mail=mail,
    )  # fmt: skip
    url = browser_url(host, port)
    print(tr.gettext("Citadels server: open {url} in your browser", url=url), flush=True)
    # Ctrl+C or SIGTERM: the server shuts down in order and returns; one line says so.
    run_server(config, host, port, announce=False)
    print(tr.gettext("Citadels server stopped."), flush=True)


@app.command(
    cls=TranslatedCommand,
    help=N_("Play in the terminal: you against bots, or friends at one screen (--hotseat)."),
)
def play(
    edition: EditionOpt = "classic",
    players: PlayersOpt = 4,
    seed: SeedOpt = None,
    complete_at: CompleteAtOpt = None,
    characters: CharactersOpt = None,
    districts: DistrictsOpt = None,
    preset: PresetOpt = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help=N_(
                "Bot levels, comma-separated: easy, medium, hard (or random, heuristic, "
                "ismcts). Alone: one level for every bot or one per bot seat (default medium). "
                "With --hotseat: the bots sitting after the people (default none)."
            ),
        ),
    ] = None,
    seat: Annotated[
        int,
        typer.Option(
            "--seat", help=N_("Your seat, from 0 (the crown goes to a seat drawn at random).")
        ),
    ] = 0,
    hotseat: Annotated[
        bool,
        typer.Option(
            "--hotseat",
            help=N_(
                "Friends at one screen: every seat without a bot is a "
                "person; a 'pass to' screen guards each change of seat."
            ),
        ),
    ] = False,
    names: Annotated[
        str | None,
        typer.Option("--names", help=N_("Display names of the seats, comma-separated, in order.")),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help=N_("Go on with a saved game (the other setup options are then ignored)."),
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help=N_(
                "The save file (default: one per game in the user's "
                "data directory, e.g. ~/.local/share/citadels/games/)."
            ),
        ),
    ] = None,
    pace: Annotated[
        float,
        typer.Option(
            "--pace",
            help=N_(
                "Seconds between two bot moves (+ and - change it while playing, Space skips)."
            ),
        ),
    ] = 1.0,
    lang: LangOpt = None,
) -> None:
    """The ``play`` command (its help is the ``help`` above, translated when shown)."""
    given_lang = lang
    lang = choose_lang(lang)
    tr = translator(lang)
    from citadels.tui import PlayApp, SaveError, Session, default_save_dir, load_session
    from citadels.tui import make_seats as seats_for
    from citadels.tui.commands import Commands

    if pace < 0:
        fail(tr.gettext("--pace must be 0 or more seconds, not {pace}", pace=pace), lang=lang)
    if resume is not None:
        try:
            session = load_session(resume)
        except SaveError as exc:
            fail(
                tr.gettext(
                    "{reason}. The file was left as it is.", reason=_said(exc, lang).rstrip(".")
                ),
                lang=lang,
            )
        if save is not None:
            session.save_path = save
        if given_lang is not None:  # a resumed game keeps its language unless told otherwise
            session.lang = lang
    else:
        options = _options(complete_at, characters, districts, preset, lang)
        if seed is None:
            seed = _fresh_seed()
        try:
            game = new_game(edition, players, seed=seed, **options)
            level_list = None if bots is None else [b for b in bots.split(",") if b.strip()]
            name_list = None if names is None else names.split(",")
            chosen = seats_for(players, level_list, seat, hotseat, name_list)
            session = Session(game, chosen, hotseat, save, lang)
        except ValueError as exc:
            fail(_said(exc, lang), lang=lang)
        if session.save_path is None:
            session.save_path = default_save_dir() / f"game-{seed}.json"
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail(
            tr.gettext("citadels play needs a terminal (its input and output are not one)"),
            lang=lang,
        )
    commands = Commands()
    play_app = PlayApp(session, pace=pace, handle_signals=True, commands=commands)
    outcome = play_app.run()
    path = play_app.saved_to
    with contextlib.suppress(OSError):  # the terminal may be gone (a hang-up)
        if play_app.save_error:
            err_console.print(
                Text(
                    tr.gettext(
                        "error: the game could not be saved: {reason}",
                        reason=str(play_app.save_error),
                    )
                )
            )
        if path is None:
            return
        if outcome == "over" or play_app.session.game.is_over:
            console.print(
                Text(tr.gettext("The game record is in {path}", path=str(path)), style="dim"),
                soft_wrap=True,
            )
            console.print(
                Text.assemble(tr.gettext("Replay it with:") + " ", (commands.replay(path), "bold")),
                soft_wrap=True,
            )
        else:
            console.print(
                Text.assemble(
                    tr.gettext("Game saved. Go on with:") + " ",
                    (commands.resume(path), "bold"),
                ),
                soft_wrap=True,
            )


def main(argv: list[str] | None = None) -> None:
    """Run the ``citadels`` command; usage errors print one line and exit with code 2."""
    command = typer.main.get_command(app)
    # The parser's own words are English (typer's click has no catalogs); ours are not.
    tr = translator(argv_lang(sys.argv[1:] if argv is None else argv))
    try:
        code = command.main(args=argv, prog_name="citadels", standalone_mode=False)
    except typer.Abort:
        err_console.print(tr.gettext("Aborted!"))
        sys.exit(130)
    except typer.TyperException as exc:
        # Bad or missing options and arguments (click usage errors).
        format_message = getattr(exc, "format_message", None)
        message = format_message() if callable(format_message) else str(exc)
        message = usage_error_text(exc, message, tr.lang)
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "citadels"
        if message:  # empty when the help was printed because no command was given
            hint = tr.gettext("{reason} (see '{command} --help')", reason=message, command=where)
            err_console.print(Text(tr.gettext("error: {reason}", reason=hint)))
        sys.exit(getattr(exc, "exit_code", 2))
    sys.exit(code if isinstance(code, int) else 0)


def _add_accounts() -> None:
    from citadels.cli.accounts import accounts_app

    app.add_typer(accounts_app, name="accounts")


_add_accounts()
