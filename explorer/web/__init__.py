"""What every page shares: request helpers (query arguments, the page's language) and the page shell."""
