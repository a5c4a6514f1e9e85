"""The rules of Conquest as written, shipped as package data: the
specification (``conquest.md``) and the facts and defaults that fill its
open points (``conquest-facts.md``), copies of ``shared/rules/``. Read by
``domain.kernel.spec`` for `rk rule`."""
