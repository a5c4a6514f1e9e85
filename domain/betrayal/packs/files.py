"""The files a Betrayal content pack may hold, by name: what ``load`` reads
from a folder or the starter pack, and what each parser module reads
(``parse``). Names only, so finding a pack's files (and reading the parsed
pack back from its cache) loads none of the parsers."""

from __future__ import annotations

CORE_FILES = ("pack.toml", "races.toml", "lines.toml", "enemies.toml", "setups.toml")
DELVE_FILES = ("delve.toml", "items.toml", "dungeons.toml")  # optional: all three or none (``delve``)
CAMPAIGN_FILES = ("classes.toml", "gear.toml", "training.toml", "campaign.toml")  # optional, all four (``campaign``)
COMPANION_FILE = "companions.toml"  # optional, outside every hash (``companions``)

PACK_FILES = CORE_FILES + DELVE_FILES  # the files battles read; the delve ones optional
# every file a pack may hold: the campaign files are optional too, and kept
# out of PACK_FILES so a pack built from those files is the battle pack alone
ALL_FILES = PACK_FILES + CAMPAIGN_FILES
# optional files outside every hash: companion chips (``companions``)
EXTRA_FILES = (COMPANION_FILE,)
