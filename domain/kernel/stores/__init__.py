"""Where a game's events are kept, apart from the kernel's contract: the
event-sourced application on a store (``application``), the store settings
(``store_setting``, read by the `rk` client before anything heavy loads, so
this package imports nothing itself), their environment (``store``), the
PostgreSQL recorder and listener (``pgstore``, ``pglisten``), the msgspec
mapper, and reading a few streams in append order (``streams_order``)."""
