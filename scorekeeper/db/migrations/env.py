import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging, in a process that has not set up its own
# (the command line, `make run`; the test suite's log capture is left alone), and leaving
# every logger made before it as it was: `kings-corners serve` upgrades in the process that
# then serves, and waitress's warnings (requests queueing up, a socket failing) would
# otherwise be silenced for good.
if not logging.getLogger().handlers:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger('alembic.env')

# An upgrade says what it did in one line (alembic's own INFO lines are turned down in
# alembic.ini; its warnings and errors still show): `make run` reads it on every start.
applied = []


def note_step(ctx, step, heads, run_args):
    """Remember a migration step as it is applied."""
    applied.append((step, tuple(heads)))


def report():
    """Print what an upgrade, downgrade or stamp did, or that there was nothing to do."""
    try:
        context.get_revision_argument()
    except KeyError:
        return  # current, check, migrate: no destination, nothing to report
    if not applied:
        heads = context.get_context().get_current_heads()
        print(f"Database: up to date (revision {', '.join(heads) or 'none'})", flush=True)
        return
    first, (last, heads) = applied[0][0], applied[-1]
    now = ', '.join(sorted(heads)) or 'none'
    before = ', '.join(first.source_revision_ids)
    if last.is_stamp:
        said = f"marked as revision {now}"
    elif not last.is_upgrade:
        said = f"downgraded from {before} to {now}" if heads else f"emptied (was {before})"
    elif not before:
        said = f"created (revision {now})"
    else:
        said = f"upgraded from {before} to {now}"
    print(f"Database: {said}", flush=True)


def get_engine():
    return current_app.extensions['migrate'].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace(
            '%', '%%')
    except AttributeError:
        return str(get_engine().url).replace('%', '%%')


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option('sqlalchemy.url', get_engine_url())
target_db = current_app.extensions['migrate'].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, 'metadatas'):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url, target_metadata=get_metadata(), literal_binds=True
    )

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, 'autogenerate', False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info('No changes in schema detected.')

    conf_args = current_app.extensions['migrate'].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()

    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=get_metadata(),
            on_version_apply=note_step,
            **conf_args
        )

        with context.begin_transaction():
            context.run_migrations()
        report()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
