"""The HTTP face of Delve: Flask app factory, blueprints, schemas, errors, CLI."""
