"""Blueprints, one per resource."""
