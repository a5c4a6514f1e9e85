"""The `rk` console script: a thin client of a resident `rk serve`.

A command as a whole process mostly pays for imports (eventsourcing, typer,
rich, the rules). When ``rk serve`` is running for the same store, this
module hands the command line to it over a Unix socket and prints the
answer, importing nothing but the standard library and the light modules
``cli.protocol`` (what both sides agree on) and ``domain.kernel.stores.store``;
otherwise it runs the command in this process, exactly as ``cli.main.run``
does (the commonest command lines without typer: ``cli.direct``).

Protocol (one request per connection, each side JSON objects each ending in
a newline): the client sends ``{"argv", "cwd", "store", "tty", "width"}`` (and
``"columns"``, its ``$COLUMNS`` or null); the server answers ``{"started":
true}`` when it begins to run the command, then ``{"stdout", "stderr",
"exit"}``; or, without starting, ``{"decline": reason}`` when the command
should run in the client's own process (also when the server is busy).

Trust: the socket lives in a directory of this user's own (``rk-<uid>``
under the home, mode 0700); before connecting, the client checks that the
directory and the socket belong to this user and that no one else may enter
the directory, so another user cannot plant a socket to receive our command
lines. Passwords in store URLs are never sent: the server matches the store
with the password masked against its own.
"""

import os
import stat
import sys
import time

from domain.kernel.stores.store_setting import masked

from .protocol import effective_store, in_process, socket_path

NO_SERVER = "RULEKEEPER_NO_SERVER"  # set (to anything) to never use a server
# The variable typer's completion script sets to ask for completions (named
# after the program name cli.main gives, "rk"): answered in-process, as
# the options that set completion up (cli.protocol.COMPLETION_OPTIONS).
COMPLETE_VARIABLE = "_RK_COMPLETE"
CONNECT_TIMEOUT = 1.0
# Seconds to wait for the server to start a command (it declines when busy
# sooner, after cli.serve.QUEUE_WAIT); past this the client runs it itself.
START_TIMEOUT = 8.0


def untrusted(path: str) -> str:
    """Why the socket at ``path`` must not be used, or "" when it may: its
    directory must be this user's, not a symlink, closed to others (0700),
    and the socket this user's too."""
    uid = os.getuid()
    try:
        folder = os.lstat(os.path.dirname(path) or ".")
        sock = os.lstat(path)
    except OSError as e:
        return f"cannot inspect {path}: {e.strerror}"
    if not stat.S_ISDIR(folder.st_mode) or folder.st_uid != uid or folder.st_mode & 0o077:
        return f"{os.path.dirname(path)} is not a directory private to this user"
    if not stat.S_ISSOCK(sock.st_mode) or sock.st_uid != uid:
        return f"{path} is not a socket of this user"
    return ""


def _masked_argv(argv: list[str]) -> list[str]:
    """``argv`` with the password of any ``--store`` URL masked."""
    out = []
    after_store = False
    for arg in argv:
        if after_store:
            arg = masked(arg)
        elif arg.startswith("--store="):
            arg = "--store=" + masked(arg[len("--store=") :])
        after_store = arg == "--store"
        out.append(arg)
    return out


def request_for(argv: list[str]) -> dict | None:
    """The request for ``argv`` from this process, or None when it should run here."""
    if os.environ.get(NO_SERVER) or os.environ.get(COMPLETE_VARIABLE) or in_process(argv):
        return None
    # The server renders in UTF-8; a terminal of another encoding gets ASCII from rich in-process.
    if not (getattr(sys.stdout, "encoding", "") or "").lower().startswith("utf"):
        return None
    try:
        cwd = os.getcwd()
    except OSError:  # the directory was removed under us
        return None
    columns = os.environ.get("COLUMNS")
    return {
        "argv": _masked_argv(argv),
        "cwd": cwd,
        "store": masked(effective_store(argv)),
        "tty": sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
        "width": _width(),
        # Piped output without $COLUMNS gets 100 columns from cli.output but rich's
        # width (above) in typer's help and errors: the server needs both.
        "columns": columns if columns and columns.isdigit() else None,
    }


def _width() -> int:
    """The width a rich console takes here: $COLUMNS, else the size of the
    first standard stream that is a terminal, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except OSError:
            continue
    return 80


def exchange(request: dict, path: str | None = None) -> dict | None:
    """Send ``request`` to the server at ``path`` and return its answer, or
    None if no server could be reached or it did not start the command in
    time (nothing ran). Once the server has started the command, waits for
    the answer however long the command takes."""
    path = path or socket_path()
    if untrusted(path):
        return None
    # Only with a server's socket there: a command run here does not pay for them.
    import json
    import socket

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    started = False
    data = b""
    try:
        sock.settimeout(CONNECT_TIMEOUT)
        try:
            sock.connect(path)
            sock.sendall(json.dumps(request).encode() + b"\n")
        except OSError:  # no socket, a stale one, no permission, a busy or dying server
            return None
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if started:
                sock.settimeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None  # not started in time: run it here
                sock.settimeout(left)
            try:
                chunk = sock.recv(65536)
            except OSError:
                if started:
                    break
                return None
            if not chunk:
                break
            data += chunk
            if not started and b"\n" in data:
                first, rest = data.split(b"\n", 1)
                if first.strip() == b'{"started": true}':
                    started, data = True, rest
    finally:
        sock.close()
    try:
        reply = json.loads(data)
    except ValueError:
        reply = None
    if not isinstance(reply, dict):
        if not started:
            return None  # closed before starting anything: run it here
        # The command may have run: say so rather than run it a second time.
        return {"stdout": "", "stderr": "rk: the server closed the connection without an answer\n", "exit": 1}
    return reply


def run() -> None:
    """The console script: `rk ...` and `rulekeeper ...`, served when a
    server is up for the same store, run in this process otherwise."""
    argv = sys.argv[1:]
    request = request_for(argv)
    try:
        reply = exchange(request) if request is not None else None
    except KeyboardInterrupt:  # as in-process: Ctrl-C aborts with status 1
        sys.stderr.write("\naborted\n")
        sys.exit(1)
    if reply is None or "decline" in reply:
        # The commonest lines run without typer (cli.direct), the others through it (cli.main).
        # The collector's rhythm for a command run here, set before its modules are imported.
        from cli.collector import for_one_command

        default = for_one_command()
        from cli.direct import run as run_here

        run_here(default)
        return
    try:
        # Bytes as the server wrote them (surrogateescape round-trips any byte).
        sys.stdout.buffer.write(reply.get("stdout", "").encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:  # `rk log | head`: the reader left, which is fine (as in cli.main.run)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    sys.stderr.buffer.write(reply.get("stderr", "").encode("utf-8", "surrogateescape"))
    sys.stderr.flush()
    sys.exit(int(reply.get("exit", 1)))


if __name__ == "__main__":  # python -m cli.client ...
    run()
