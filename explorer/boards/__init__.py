"""One board per game (Panel views of a session), and the table of them (registry.py): boards never import each other."""
