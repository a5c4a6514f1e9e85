"""A client of the server's API for tests: the host's token, the tokens of
each seat, games set up in one call, and what "nothing written" compares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.passes import Keyring

SECRET = b"a test secret of the server, 32b"
PARTY = [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}]
ARMIES = ["saltmarch", "cinderpact"]


def bearer(token: str) -> dict[str, str]:
    """The headers that carry ``token``."""
    return {"authorization": f"Bearer {token}"}


@dataclass
class Table:
    """A client of one server application, as the host and as any seat."""

    client: Any  # starlette's TestClient
    keyring: Keyring
    app: Any

    @property
    def host(self) -> dict[str, str]:
        return bearer(self.keyring.host())

    def seat(self, game: str, key: str) -> dict[str, str]:
        return bearer(self.keyring.seat(game, key))

    def spectator(self, game: str) -> dict[str, str]:
        return bearer(self.keyring.spectator(game))

    # -- setting games up ---------------------------------------------------------

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /api/games as the host; the answer, which must be 201."""
        r = self.client.post("/api/games", headers=self.host, json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def new_clash(self, name: str = "t1", seed: int = 7, **more: Any) -> str:
        """A Betrayal clash of Ria (nord) and Tarn (orc); its id."""
        body = {"new": "clash", "setup": "waystone-crossing", "party": PARTY, "seed": seed, "name": name, **more}
        return self.create(body)["game"]

    def new_conquest(self, name: str = "q1", seed: int = 1, physical_dice: bool = False) -> str:
        """A Conquest battle of saltmarch (seat a) against cinderpact (seat b); its id."""
        return self.create(
            {
                "new": "conquest",
                "scenario": "border-clash",
                "armies": ARMIES,
                "seed": seed,
                "name": name,
                "physical_dice": physical_dice,
            }
        )["game"]

    # -- reading ---------------------------------------------------------------------

    def get(self, path: str, headers: dict[str, str] | None = None, **params: Any) -> Any:
        """GET ``path`` (as the host unless told), which must answer 200; its JSON."""
        r = self.client.get(path, headers=self.host if headers is None else headers, params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def version(self, game: str) -> int:
        return self.get(f"/api/games/{game}")["version"]

    def legal(self, game: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
        return self.get(f"/api/games/{game}/legal", headers)

    def legal_of(self, game: str, kind: str) -> list[dict[str, Any]]:
        """The legal commands of type ``kind`` (their JSON, to post)."""
        return [entry["command"] for entry in self.legal(game) if entry["command"]["type"] == kind]

    def written(self, game: str) -> tuple[Any, ...]:
        """What a refused request must leave as it was: the game's version,
        its whole portable log and every game the store lists."""
        export = self.client.get(f"/api/games/{game}/export", headers=self.host)
        assert export.status_code == 200, export.text
        return self.version(game), export.content, self.get("/api/games", all=1)

    def everything(self) -> list[dict[str, Any]]:
        """Every game of the store, deleted ones too."""
        return self.get("/api/games", all=1)

    # -- acting ------------------------------------------------------------------------

    def command(
        self, game: str, command: dict[str, Any], headers: dict[str, str] | None = None, version: int | None = None
    ) -> Any:
        """POST a command (as the host unless told); the response."""
        body: dict[str, Any] = {"command": command}
        if version is not None:
            body["version"] = version
        return self.client.post(
            f"/api/games/{game}/commands", headers=self.host if headers is None else headers, json=body
        )

    def done(self, game: str, command: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        """Give a command that must be saved; the answer."""
        r = self.command(game, command, headers)
        assert r.status_code == 200, r.text
        return r.json()


def refusal(response: Any, status: int, error: str, rule: str | None = None) -> dict[str, Any]:
    """Assert ``response`` is the JSON refusal ``error`` with ``status`` (and
    ``rule``), a reason in words and no traceback; the refusal."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert body["error"] == error, body
    assert body["reason"] and "Traceback" not in body["reason"], body
    if rule is not None:
        assert body["rule"] == rule, body
    return body
