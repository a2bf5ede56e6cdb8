"""Keyed parts of a screen: the page sends only the parts that changed.

``keyed(markup, id, known)`` gives a complete element (``<tag ...>...</tag>``) an ``id`` and a
``data-nova-keep`` key made from its markup. When the key is in ``known`` (the keys the page
already shows) the element comes back *empty* and marked ``data-nova-elided``: the page's
morph (``assets/boot.js``) leaves the shown element with that key alone, so an unchanged
panel costs neither parsing nor diffing. Pure: the same markup, id and ``known`` give the
same string.
"""

from __future__ import annotations

import re
import zlib

KEY = re.compile(r'data-nova-keep="(p[0-9a-f]{8})"')


def keyed(markup: str, id_: str, known: frozenset[str] | set[str] = frozenset()) -> str:
    """``markup`` with ``id`` and its key; empty (elided) when the page shows that key."""
    end = markup.index(">")
    head = markup[:end]
    name = head[1:].split(None, 1)[0]
    close = f"</{name}>"
    if not markup.endswith(close):
        raise ValueError(f"keyed() needs one whole element, got {markup[:40]!r}")
    head = f'{head} id="{id_}"'
    key = f"p{zlib.crc32(head.encode() + markup[end:].encode()):08x}"
    if key in known:
        return f'{head} data-nova-keep="{key}" data-nova-elided>{close}'
    return f'{head} data-nova-keep="{key}"{markup[end:]}'


def keys_in(html: str) -> frozenset[str]:
    """The part keys in ``html`` (the page shows them once it is morphed to ``html``)."""
    return frozenset(KEY.findall(html))


def rekeyed(html: str, salt: str) -> str:
    """``html`` with every part's key changed by ``salt``.

    A mark added to the markup after its parts were keyed (the hint's ``data-hint``) is in
    none of their keys, so the page's morph would keep the parts it shows, unmarked. New
    keys make it take every part as sent; once the mark is gone the plain keys make it take
    them back. The board's unchanging layer (``data-nova-static``) keeps its key."""
    return KEY.sub(
        lambda m: f'data-nova-keep="p{zlib.crc32((m.group(1) + salt).encode()):08x}"', html
    )
