"""PostgreSQL schemas of the server's tests: each test's store in a schema
of its own, dropped afterwards with everything in it."""

from __future__ import annotations

from uuid import uuid4


def fresh_schema(url: str) -> str:
    """A new, empty schema's name, in the database of ``url``."""
    import psycopg

    schema = f"t{uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return schema


def drop_schema(url: str, schema: str) -> None:
    """Drop a schema made by ``fresh_schema``, its tables and types too."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
