"""`sensemaker` command line. Each group of subcommands lives in its own module exposing
`register(subparsers)`; this file only assembles them and turns known errors into clear
messages and a non-zero exit code."""
from __future__ import annotations

import argparse
import importlib
import sys

from core.errors import UserError, user_message

# modules that contribute subcommands (each has register(subparsers))
COMMAND_MODULES = [
    "core.cli_index",
    "core.cli_interop",
    "core.cli_verify",
    "core.cli_query",
]


class CLIError(UserError):
    """An error to show the user as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sensemaker", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
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
