"""Kings Corners Scorekeeper: a Flask app for the phones around a real card table."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from . import cli, config, extensions, web
from .db import models  # noqa: F401  (registers the tables)

HERE = Path(__file__).resolve().parent


def folder(name: str) -> str:
    """Return where the pages' `templates` or `static` folder is: inside the package when
    installed (the wheel carries them there), else at the top of the checkout."""
    inside = HERE / name
    return str(inside if inside.is_dir() else HERE.parent / name)


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True,
                # A relative folder is taken from where the app is started.
                instance_path=os.path.abspath(os.environ["INSTANCE_PATH"])
                if os.environ.get("INSTANCE_PATH") else None,
                template_folder=folder("templates"), static_folder=folder("static"))
    config.configure(app, test_config)
    extensions.db.init_app(app)
    extensions.migrate.init_app(app, extensions.db,
                                directory=str(Path(__file__).parent / "db" / "migrations"))
    web.init(app)
    cli.register(app)
    return app
