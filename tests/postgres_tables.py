"""Clean-up for tests that create application tables on PostgreSQL."""


def drop_postgres_tables(setting: str, app_name: str) -> None:
    """Drop an application's tables (the library names them after the app)."""
    import psycopg

    with psycopg.connect(setting, autocommit=True) as conn:
        for purpose in ("events", "snapshots"):
            conn.execute(f'DROP TABLE IF EXISTS "{app_name.lower()}_{purpose}"')
