"""The explorer's model, without Panel: GameSession (Param), texts in every language, colours and links."""
