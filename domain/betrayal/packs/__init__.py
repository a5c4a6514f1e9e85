"""What a Betrayal content pack is and how one is read: its typed shape
(``catalog``, ``catalog_campaign``, ``catalog_companions``), the names of
its files (``files``), where a pack comes from (``load``: a folder or the
starter pack, read back from the pack cache), and validating its files from
bytes (``parse``: pack.toml and races.toml; one module per file for the
rest: ``dice`` (lines.toml), ``enemies``, ``setups``, ``gear``,
``classes``, ``training``, ``campaign``, ``companions``, ``delve`` (delve
and dungeon files)), imported only when a pack is parsed. The starter
pack's files themselves are data in ``content/``, as every ruleset keeps
its pack."""
