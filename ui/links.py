"""Share links: the game code and table size travel in the URL hash.

A hash keeps everything on the client, so a static host needs no server:
``…/#partida=A2K7-QM92&mesa=2``. Reading one never raises anything but
:class:`LinkError`, whose message is ready for the page.

The hash is read by hand rather than with :mod:`urllib.parse`: importing that
module (it pulls in :mod:`ipaddress`) cost the page more than the rest of the
link handling put together. :func:`_fields` follows ``parse_qs`` closely enough
for what a person pastes: ``&``-separated fields, ``+`` for a space and
``%XX`` escapes (UTF-8).
"""

from __future__ import annotations

from engine.codes import CodeError, GameCode

MAX_FIELDS = 10
_HEX = frozenset("0123456789abcdefABCDEF")


class LinkError(ValueError):
    """A link whose game cannot be opened; the message is for the player."""


def link_hash(code: GameCode) -> str:
    """The hash part for ``code``: ``#partida=A2K7-QM92&mesa=2``.

    The pretty code is only ``A-Z``, ``2-9`` and ``-``, none of which needs escaping.
    """
    return f"#partida={code.pretty()}&mesa={code.players}"


def share_url(base: str, code: GameCode) -> str:
    """``base`` (the page's address, any hash dropped) with the game's hash."""
    return base.split("#", 1)[0] + link_hash(code)


def _unquote(text: str) -> str:
    """``+`` to space and ``%XX`` escapes decoded as UTF-8 (bad bytes become U+FFFD).

    >>> _unquote("A2K7%2DQM9X+%C3%B1%zz")
    'A2K7-QM9X ñ%zz'
    """
    text = text.replace("+", " ")
    if "%" not in text:
        return text
    first, *rest = text.split("%")
    raw = bytearray(first.encode("utf-8"))
    for chunk in rest:
        if len(chunk) >= 2 and chunk[0] in _HEX and chunk[1] in _HEX:
            raw.append(int(chunk[:2], 16))
            raw += chunk[2:].encode("utf-8")
        else:
            raw += b"%" + chunk.encode("utf-8")
    return raw.decode("utf-8", "replace")


def _fields(query: str) -> dict[str, list[str]]:
    """``a=1&b=&c`` as ``{"a": ["1"], "b": [""], "c": [""]}``; ValueError past MAX_FIELDS."""
    if query.count("&") + 1 > MAX_FIELDS:
        raise ValueError("too many fields")
    fields: dict[str, list[str]] = {}
    for part in query.split("&"):
        if not part:
            continue
        name, _, value = part.partition("=")
        fields.setdefault(_unquote(name), []).append(_unquote(value))
    return fields


def read_hash(fragment: str) -> GameCode | None:
    """The game a URL hash asks for, ``None`` when it asks for none.

    Raises :class:`LinkError` for a hash that names a game badly: a
    malformed or tampered code, or a table size that contradicts the code.
    """
    text = fragment[1:] if fragment.startswith("#") else fragment
    if not text.strip():
        return None
    try:
        fields = _fields(text)
    except ValueError:
        raise LinkError("El enlace está mal formado; sigues con tu partida.") from None
    if "partida" not in fields:
        return None
    raw = fields["partida"][0]
    try:
        code = GameCode.parse(raw)
    except CodeError as err:
        raise LinkError(f"El enlace no sirve: {err} Sigues con tu partida.") from None
    if "mesa" in fields:
        table = fields["mesa"][0].strip()
        if table != str(code.players):
            raise LinkError(
                "El enlace no cuadra: el tamaño de la mesa no coincide con el código. Sigues con tu partida."
            )
    return code


# -- challenge links ---------------------------------------------------------------------

MAX_LINK = 2000  # a challenge link longer than this is not offered (some apps cut long links)
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")


def quote(text: str) -> str:
    """Percent-encode ``text`` as UTF-8, leaving only unreserved characters as they are.

    >>> quote("Ana María & co")
    'Ana%20Mar%C3%ADa%20%26%20co'
    """
    return "".join(chr(b) if chr(b) in _UNRESERVED else f"%{b:02X}" for b in text.encode("utf-8", "replace"))


def challenge_hash(record: str, total: int, name: str = "") -> str:
    """``#reto=<record text>&pts=<total>&de=<name>`` (the record text is URL-safe as it is)."""
    fragment = f"#reto={record}&pts={total}"
    return fragment + (f"&de={quote(name)}" if name else "")


def challenge_url(base: str, record: str, total: int, name: str = "") -> str:
    return base.split("#", 1)[0] + challenge_hash(record, total, name)


def read_challenge(fragment: str) -> tuple[str, str, str] | None:
    """The raw (record, claimed total, name) of a challenge link, ``None`` for any other hash.

    Nothing here is trusted: :func:`engine.challenge.verify` replays the
    record before anything from it is shown. Raises :class:`LinkError` for a
    hash too malformed to read.
    """
    text = fragment[1:] if fragment.startswith("#") else fragment
    if "reto=" not in text:
        return None
    try:
        fields = _fields(text)
    except ValueError:
        raise LinkError("El enlace del reto está mal formado; sigues con tu partida.") from None
    if "reto" not in fields:
        return None
    return fields["reto"][0], fields.get("pts", [""])[0], fields.get("de", [""])[0]
