"""The pages (explorer, tutorial, rules, analysis, tables); serve.py holds the routes. Only the serving entry
points (apps/, explorer/cli.py) import this package."""
