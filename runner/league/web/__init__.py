"""The league's web pages: rendered on the server from a page model (model.py) that a league database
(league_data.py) or a finished tournament folder (tournament_data.py) fills; served live (server.py) or
written as a static folder (export.py) through the same routes (site.py)."""
