"""PyScript entry point: everything else lives in the nova package (shipped as nova.zip)."""

import nova.web.app as app

app.start()
