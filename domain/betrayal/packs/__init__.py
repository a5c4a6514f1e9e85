"""What a Betrayal content pack is and how one is read: its typed shape
(``catalog``, ``catalog_campaign``), and loading and validating its files
from bytes (``load``: pack.toml and races.toml, and the starter pack; one
module per file for the rest: ``dice`` (lines.toml), ``enemies``,
``setups``, ``gear``, ``classes``, ``training``, ``campaign``, ``delve``
(delve and dungeon files)). The starter pack's files themselves are data
in ``content/``, as every ruleset keeps its pack."""
