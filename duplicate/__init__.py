"""Duplicate French tarot tournaments: the Flask application factory.

`create_app` wires configuration, the database (migrated to the latest revision at start-up), the web
blueprints and the ``flask`` command-line commands. Templates and static files live at the top of the
repository (``templates/``, ``static/``), next to this package.

Importing this package must stay cheap and dependency-free: ``duplicate.core`` is pure Python and
importing it must not import Flask or SQLAlchemy, so those imports happen inside `create_app`.
"""

import os

from duplicate.paths import REPO_ROOT


def create_app(test_config=None):
    """Build the application. `test_config` (a mapping) selects TestConfig and overrides its values."""
    from flask import Flask
    from flask_compress import Compress
    from flask_wtf.csrf import CSRFProtect

    from duplicate import cli, config, db, serving, web

    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=os.path.join(REPO_ROOT, "templates"),
        static_folder=os.path.join(REPO_ROOT, "static"),
    )

    if test_config is None:
        app.config.from_object(config.Config)
    else:
        app.config.from_object(config.TestConfig)
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    config.finalize(app.config, app.instance_path)

    # PROXY_FIX (behind one reverse proxy): waitress believes that proxy's headers, from its address only
    # (`serving.proxy_settings`); no second layer here (werkzeug's ProxyFix would believe any peer)
    db.init_app(app)
    CSRFProtect(app)  # every POST form carries a token; TestConfig turns the check off (WTF_CSRF_ENABLED)
    Compress(app)  # pages and JSON compressed for the browsers that accept it (`config.Config.COMPRESS_*`)
    web.init_app(app)
    serving.init_app(app)
    cli.init_app(app)
    return app


def create_core_app():
    """A light application for the commands that only read their input and call the core (``deal``,
    ``score``, ``rank``, ``movement``: `core_cli.CORE_COMMANDS`): no database, no blueprints, so that
    ``flask --app app rank FILE`` loads Flask (the ``flask`` program imports it before it reads ``--app``)
    and the core, nothing more; ``python -m duplicate rank FILE`` skips Flask too."""
    from flask import Flask

    from duplicate import cli

    app = Flask(__name__)
    cli.init_core(app)
    return app


def command_asked(argv: list[str]) -> str | None:
    """The ``flask`` command named on a command line (``flask --app app rank FILE`` → ``rank``), or None."""
    if not argv or os.path.basename(argv[0]) not in ("flask", "flask.exe", "__main__.py"):
        return None
    args = iter(argv[1:])
    for arg in args:
        if arg in ("--app", "-A", "--env-file", "-e"):
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return None
