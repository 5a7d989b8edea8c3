"""The WSGI entry point: `flask --app app ...` and waitress both load `app`."""

from scorekeeper import create_app

app = create_app()
