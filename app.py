"""The application of ``flask --app app``; the core commands (`duplicate.core_cli.CORE_COMMANDS`) get the
light one (`duplicate.create_core_app`: no database, no web), every other use the whole application."""
import sys

from duplicate import command_asked, create_app, create_core_app
from duplicate.core_cli import CORE_COMMANDS

app = create_core_app() if command_asked(sys.argv) in CORE_COMMANDS else create_app()
