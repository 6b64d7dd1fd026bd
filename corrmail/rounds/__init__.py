"""Rounds paired one at a time and team events in the service (000 §3.17–3.18, 004).

`corrmail.rounds.swiss`: pair, preview and publish the next round of a Swiss or team Swiss;
`corrmail.rounds.teams`: teams with their board order, the team round robin, team standings.
"""
