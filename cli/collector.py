"""The collector's rhythm for one command run in this process (``cli.direct``).

Importing and reading leave some 40,000 objects that live as long as the
command, nearly none of them garbage: at the interpreter's rhythm (a young
collection every 700 allocations) the collector walked them some 70 times
(~11 ms of `rk status`'s ~150 ms of CPU) to free a few hundred. With
``YOUNG``, a short command ends before its first collection; a long one
(`rk log` of a long game) is still collected. ``cli.client`` sets it before
the command's modules are imported (their import alone was collected 8
times); typer's commands, `rk play` and `rk serve` among them, get the
interpreter's thresholds back.
"""

import gc

YOUNG = 50_000  # young objects let pile up before a collection (the older generations keep theirs)


def for_one_command() -> tuple[int, int, int]:
    """Set the rhythm for one command; returns the thresholds it replaced."""
    default = gc.get_threshold()
    gc.set_threshold(YOUNG, *default[1:])
    return default
