"""The Internet MahJong Server rules (seed 003, Thomas Zuwei Feng, 1996).

The rule system (:mod:`~mj.rules.ims.rules`, ``IMS``: the course of play), its legal
moves and their button names (:mod:`~mj.rules.ims.moves`), the table options, the
scoring and the payments.

Scoring follows the seed's "IMS Scoring System" to the letter; where the seed is silent
mj reads it as docs/rules-ims.md says in full. Briefly:

* Count Flowers on, Multiple Wins off, Minimum Fan 0 by default; seasons count as flowers.
* A game is four rounds (round winds East to North).
* A higher element replaces the lower one it contains (One Pure Suit / One Mixed Suit,
  Pure Words / All Triplets, Pure 7 Pairs / 7 Pairs and One Pure Suit, Concealed Snake /
  Revealed Snake); fan is capped at 13 before the formula.
* Normal elements add to the special patterns where they apply (7 Pairs with One Mixed
  Suit, All 1&9, Rob Quadruplet, Win on Flower), except Front Door Clean, as the seed says.
* A set is revealed when it was declared before the winning tile came, a concealed
  quadruplet too ("revealed status"), so it spoils Front Door Clean; the set the winning
  tile completes is not revealed, however the tile came.
* All 1&9 counts the pair as a set, and needs at least one set of suit tiles.
* All Triplets counts quadruplets as triplets.
* The dealer's 5 bonus goes to a winning dealer only; a win on a loose tile (after a
  flower or a quadruplet) is paid as self-drawn; a robbed player pays as the feeder.
"""
