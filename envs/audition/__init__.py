"""Audition: the rules engine (:mod:`.rules`) and its PettingZoo AEC adapter (:mod:`.env`)."""
