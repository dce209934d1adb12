"""The Beijing rules (seed 004): wild tiles, per-payer doubles and the agreed variations.

:mod:`.wilds` says which tiles are wild and the wild-tile rules on winning,
:mod:`.options` the table options (every variation, off by default),
:mod:`.scoring` the doubles, rare events and kong points, :mod:`.payments` who pays
what. Every reading where the seed is silent is in docs/rules-beijing.md.
"""
