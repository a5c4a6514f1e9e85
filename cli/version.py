"""`rk --version`: the version of the rulekeeper package and of each
ruleset's rules (the ``rules_version`` its battles record)."""

from __future__ import annotations

import sys
from importlib import metadata

DISTRIBUTION = "rulekeeper"


def versions() -> dict[str, object]:
    """The package's version (from its installed metadata) and, by ruleset
    name, the rules version each one writes into a new battle."""
    from domain.kernel.ruleset import all_rulesets

    try:
        package = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        package = "unknown (not installed)"
    return {
        DISTRIBUTION: package,
        "rulesets": {rs.name: {"rules_version": rs.rules_version, "title": rs.title} for rs in all_rulesets()},
    }


def show() -> None:
    """Print the versions, one line each."""
    found = versions()
    lines = [f"{DISTRIBUTION} {found[DISTRIBUTION]}"]
    rulesets: dict[str, dict[str, str]] = found["rulesets"]  # type: ignore[assignment]  # as versions() made it
    for name, rs in rulesets.items():
        lines.append(f"rules {rs['rules_version']} ({rs['title']})")
    sys.stdout.write("\n".join(lines) + "\n")
