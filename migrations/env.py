"""Alembic environment for the application's tables (`SQLModel.metadata` from duplicate.models).

Two callers:
- the application (duplicate.db.upgrade) and the tests pass an open connection in
  ``config.attributes["connection"]``;
- the ``alembic`` command line (``alembic -c migrations/alembic.ini ...``) connects to the
  ``sqlalchemy.url`` option if set, else $DATABASE_URL, else instance/duplicate.sqlite3.

SQLite cannot ALTER most things, so migrations are rendered and run in batch mode there.
"""

import os
from logging.config import fileConfig

from alembic import context
from sqlmodel import SQLModel

import duplicate.models  # noqa: F401 -- registers the tables on SQLModel.metadata
from duplicate import REPO_ROOT, config as app_config, db

config = context.config
target_metadata = SQLModel.metadata


def configure_and_run(**options) -> None:
    """Configure the migration context with the project's options and run the migrations."""
    context.configure(target_metadata=target_metadata, compare_type=True, **options)
    with context.begin_transaction():
        context.run_migrations()


def command_line_url() -> str:
    """The database URL when Alembic runs from its command line."""
    instance_path = os.path.join(REPO_ROOT, "instance")
    os.makedirs(instance_path, exist_ok=True)
    return app_config.database_url(config.get_main_option("sqlalchemy.url"), instance_path)


connection = config.attributes.get("connection")
if connection is not None:
    configure_and_run(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
else:
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)
    url = command_line_url()
    if context.is_offline_mode():
        configure_and_run(
            url=url,
            literal_binds=True,
            dialect_opts={"paramstyle": "named"},
            render_as_batch=url.startswith("sqlite"),
        )
    else:
        with db.migration_connection(url) as conn:
            configure_and_run(connection=conn, render_as_batch=conn.dialect.name == "sqlite")
