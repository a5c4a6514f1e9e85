"""The labyrinth battle rules as written, shipped as package data: the
specification (``labyrinth.md``) and the facts and defaults that fill its
open points (``labyrinth-facts.md``), copies of ``shared/rules/``. Read by
``domain.kernel.spec`` for `rk rule`."""
