"""Online tables from a notebook: the client of the game server (docs/online.md).

A floor of its own, under the boards (``ui``) and over the tables: it reads the server's
links, calls its lobby, keeps one WebSocket a seat and turns what the server says into
what a board shows (:class:`~.seat.OnlineSeat`, driven by the board widget like a local
table). It never imports the server's code (a server is another process, perhaps another
machine); ``websockets`` is imported only when a socket opens. ``lf.online`` gathers it.
"""
