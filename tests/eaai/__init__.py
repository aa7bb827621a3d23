"""The EAAI-2021 Gin Rummy challenge's yardstick: its rules, its sample player and its winner.

``python -m tests.eaai.bench`` plays mirrored pairs of games under the challenge's rules
(``tests.eaai.rules``) between any two of: the bot's levels (``easy`` to ``expert``), the
challenge's SimpleGinRummyPlayer (``simple``) and MARJJ, the 2021 winner (``marjj``), and
prints win shares with a pair-cluster interval and an exact sign test.
"""
