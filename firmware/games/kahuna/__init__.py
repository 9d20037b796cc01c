"""Kahuna: 12 islands, 27 bridges, two players (docs/rules.md)."""
