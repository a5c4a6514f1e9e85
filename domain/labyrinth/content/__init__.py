"""The labyrinth starter pack's TOML files (read by ``domain.labyrinth.packs``)."""
