"""`sensemaker` command line: assembles the subcommands (each module of COMMAND_MODULES has
`register(subparsers)`) and turns known errors into one-line messages and exit code 2."""
from __future__ import annotations

import argparse
import importlib
import sys
import textwrap

from core.errors import UserError, user_message

# modules that contribute subcommands (each has register(subparsers))
COMMAND_MODULES = [
    "core.cli.index",
    "core.cli.documents",
    "core.cli.interop",
    "core.cli.verify",
    "core.cli.query",
    "core.cli.compare",
    "core.cli.migrate",
    "core.cli.worker",
    "core.cli.token",
]


DESCRIPTION = ("Sensemaker turns a folder of documents into a knowledge graph with community "
               "reports, answers global and local questions over it, and checks that every "
               "citation in an answer is backed by the source text. Works offline, or with any "
               "OpenAI-compatible model.")
EPILOG = ("start here:  sensemaker index docs/ --workspace ws   then   "
          "sensemaker query \"What are the main themes?\" --workspace ws\n"
          "the web app: sensemaker app   (run 'sensemaker COMMAND --help' for a command's options)")


class CLIError(UserError):
    """An error to show the user as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sensemaker", description=textwrap.fill(DESCRIPTION, 78), epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for name, child in sub.choices.items():  # each subcommand's --help opens with what it does
        if not child.description:
            helps = [a.help for a in sub._choices_actions if a.dest == name]
            child.description = helps[0] if helps else None
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _app_workspace(args)
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler below, not at exit
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sensemaker status --json | head`: the reader has gone, so be quiet
        _quiet_stdout()
        return 141
    except Exception as exc:  # known user-facing errors carry a clear message
        msg = user_message(exc)
        if msg is None:
            raise
        print(f"error: {msg}", file=sys.stderr)
        return 2


def _app_workspace(args) -> None:
    """--workspace NAME where no folder NAME is a workspace but the app has one: use the app's."""
    from core.store.workspace import app_workspace
    given = getattr(args, "workspace", None)
    there = app_workspace(given) if given else None
    if there is not None:
        print(f"workspace {given!r}: the app's, {there}", file=sys.stderr)
        args.workspace = str(there)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's flush at exit does not fail again on the
    closed pipe (the recipe of Python's signal documentation)."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
