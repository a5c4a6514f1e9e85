"""The OpenAPI 3.1 document of the server, made from its route table
(``server.app.ENDPOINTS``) and the msgspec types each route reads and
answers, so it cannot drift from what the server does."""

from __future__ import annotations

from typing import Any

import msgspec

from .wire import Refusal

STATUS_WORDS = {
    400: "malformed request",
    401: "no valid token",
    403: "this token may not (a SEAT rule)",
    404: "no such game",
    409: "the game moved on (stale version, or another writer first)",
    410: "the game was deleted (`rk restore` brings it back)",
    413: "body too large",
    415: "the body is not application/json",
    422: "a rule forbids it (the rule ID and reason)",
    429: "too many reads of a whole log for this token, or disputes settled for this client address "
    "(Retry-After: the seconds to wait)",
    503: "the store cannot be reached, or did not answer in time",
}


def document(endpoints: Any) -> dict[str, Any]:
    """The document for ``endpoints``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("rulekeeper")
    except PackageNotFoundError:
        ours = "0"
    types = [Refusal] + [t for e in endpoints for t in (e.answer, e.body) if t is not None and t is not bytes]
    schemas, components = msgspec.json.schema_components(types, ref_template="#/components/schemas/{name}")
    by_type = dict(zip(types, schemas))
    paths: dict[str, dict[str, Any]] = {}
    for e in endpoints:
        op: dict[str, Any] = {"operationId": e.name, "summary": e.doc, "responses": {}}
        params = (
            [
                {
                    "name": "game",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                    "description": "the game's id or name",
                }
            ]
            if "{game}" in e.path
            else []
        )
        params += [
            {
                "name": q.name,
                "in": "query",
                "required": False,
                "description": q.doc,
                "schema": {"type": {int: "integer", bool: "boolean"}.get(q.kind, "string")},
            }
            for q in e.query
        ]
        if e.needs_token:
            params.append(
                {
                    "name": "token",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "the pass, when no Authorization header carries it (links, the live feed)",
                }
            )
        if params:
            op["parameters"] = params
        if e.needs_token:
            op["security"] = [{"token": []}]
        if e.body is bytes:
            op["requestBody"] = {"required": True, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
        elif e.body is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": by_type[e.body]}}}
        ok = "201" if e.name in ("createGame", "importLog") else "200"
        if e.answer is not None:
            op["responses"][ok] = {"description": "done", "content": {e.media: {"schema": by_type[e.answer]}}}
        else:
            op["responses"][ok] = {"description": "done", "content": {e.media: {"schema": {"type": "string"}}}}
        for status in e.refusals:
            op["responses"][str(status)] = {
                "description": STATUS_WORDS[status],
                "content": {"application/json": {"schema": by_type[Refusal]}},
            }
        paths.setdefault(e.path, {})[e.method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rulekeeper",
            "version": ours,
            "description": "The rules server's API: games of every ruleset, commands checked by the rules, "
            "undo and redo, logs to export, import and verify, seats with their own tokens.",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the host's, a seat's or a spectator's token",
                }
            },
        },
    }
