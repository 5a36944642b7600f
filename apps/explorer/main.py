"""/explorer (and /): `panel serve apps/explorer` (or `rules-explorer serve`, `make serve`)."""
from explorer.pages.app import create_app

create_app().servable(title="Rules Explorer")
