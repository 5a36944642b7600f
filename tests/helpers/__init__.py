"""Code the tests share (no tests here): seeded games, position fuzzing, a board's HTML read back, the playtest tables' server."""
