"""Share links: the game code and table size travel in the URL hash.

A hash keeps everything on the client, so a static host needs no server:
``…/#partida=A2K7-QM92&mesa=2``. Reading one never raises anything but
:class:`LinkError`, whose message is ready for the page.
"""

from __future__ import annotations

from urllib.parse import parse_qs, quote

from engine.codes import CodeError, GameCode


class LinkError(ValueError):
    """A link whose game cannot be opened; the message is for the player."""


def link_hash(code: GameCode) -> str:
    """The hash part for ``code``: ``#partida=A2K7-QM92&mesa=2``."""
    return f"#partida={quote(code.pretty())}&mesa={code.players}"


def share_url(base: str, code: GameCode) -> str:
    """``base`` (the page's address, any hash dropped) with the game's hash."""
    return base.split("#", 1)[0] + link_hash(code)


def read_hash(fragment: str) -> GameCode | None:
    """The game a URL hash asks for, ``None`` when it asks for none.

    Raises :class:`LinkError` for a hash that names a game badly: a
    malformed or tampered code, or a table size that contradicts the code.
    """
    text = fragment[1:] if fragment.startswith("#") else fragment
    if not text.strip():
        return None
    try:
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=10)
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
