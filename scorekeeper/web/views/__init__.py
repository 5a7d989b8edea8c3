"""The blueprints, one module each; scorekeeper/web/__init__.py registers them."""
