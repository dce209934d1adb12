"""The game state machine: one table's hands, rounds and scores, intents in and messages out."""
