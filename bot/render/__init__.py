"""What a player or a spectator sees, as text, from engine state. All user-facing game text.

Every mode shares these screens, a module for each: a seat's private hand (``hand``), the
public table (``table``), the showdown of each hand (``showdown``: each board of a teams hand;
each round of elimination), the match's result (``result``), a lobby (``lobby``), and
challenges, rules and a server's settings (``challenges``), on what they share (``common``).
Every sentence is made in the language in force (``bot.i18n``); card names stay as they are.
"""
