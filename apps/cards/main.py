"""/cards, the card editor: `panel serve apps/cards` (or `rules-explorer serve`, `make serve`)."""
from explorer.pages.cards_page import create_page

page = create_page()
page.servable(title=page.title)
