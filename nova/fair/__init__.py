"""Fair play by links: each player on their own device, hands hidden, no server, cheating
caught (docs/LINKS.md, "Fair play by links"). Pure Python, standard library hashes only.

The layers, each importing only those before it: :mod:`.keys` (the hashes),
:mod:`.record` (what a link carries), :mod:`.table` (the game replayed on one device),
:mod:`.device` (a seat's device: join, start, send a turn, receive a link), :mod:`.audit`
(the end audit), :mod:`.wire` (the bytes of a link).
"""

from .audit import AuditReport, audit
from .device import Device, abandon, host, join, receive, reveal_secret, send_turn, start
from .record import SEAT_LETTERS, FairRecord, Rules, Stage
from .table import Refused, Table

__all__ = [
    "SEAT_LETTERS",
    "AuditReport",
    "Device",
    "FairRecord",
    "Refused",
    "Rules",
    "Stage",
    "Table",
    "abandon",
    "audit",
    "host",
    "join",
    "receive",
    "reveal_secret",
    "send_turn",
    "start",
]
