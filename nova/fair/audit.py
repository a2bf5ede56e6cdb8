"""The end-of-game audit (docs/LINKS.md, "The end-of-game audit"): the whole game replayed
with every seat's secret, each hidden card checked, each fault named with its seat and move."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import keys
from .record import FairRecord
from .table import Refused, replay


@dataclass(frozen=True)
class AuditReport:
    passed: bool
    findings: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())  # what was not checked, and why (not faults)
    complete: bool = True  # every secret the audit needs is here

    def lines(self) -> list[str]:
        if self.passed and not self.notes:
            head = "Audit passed: every hidden card was checked with every player's secret."
        else:
            head = "Audit passed." if self.passed else "Audit failed."
        return [head] + list(self.findings) + list(self.notes)


def missing(record: FairRecord) -> list[int]:
    """Seats whose secret the audit still waits for (an abandoning seat is not waited for)."""
    return [
        seat
        for seat in range(record.players)
        if not record.secret_of(seat) and seat != record.abandoned
    ]


def audit(record: FairRecord) -> AuditReport:
    findings: list[str] = []
    notes: list[str] = []
    secrets: dict[int, bytes] = {}
    for seat in range(record.players):
        secret = record.secret_of(seat)
        who = record.who(seat)
        if not secret:
            if seat == record.abandoned:
                notes.append(f"{who} left the game: their cards could not be checked.")
            else:
                findings.append(
                    f"{who} has not revealed their secret (missing reveal): "
                    "their cards cannot be checked."
                )
            continue
        if len(secret) != keys.SECRET_BYTES or keys.anchor(secret) != record.anchors[seat]:
            findings.append(
                f"{who} revealed a wrong secret: it does not match their key from the set-up."
            )
            continue
        r = record.reveals[seat] if seat < len(record.reveals) else None
        if r is not None and r.count and keys.reveal(secret, r.count) != r.value:
            findings.append(f"{who}'s turns do not come from their secret's chain.")
            continue
        secrets[seat] = secret
    if not record.started:
        return AuditReport(False, tuple(findings) + ("The game never started.",), tuple(notes))
    try:
        table = replay(record, secrets, audit=True, prepare=False)
    except Refused as exc:
        return AuditReport(False, tuple(findings) + (str(exc),), tuple(notes), complete=False)
    findings += table.faults
    for seat, secret in secrets.items():
        sealed = record.seals[seat] if seat < len(record.seals) else b""
        count = record.reveals[seat].count
        if not sealed or not table.last_digest[seat]:
            continue
        if keys.seal(keys.reveal(secret, count + 1), table.last_digest[seat]) != sealed:
            findings.append(
                f"{record.who(seat)}'s last turn does not match their seal: it was edited."
            )
    complete = not missing(record)
    return AuditReport(not findings and complete, tuple(findings), tuple(notes), complete)
