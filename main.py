"""PyScript entry point: everything else lives in the nova package (in the memory snapshot, or nova.zip)."""

from pyscript import window

_t0 = window.performance.now()
import nova.web.app as app  # noqa: E402

# how long importing the game took (for python -m nova bench-page)
window.document.body.dataset.novaImportMs = f"{window.performance.now() - _t0:.1f}"
app.start()
