"""The `rk` verbs for trusted logs, registered on the app of ``cli.main``:
``rk keygen`` makes the Ed25519 key ``rk export --sign`` signs a log with
and ``rk verify --key`` checks. The work is done in ``cli.portable``,
imported only when a verb runs (and ``cryptography`` only there)."""

from typing import Annotated

import typer

from .app import LOGS, Json, _run, app


@app.command(rich_help_panel=LOGS)
def keygen(
    ctx: typer.Context,
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="KEYFILE",
            show_default=False,
            help="Where to write the private key (created readable by you only; never overwritten)."
            " The public key goes to KEYFILE.pub and is printed.",
        ),
    ],
    json: Json = False,
) -> None:
    """Make a key to sign logs with (`rk export --sign KEYFILE`).

    Give the public key to whoever checks your logs: `rk verify FILE --key KEYFILE.pub`
    shows the log was exported by the key's holder. Without a signature a log
    proves only that it is consistent: anyone can write a consistent forgery.
    """
    from . import portable

    _run(ctx, portable.keygen, None, None, json, output)
