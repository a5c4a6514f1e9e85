"""A new game from a request (``wire.new_game_type()``), by the one builder
its ruleset declares (``Setup.start``), the same that `rk new` runs; and
what the lobby's form is made of (``choices``): every setup of every
ruleset, its parameters, the JSON Schema of its request and what the packs
offer for its fields."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel.games import GameApp, Result

from .wire import Choices, ParamInfo, SetupInfo, setup_named


def start(app: GameApp, request: Any) -> Result:
    """Set the game up; refused with the rules' reason, writing nothing."""
    _, setup = setup_named(request)
    return setup.start(app, request)


def choices(app: GameApp) -> Choices:
    """Every setup of every ruleset, as the lobby builds its form from it."""
    from domain.kernel.surface import surfaces

    found = []
    for surface in surfaces():
        for setup in surface.setups:
            (schema,), defs = msgspec.json.schema_components([setup.request], ref_template="#/$defs/{name}")
            schema = {**defs[schema["$ref"].rsplit("/", 1)[1]], "$defs": defs} if "$ref" in schema else schema
            found.append(
                SetupInfo(
                    name=setup.name,
                    ruleset=surface.ruleset,
                    title=surface.title,
                    summary=setup.summary,
                    params=[_param(setup.verb, p) for p in setup.params],
                    schema=schema,
                    offers=dict(setup.offers(app)) if setup.offers is not None else {},
                    start=_start(app, setup, schema),
                )
            )
    return Choices(setups=found)


def _start(app: GameApp, setup: Any, schema: Any) -> dict[str, Any]:
    """What the lobby's form starts with: what the setup declares for this
    store, else the required fields of its first example (the rest keep the
    builder's defaults)."""
    if setup.starts_with is not None:
        return dict(setup.starts_with(app))
    required = set(schema.get("required", ()))
    example = setup.examples[0] if setup.examples else {}
    return {name: value for name, value in example.items() if name in required}


def _param(verb: Any, p: Any) -> ParamInfo:
    described = p.kind.describe()
    return ParamInfo(
        name=p.name,
        what=described.get("what", p.kind.of),
        help=p.help,
        option=p.option,
        required=verb.required(p),
        repeat=p.repeat,
        values=list(described.get("values", [])),
        low=described.get("low"),
        high=described.get("high"),
    )
