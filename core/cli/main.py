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
    "core.cli.interop",
    "core.cli.verify",
    "core.cli.query",
    "core.cli.compare",
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
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # known user-facing errors carry a clear message
        msg = user_message(exc)
        if msg is None:
            raise
        print(f"error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
