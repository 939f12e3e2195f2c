"""Command line: the only place where the parts are wired together.

Heavy and optional libraries (librosa, sounddevice, vosk, matplotlib) are imported
inside the commands that need them, so `--help` and the file-based commands work
without them.
"""
from __future__ import annotations

import sys

import click

from beattrainer import __version__


class UserError(click.ClickException):
    """A one-line error for the user; exit code 2 (bad input)."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: D102 - one line, no usage dump
        click.echo(f"error: {self.format_message()}", err=True, file=file or sys.stderr)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="beattrainer")
def cli() -> None:
    """Referee and coach for Beatz'n'Catz (Miezekatze), plus three text-mode cat games."""


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="beattrainer")
