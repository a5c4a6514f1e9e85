"""Where each key and array element of a TOML document starts, by the
field path ``domain.kernel.content.At`` writes (``pc[1].abilities.str``,
``skills[2]``), so a refusal of well-formed but wrong content can name its
line as a syntax error does. Pure: it reads text ``tomllib`` has already
accepted, so it only walks the shapes TOML allows and never judges them.
"""

from __future__ import annotations

import re

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def key_lines(text: str) -> dict[str, int]:
    """Field path -> the 1-based line where that key (or array element,
    or ``[table]`` header) is written."""
    return _Walker(text).walk()


def line_of(text: str, path: str) -> int | None:
    """The line of ``path``, or of the nearest enclosing key that is
    written down (``abilities.str`` given as an inline table: its line);
    None when nothing of it is (a required key left out of the whole file)."""
    lines = key_lines(text)
    while path:
        if path in lines:
            return lines[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


class _Walker:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.out: dict[str, int] = {}
        self.arrays: dict[str, int] = {}  # the path of each [[name]] -> how many so far

    @property
    def line(self) -> int:
        return self.text.count("\n", 0, self.i) + 1

    def walk(self) -> dict[str, int]:
        prefix = ""
        while self._blank(newlines=True) < len(self.text):
            if self.text.startswith("[[", self.i):
                self.i += 2
                parent, _, last = self._key(end="]").rpartition(".")
                base = f"{self._resolve(parent)}.{last}" if parent else last
                count = self.arrays.get(base, 0)
                self.arrays[base] = count + 1
                prefix = f"{base}[{count}]"
                self.out.setdefault(prefix, self.line)
                self._to_line_end()
            elif self.text.startswith("[", self.i):
                self.i += 1
                prefix = self._resolve(self._key(end="]"))
                self.out.setdefault(prefix, self.line)
                self._to_line_end()
            else:
                self._pair(prefix)
                self._to_line_end()
        return self.out

    def _resolve(self, name: str) -> str:
        """``pc.abilities`` under ``[[pc]]`` means the last ``pc`` element's."""
        done = ""
        for part in name.split(".") if name else ():
            done = f"{done}.{part}" if done else part
            if done in self.arrays:
                done = f"{done}[{self.arrays[done] - 1}]"
        return done

    def _pair(self, prefix: str) -> None:
        line = self.line
        key = self._key(end="=")
        path = f"{prefix}.{key}" if prefix else key
        parts = path.split(".")
        for n in range(len(prefix.split(".")) if prefix else 1, len(parts) + 1):
            self.out.setdefault(".".join(parts[:n]), line)  # a dotted key's parents are written here too
        self.i += 1  # the "="
        self._value(path)

    def _key(self, end: str) -> str:
        parts = []
        while True:
            self._blank()
            if self.text[self.i] in "\"'":
                quote = self.text[self.i]
                close = self.text.index(quote, self.i + 1)
                parts.append(self.text[self.i + 1 : close])
                self.i = close + 1
            else:
                found = _BARE.match(self.text, self.i)
                parts.append(found.group() if found else "")
                self.i = found.end() if found else self.i + 1
            self._blank()
            if self.i < len(self.text) and self.text[self.i] == ".":
                self.i += 1
                continue
            if self.text.startswith(end, self.i) and end == "]":
                self.i += 2 if self.text.startswith("]]", self.i) else 1
            return ".".join(parts)

    def _value(self, path: str) -> None:
        self._blank(newlines=True)
        c = self.text[self.i] if self.i < len(self.text) else ""
        if c == "[":
            self.i += 1
            n = 0
            while self._blank(newlines=True) < len(self.text) and self.text[self.i] != "]":
                if self.text[self.i] == ",":
                    self.i += 1
                    continue
                self.out.setdefault(f"{path}[{n}]", self.line)
                self._value(f"{path}[{n}]")
                n += 1
            self.i += 1
        elif c == "{":
            self.i += 1
            while self._blank(newlines=True) < len(self.text) and self.text[self.i] != "}":
                if self.text[self.i] == ",":
                    self.i += 1
                    continue
                self._pair(path)
            self.i += 1
        elif c in "\"'":
            triple = self.text.startswith(c * 3, self.i)
            if triple:
                self.i = self.text.index(c * 3, self.i + 3) + 3
                while self.text.startswith(c, self.i):  # up to two quotes may end the content
                    self.i += 1
            else:
                j = self.i + 1
                while self.text[j] != c:
                    j += 2 if c == '"' and self.text[j] == "\\" else 1
                self.i = j + 1
        else:  # a number, a boolean or a date: up to the next separator
            while self.i < len(self.text) and self.text[self.i] not in ",]}\n#":
                self.i += 1

    def _blank(self, newlines: bool = False) -> int:
        """Skip spaces (and newlines and comments if ``newlines``); the new position."""
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            elif newlines and c == "#":
                self._to_line_end()
            else:
                break
        return self.i

    def _to_line_end(self) -> None:
        end = self.text.find("\n", self.i)
        self.i = len(self.text) if end < 0 else end
