"""The bot's pictures, drawn with Pillow: card emoji and the showdown of a hand, as PNG bytes.

Pure like the engine it draws from: no Discord and no I/O but reading a font, so the cogs
decide where the bytes go (an emoji upload, a message attachment).
"""

from bot.art.cards import BACK_NAME, all_card_images, card_back, card_face, emoji_name
from bot.art.showdown import SeatPicture, ShowdownPicture, picture_from_hand, render_showdown

__all__ = [
    "BACK_NAME",
    "SeatPicture",
    "ShowdownPicture",
    "all_card_images",
    "card_back",
    "card_face",
    "emoji_name",
    "picture_from_hand",
    "render_showdown",
]
