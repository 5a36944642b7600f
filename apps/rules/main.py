"""/rules?game=<id>&lang=ja, each game's rules: `panel serve apps/rules` (or `rules-explorer serve`, `make serve`)."""
from explorer.pages.rules_page import create_rules_page

create_rules_page().servable(title="Rules Explorer: rules")
