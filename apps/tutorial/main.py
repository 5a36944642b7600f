"""/tutorial?game=<id>&lang=ja, guided tutorials: `panel serve apps/tutorial` (or `rules-explorer serve`, `make serve`)."""
from explorer.pages.tutorial import create_tutorial_page

create_tutorial_page().servable(title="Rules Explorer: tutorial")
