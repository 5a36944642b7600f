"""/ (and /home), what the tool is for and the way to each page: `panel serve apps/home` (or `rules-explorer serve`, `make serve`)."""

from explorer.pages.home import create_home_page

page = create_home_page()
page.servable(title=page.title)
