"""Bases for events and commands.

Events are frozen, keyword-only msgspec Structs with past-tense names. Each
concrete event class names a stable ``TOPIC`` (``betrayal.DiceRolled``) under
which it is stored, so moving or renaming Python code never renames stored
events. ``class_version`` and ``upcast_vN_vN+1(dict)`` static methods keep the
eventsourcing library's upcasting convention.

Commands are frozen, keyword-only msgspec Structs with imperative names,
tagged by class name so a log can hold any of them.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from domain.kernel import forward_refs

# Every event, state and pack type is read through msgspec's decoders, which
# this module comes before: their annotations' texts are compiled once each.
forward_refs.share()

_TOPICS: dict[str, type["Event"]] = {}


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every domain event. Subclasses set ``TOPIC``."""

    TOPIC: ClassVar[str] = ""
    class_version: ClassVar[int] = 1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        topic = cls.__dict__.get("TOPIC", "")
        if topic:
            other = _TOPICS.get(topic)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"topic {topic!r} is taken by {other.__qualname__}")
            _TOPICS[topic] = cls


def event_class(topic: str) -> type[Event]:
    """The event class stored under ``topic``; KeyError if there is none."""
    return _TOPICS[topic]


def known_topics() -> dict[str, type[Event]]:
    """Every registered topic and its class (a copy)."""
    return dict(_TOPICS)


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True, tag_field="type"):
    """Base of every command: what a player asks for."""
