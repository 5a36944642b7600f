"""The notebooks/ run end to end."""
