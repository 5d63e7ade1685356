"""Command-line commands: ``flask --app app demo [--if-empty]``."""

from __future__ import annotations

import click
from flask import Flask


def register_cli(app: Flask) -> None:
    @app.cli.command("demo")
    @click.option("--if-empty", is_flag=True, help="Only when the database has no users or clubs.")
    def demo_command(if_empty: bool) -> None:
        """Load a demo club (members with and without accounts, and the features' demo data)."""
        from .demo import DEMO_PASSWORD, DEMO_USERNAME, load_demo
        from .services import ServiceError

        try:
            data = load_demo(if_empty=if_empty)
        except ServiceError as error:
            raise click.ClickException(error.message) from error
        if data is None:
            click.echo("Database not empty: demo data not loaded.")
            return
        click.echo(f"Demo club loaded: {data.club.name} ({len(data.members) + 1} members).")
        click.echo(f"Log in as '{DEMO_USERNAME}' with password '{DEMO_PASSWORD}' (club owner).")
        click.echo("Other demo accounts (same password): lihua (director), emma (player).")
