"""The command line's own help in the reader's language.

The help texts of the ``citadels`` command (the app's, each command's and each option's) are
English msgids marked with ``N_`` in :mod:`citadels.cli.app`; :class:`TranslatedGroup` finds the
language of a run before anything is parsed (``--lang``/``-l`` anywhere in the arguments, else
the environment, as :func:`citadels.cli.app.choose_lang` decides) and translates the whole
command tree through the ``citadels`` catalogs, filling the ``{editions}`` and ``{languages}``
placeholders.

The words of the help page itself are translated too: the "Usage:" prefix and the help
option's "Show this message and exit." by :class:`TranslatedGroup` and
:class:`TranslatedCommand`, and the section titles ("Options", "Arguments", "Commands") and
"default"/"required" marks, which typer says through ``gettext.gettext`` in ``typer.core``, by
:func:`use_language`. Typer 0.2x carries its own copy of click whose messages (usage errors such
as "No such option") are plain English strings with no gettext call: those stay English.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Sequence
from typing import Any

import typer
import typer.core
from typer.core import TyperCommand, TyperGroup

from citadels.present import translator
from citadels.present.i18n import LANGUAGES, N_, NC_, env_lang, normalize_lang

#: The words of a help page that are typer's, not ours, marked for extraction so that every
#: catalog translates them (the ones ``typer.core`` passes to gettext, and the usage prefix and
#: help option text the classes below put in).
TYPER_TEXTS = (
    N_("Usage:"),
    N_("Show this message and exit."),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Aborted!"),
)

#: The placeholders of a help page (typer's metavars) in the language of the run: the usage
#: line's, each argument's name and each option's value type (``<int>``), in their contexts.
METAVARS: dict[str, tuple[str, str]] = {
    "[OPTIONS]": ("usage", NC_("usage", "[OPTIONS]")),
    "COMMAND [ARGS]...": ("usage", NC_("usage", "COMMAND [ARGS]...")),
    "<str>": ("metavar", NC_("metavar", "<str>")),
    "<int>": ("metavar", NC_("metavar", "<int>")),
    "<float>": ("metavar", NC_("metavar", "<float>")),
    "<path>": ("metavar", NC_("metavar", "<path>")),
    "name": ("argument", NC_("argument", "name")),
    "file": ("argument", NC_("argument", "file")),
}

#: The parser's usage errors we word ourselves (typer's copy of click writes them in English).
USAGE_TEXTS = {
    "no_such_option": N_("No such option: {name}"),
    "possible": N_("(Possible options: {options})"),
    "missing_argument": N_("Missing argument {name}."),
    "missing_option": N_("Missing option {name}."),
    "invalid_value": N_("Invalid value for {name}: {detail}"),
    "extra_arguments": N_("Unexpected extra arguments: {args}"),
    "needs_value": N_("Option {name} needs a value."),
    "takes_no_value": N_("Option {name} takes no value."),
}

#: What is wrong with a value, by the kind of the parser's complaint (pydantic's error type).
VALUE_TEXTS = {
    "int_parsing": N_("{value} is not a whole number"),
    "int_from_float": N_("{value} is not a whole number"),
    "float_parsing": N_("{value} is not a number"),
    "bool_parsing": N_("{value} is not yes or no"),
}

#: The language of the current run (set by :meth:`TranslatedGroup.main`).
_run: dict[str, str] = {"lang": "en"}


def run_lang() -> str:
    """The language of the current run of the command (``--lang``, else the environment's)."""
    return _run["lang"]


def use_language(lang: str) -> None:
    """Make typer's own words of a help page (``Options``, ``default: …``) speak ``lang`` in
    this process; ``"en"`` gives them back their English."""
    _run["lang"] = lang
    said: Callable[[str], str] = gettext.gettext if lang == "en" else translator(lang).gettext
    current = getattr(typer.core, "_", None)
    if current is gettext.gettext or getattr(current, "__self__", None) is not None:
        setattr(typer.core, "_", said)  # noqa: B010 (a name typer imported from gettext)


def argv_lang(args: Sequence[str]) -> str:
    """The language a command line asks for: the value of its ``--lang``/``-l`` option
    (``--lang fa``, ``--lang=ru_RU``, ``-l ko``, ``-lvi``) when it names one we speak, else
    the environment's (``LANG=ru_RU.UTF-8`` is ``ru``), else English. Arguments after ``--``
    are not options."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value: str | None = None
        if arg in ("--lang", "-l"):
            value = args[i + 1] if i + 1 < len(args) else None
        elif arg.startswith("--lang="):
            value = arg.removeprefix("--lang=")
        elif arg.startswith("-l") and not arg.startswith("--") and len(arg) > 2:
            value = arg[2:]
        if value is not None:
            found = normalize_lang(value)
            if found is not None:
                return found
            break  # a bad --lang is reported by the command itself
    return env_lang()


def help_fields() -> dict[str, str]:
    """The values of the placeholders the help texts may hold."""
    from citadels.editions import EDITIONS

    return {"editions": ", ".join(EDITIONS), "languages": ", ".join(LANGUAGES)}


def metavar(text: str, lang: str) -> str:
    """One of typer's placeholders (``[OPTIONS]``, ``<int>``, an argument's name) in
    ``lang``; one we do not know stays as it is."""
    if lang == "en" or text not in METAVARS:
        return text
    context, message = METAVARS[text]
    return translator(lang).pgettext(context, message)


def _value_type(param: Any) -> str | None:
    """The placeholder typer shows after an option that takes a value (``<int>``)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    try:
        shown = param.display_type(None)
    except (AttributeError, TypeError):  # a choice needs the context; we have none here
        return None
    return shown if isinstance(shown, str) else None


