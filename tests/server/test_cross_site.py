"""Requests another site could make a browser send (#21 point 5): a form
posts text/plain, urlencoded or multipart bodies and cannot set headers,
and a link or an image sends its address. So every body must be sent as
JSON (415 otherwise), and a token counts only in the Authorization header;
links carry it after '#', which a browser never sends to a server."""

from __future__ import annotations

import json

import pytest

from api_table import Table, refusal


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]
)
def test_a_body_not_sent_as_json_is_refused_and_nothing_is_written(table: Table, kind):
    g = table.new_clash()
    entry = next(e for e in table.legal(g) if e["command"]["type"] == "EndTurn")
    body = json.dumps({"command": entry["command"]}).encode()
    before = table.written(g)
    headers = {**table.seat(g, entry["actor"]), **({"content-type": kind} if kind else {})}
    for path in (f"/api/games/{g}/commands", f"/api/games/{g}/undo", "/api/games"):
        said = refusal(table.client.post(path, headers=headers, content=body), 415, "unsupported")
        assert "application/json" in said["reason"], said
    for path in ("/api/import", "/api/verify"):
        log = table.client.get(f"/api/games/{g}/export", headers=table.host).content
        refusal(
            table.client.post(path, headers={**table.host, **({"content-type": kind} if kind else {})}, content=log),
            415,
            "unsupported",
        )
    assert table.written(g) == before


def test_a_token_in_the_address_is_no_pass(table: Table):
    """The cross-site form of issue 21: text/plain, the seat's token in the
    query string. Refused; and as JSON with the token in the query alone,
    unauthorized: nothing is written either way."""
    g = table.new_clash()
    entry = next(e for e in table.legal(g) if e["command"]["type"] == "EndTurn")
    token = table.keyring.seat(g, entry["actor"])
    body = json.dumps({"command": entry["command"]}).encode()
    before = table.written(g)
    path = f"/api/games/{g}/commands"
    refusal(
        table.client.post(path, params={"token": token}, headers={"content-type": "text/plain"}, content=body),
        415,
        "unsupported",
    )
    refusal(
        table.client.post(path, params={"token": token}, headers={"content-type": "application/json"}, content=body),
        401,
        "unauthorized",
    )
    for read in ("", "/state", "/live"):
        refusal(table.client.get(f"/api/games/{g}{read}", params={"token": token}), 401, "unauthorized")
    refusal(table.client.get("/api/games", params={"token": table.keyring.host()}), 401, "unauthorized")
    assert table.written(g) == before


def test_links_carry_the_token_after_the_hash_and_an_old_link_is_sent_on_there(table: Table):
    g = table.new_clash()
    seats = table.get(f"/api/games/{g}/seats")
    links = [s["link"] for s in seats["seats"]] + [seats["spectator"], seats["host"]]
    assert all("#token=" in link and "?" not in link for link in links), links
    token = table.keyring.seat(g, "ria")
    for path, where in ((f"/table/{g}", f"/table/{g}"), ("/", "/")):
        old = table.client.get(path, params={"token": token}, follow_redirects=False)
        assert old.status_code == 303, old.text
        assert old.headers["location"] == f"{where}#token={token}"
        assert old.headers["referrer-policy"] == "no-referrer"
    page = table.client.get(f"/table/{g}", follow_redirects=False)
    assert page.status_code == 200 and "token" not in str(page.url.query)
