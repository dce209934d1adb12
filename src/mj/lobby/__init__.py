"""``mj lobby``: one process hosting many tables, with their games recorded in a database.

A table is the server's own :class:`mj.table.Table` run in-process; robots sit at it
in-process as in the arena, and people take seats through the browser gateway of
:mod:`mj.web`. Every line a player sends and every message the table logs is stored
as it happens (:mod:`mj.lobby.store`), so a table's state lives in its record: a lobby
killed at any moment rebuilds its tables from the database and plays on.
"""

#: Where the records are kept unless ``--db`` says otherwise: a SQLite file in the working directory.
DEFAULT_URL = "sqlite:///lobby.db"
