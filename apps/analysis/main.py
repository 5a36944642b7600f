"""/analysis, paired A/B bot runs, live: `panel serve apps/analysis` (or `rules-explorer serve`, `make serve`)."""
from explorer.pages.analysis import create_page

page = create_page()
page.servable(title=page.title)
