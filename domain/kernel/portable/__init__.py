"""The portable log of any game: export, import and verify (DESIGN: Logs).

A log is JSON Lines. Line 1 is a header naming the format, the ruleset, the
rules version and content pack, the battle and every stream the log holds,
and the digest of the game's final state. Each further line is one stored
event, in append order, with its stream, version, type (the event's stable
TOPIC), command id, time and data. Every line carries a hash chained to the
line before::

    hash = BLAKE2b-128(previous hash as hex ASCII + canonical bytes of the
                       line's object without its "hash" key)

where the canonical bytes are ``msgspec.json.encode(obj, order="sorted")``
of the parsed object, so the check does not depend on whitespace or key
order in the file, and any edit of content breaks the chain at that line.
A line deleted, two lines swapped or a line repeated break it too, at the
first line out of place; the line numbers and hashes the lines record
tell which it was. Nothing after a break is judged: a version gap or a
command cut short there is its consequence, not another divergence.

The header's ``ruleset`` picks the rules everything else is read, checked
and re-decided with. ``import_log`` checks everything before it writes
anything. ``verify_log`` re-decides every recorded command with the current
rules, re-derives every random outcome from (seed, counter), checks every
write to another stream and every undo, and reports the first place the log
and the rules part ways.

The last line is a trailer: the number of event lines, the hash of the
line before it, the final state digest again, and an optional Ed25519
signature (``domain.kernel.signing``) over the trailer's other fields,
which, through ``last_hash``, covers every line. A log without its trailer
was cut, and is reported so.

Which lines belong to which command: a command's events are saved in one
transaction, game stream first, so in append order they are one run of
lines (a setup's prelude, the new party members, just before it). Lines of
other streams outside any command of the game (an adventurer's earlier
battles) are the streams' history.

Limits: a line may hold at most ``MAX_LINE_BYTES`` and nest at most
``MAX_DEPTH`` levels of arrays and objects; a log is read one line at a
time, so export, verify and import take memory for one command, not for
the whole log.

The package, one concept a module: ``chain`` (hashes, digests, times),
``export``, ``parse`` (a line's shape, the header, an event's data),
``reader`` (lines in order, where the chain breaks), ``importer``,
``verify`` (the pass over a log), ``redecide`` (one command against the
rules), ``history`` (the other streams a log holds), ``undo`` (what an
undo must restore), ``trailer`` (how a log must end), ``diff``
(divergences and how two values differ) and ``progress``.
"""

from domain.kernel.portable.chain import FORMAT, SIGNED_PREFIX, state_digest
from domain.kernel.portable.diff import Divergence
from domain.kernel.portable.export import (
    export_battle,
    export_group,
    export_lines,
    group_lines,
    write_group_log,
    write_log,
)
from domain.kernel.portable.importer import import_log
from domain.kernel.portable.parse import MAX_DEPTH, MAX_LINE_BYTES, Source
from domain.kernel.portable.progress import PROGRESS_EVERY, Progress
from domain.kernel.portable.reader import Entry, ParsedLog, read_log
from domain.kernel.portable.verify import Report, verify_battle, verify_group, verify_log

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "PROGRESS_EVERY",
    "SIGNED_PREFIX",
    "Divergence",
    "Entry",
    "ParsedLog",
    "Progress",
    "Report",
    "Source",
    "export_battle",
    "export_group",
    "export_lines",
    "group_lines",
    "import_log",
    "read_log",
    "state_digest",
    "verify_battle",
    "verify_group",
    "verify_log",
    "write_group_log",
    "write_log",
]
