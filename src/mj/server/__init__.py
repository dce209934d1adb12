"""``mj-server``: the network shell around :class:`mj.table.Table`.

The table holds the rules and is pure; this package holds everything with side
effects: sockets (:mod:`.transport`), the protocol log (:mod:`.logwriter`), save
files (:mod:`.saver`) and the command line (:mod:`.cli`). Keeping them apart lets
``mj replay`` drive the very same table from a log, so what the server sends is
exactly what the replay checks.
"""
