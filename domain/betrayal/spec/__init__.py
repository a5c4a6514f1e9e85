"""The rules of Betrayal as written, shipped as package data: the
specification (``betrayal.md``) and the facts and defaults that fill its
open points (``betrayal-facts.md``), copies of ``shared/rules/``. Read by
``domain.kernel.spec`` for `rk rule`."""
