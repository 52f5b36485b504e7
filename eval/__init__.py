"""Evaluation: tournaments between agents, the league, and the reports of both."""
