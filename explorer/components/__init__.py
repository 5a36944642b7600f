"""Panel components that watch a session: action picker, timeline, scores, setup editor, advisor, file input."""