def translate_tree(command: Any, lang: str) -> None:
    """Translate the help of ``command``, its parameters and its subcommands into ``lang``,
    typer's placeholders (``[OPTIONS]``, ``<str>``, argument names) included (in place: typer
    builds a fresh tree for every run)."""
    tr = translator(lang)
    fields = help_fields()

    def say(text: str | None) -> str | None:
        return tr.gettext(text, **fields) if text else text

    command.help = say(command.help)
    command.short_help = say(command.short_help)
    if lang != "en":
        if getattr(command, "options_metavar", None):
            command.options_metavar = metavar(command.options_metavar, lang)
        if getattr(command, "subcommand_metavar", None):
            command.subcommand_metavar = metavar(command.subcommand_metavar, lang)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = say(param.help)
        if lang == "en" or param.metavar is not None:
            continue
        if isinstance(param, typer.core.TyperArgument):
            shown = _value_type(param)
            param.metavar = metavar(str(param.name), lang)
            if shown is not None and shown in METAVARS:
                # An argument's help shows its value type after its name: translated too.
                translated = metavar(shown, lang)
                setattr(param, "display_type_rich", lambda ctx, shown=translated: shown)  # noqa: B010
        else:
            shown = _value_type(param)
            if shown is not None and shown in METAVARS:
                param.metavar = metavar(shown, lang)
    for sub in getattr(command, "commands", {}).values():
        translate_tree(sub, lang)


class _Translated:
    """The usage prefix and the help option's text in the language of the run."""

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        """The usage line, with ``Usage:`` translated."""
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        prefix = translator(_run["lang"]).gettext("Usage:") + " "
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=prefix)

    def get_help_option(self, ctx: Any) -> Any:
        """The ``--help`` option, its text translated."""
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = translator(_run["lang"]).gettext("Show this message and exit.")
        return option


class TranslatedCommand(_Translated, TyperCommand):
    """A ``citadels`` command whose help page speaks the language of the run."""


class TranslatedGroup(_Translated, TyperGroup):
    """The ``citadels`` group: its help, its commands' help and typer's words in the language
    of the run."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Choose the language from the arguments (or ``sys.argv``) and the environment,
        translate the help, then run as typer does."""
        import sys

        given = kwargs.get("args", args[0] if args else None)
        lang = argv_lang(list(sys.argv[1:] if given is None else given))
        use_language(lang)
        translate_tree(self, lang)
        return super().main(*args, **kwargs)


def usage_error_text(error: Exception, message: str, lang: str) -> str:
    """A usage error of the option parser (its English ``message``) in ``lang``: the common
    kinds (an unknown option, a missing argument or option, an invalid value, extra arguments)
    are worded from the error's data; the value's own complaint ("'abc' is not a valid
    integer") and rarer errors keep the parser's English."""
    if lang == "en":
        return message
    tr = translator(lang)
    possibilities = getattr(error, "possibilities", None)
    if hasattr(error, "option_name") and hasattr(error, "possibilities"):
        text = tr.gettext(USAGE_TEXTS["no_such_option"], name=str(error.option_name))
        if possibilities:
            options = ", ".join(sorted(possibilities))
            text += " " + tr.gettext(USAGE_TEXTS["possible"], options=options)
        return text
    param = getattr(error, "param", None)
    if isinstance(error, typer.BadParameter) and param is not None:
        hint = getattr(error, "param_hint", None) or param.get_error_hint()
        name = hint if isinstance(hint, str) else " / ".join(hint)
        if hasattr(error, "param_type"):  # a missing parameter
            kind = getattr(error, "param_type", None) or param.param_type_name
            key = "missing_argument" if kind == "argument" else "missing_option"
            return tr.gettext(USAGE_TEXTS[key], name=name)
        detail = _value_text(error, tr.lang) or error.message
        return tr.gettext(USAGE_TEXTS["invalid_value"], name=name, detail=detail)
    option = getattr(error, "option_name", None)
    if option is not None and message.endswith(" requires an argument."):
        return tr.gettext(USAGE_TEXTS["needs_value"], name=repr(option))
    if option is not None and message.endswith(" does not take a value."):
        return tr.gettext(USAGE_TEXTS["takes_no_value"], name=repr(option))
    extra = re.fullmatch(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if extra is not None:
        return tr.gettext(USAGE_TEXTS["extra_arguments"], args=extra.group(1))
    return message


def _value_text(error: Exception, lang: str) -> str | None:
    """What is wrong with an option's value, in ``lang``, from the complaint behind ``error``
    (typer checks values with pydantic; its error type says the kind): ``None`` when the kind
    is not one we word."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if not callable(errors):
        return None
    found = errors()
    if not found or not isinstance(found[0], dict):
        return None
    text = VALUE_TEXTS.get(str(found[0].get("type")))
    if text is None:
        return None
    return translator(lang).gettext(text, value=repr(found[0].get("input")))
