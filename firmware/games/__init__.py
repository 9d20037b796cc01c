"""The games on the platform, one package each; a game imports the core, never another game."""
