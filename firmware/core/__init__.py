"""The platform: what every game on the board shares (the loop, journal, link, cards,
scanner, frame engine, tunes, bring-up). It imports no game."""
