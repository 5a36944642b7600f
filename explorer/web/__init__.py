"""What every page shares: request helpers (query arguments, the page's language) and the page shell.

Importing it mends Panel's writing of a page's changes (``explorer.web.writes``) for every page served.
"""

from explorer.web import writes

writes.install()
