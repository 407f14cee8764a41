"""Pictures: the match card posted when a match ends, the rating chart of /stats."""
