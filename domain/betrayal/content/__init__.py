"""The starter content pack, as data (TOML): races, classes, skill lines
and dice, enemies, gear and items, setups, delve cards and tiles, dungeons,
campaign. ``packs.load.starter_pack`` reads it; nothing here is code."""
