"""Draws messages the way Discord's dark theme shows them, as a page of HTML, from the very
payloads the bot sent the fake Discord: content, embeds, components (classic rows and
Components V2), attachments, custom emojis and mentions. Used by ``tests.e2e.screenshots``.

It is a likeness, not Discord's code: the colours, sizes and layout follow what the client
shows, so a message that reads badly here reads badly there.
"""

from __future__ import annotations

import base64
import html
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.fakediscord import FakeDiscord, Message

Payload = dict[str, Any]

BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
V2_FLAG = 1 << 15
# Emoji Discord draws as pictures (Twemoji): drawn here with the colour emoji font, not with
# the text font's black-and-white glyph of the same code point.
PICTOGRAPHS = re.compile("[\U0001f000-\U0001faff\u23f0-\u23ff\u2b50]\ufe0f?")

CSS = """
body { margin: 0; background: #313338; color: #dbdee1; width: %(width)spx;
  font: 16px/1.375 "Noto Sans", "DejaVu Sans", "Liberation Sans", sans-serif; }
.title { color: #949ba4; font-size: 13px; padding: 12px 16px 0; text-transform: uppercase;
  letter-spacing: .02em; font-weight: 600; }
.msg { display: flex; padding: 8px 16px 4px; }
.avatar { flex: 0 0 40px; height: 40px; border-radius: 50%%; background: #1f7a4d;
  color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center;
  margin-right: 16px; margin-top: 2px; }
.body { flex: 1; min-width: 0; }
.head { display: flex; align-items: center; gap: 6px; }
.name { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 700;
  border-radius: 3px; padding: 0 4px; line-height: 15px; }
.time { color: #949ba4; font-size: 12px; margin-left: 2px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; font-weight: 500; }
.emoji { width: 22px; height: 22px; vertical-align: -5px; object-fit: contain; }
.embed { background: #2b2d31; border-left: 4px solid #1e1f22; border-radius: 4px;
  padding: 8px 16px 16px 12px; margin-top: 4px; max-width: 520px; box-sizing: border-box; }
.embed .author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.embed .etitle { font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.embed .desc { font-size: 14px; margin-top: 8px; }
.fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
.field { font-size: 14px; grid-column: 1 / -1; }
.field.inline { grid-column: auto; }
.field .fname { font-weight: 600; color: #f2f3f5; }
.embed img.image { max-width: 100%%; border-radius: 4px; margin-top: 16px; display: block; }
.footer { font-size: 12px; color: #b5bac1; margin-top: 8px; }
.attachment { max-width: 520px; border-radius: 8px; margin-top: 6px; display: block; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { color: #fff; border-radius: 8px; font-size: 14px; font-weight: 500;
  padding: 0 14px; height: 32px; display: flex; align-items: center; gap: 6px; }
.button.disabled { opacity: .5; }
.select { background: #1e1f22; border-radius: 8px; height: 40px; width: 400px;
  display: flex; align-items: center; padding: 0 12px; box-sizing: border-box;
  color: #949ba4; font-size: 14px; justify-content: space-between; }
.select .chosen { color: #dbdee1; }
.container { background: #2b2d31; border-radius: 8px; border-left: 4px solid transparent;
  padding: 12px 16px; margin-top: 4px; max-width: 560px; box-sizing: border-box; }
.separator { border-top: 1px solid #3f4147; margin: 8px 0; }
.gallery img { max-width: 100%%; border-radius: 8px; display: block; margin-top: 6px; }
.subtext { color: #949ba4; font-size: 13px; }
h1, h2, h3 { margin: 4px 0; color: #f2f3f5; line-height: 1.25; }
h1 { font-size: 24px; } h2 { font-size: 20px; } h3 { font-size: 16px; }
blockquote { margin: 2px 0; padding-left: 12px; border-left: 4px solid #4e5058; }
code { background: #1e1f22; border-radius: 4px; padding: 0 3px; font-size: 85%%;
  font-family: "DejaVu Sans Mono", monospace; }
ul { margin: 2px 0; padding-left: 22px; }
.uemoji { font-family: "Noto Color Emoji", sans-serif; }
.ephemeral { color: #949ba4; font-size: 12px; margin-top: 4px; }
"""


@dataclass
class Screen:
    """What the page needs from the fake: names, the bot, the emojis' pictures."""

    names: dict[int, str]
    bot_id: int
    bot_name: str
    emojis: dict[int, bytes] = field(default_factory=dict)
    attachments: dict[str, bytes] = field(default_factory=dict)  # url -> bytes
    channels: dict[int, str] = field(default_factory=dict)  # channels and threads by id

    @classmethod
    def of(cls, fake: FakeDiscord) -> Screen:
        names = {u.id: (u.global_name or u.username) for u in fake.store.users.values()}
        emojis = {e.id: e.image for e in fake.application_emojis()}
        files = {a.url: a.data for a in fake.store.attachments.values()}
        channels = {c.id: c.name or "" for c in fake.store.channels.values() if c.name}
        bot = fake.bot
        return cls(names, bot.id, bot.global_name or bot.username, emojis, files, channels)


class Page:
    """One page of messages under a title."""

    def __init__(self, screen: Screen, title: str, *, width: int = 760) -> None:
        self.screen = screen
        self.title = title
        self.width = width

    def html(self, messages: list[Message]) -> str:
        body = "".join(self.message(m) for m in messages)
        return (
            "<!doctype html><html><head><meta charset='utf-8'><style>"
            + CSS % {"width": self.width}
            + f"</style></head><body><div class='title'>{esc(self.title)}</div>{body}"
            + "<div style='height:12px'></div></body></html>"
        )

    def message(self, message: Message) -> str:
        payload = message.payload
        author = self.screen.names.get(message.author.id, message.author.username)
        is_bot = message.author.id == self.screen.bot_id
        files = {a.filename: a for a in message.attachments}
        used: set[str] = set()
        parts = []
        if message.content:
            parts.append(f"<div class='content'>{self.markdown(message.content)}</div>")
        for raw in payload.get("embeds") or []:
            parts.append(self.embed(raw, files, used))
        if int(payload.get("flags") or 0) & V2_FLAG:
            parts.extend(self.v2(c, files, used) for c in payload.get("components") or [])
        else:
            parts.extend(self.row(c) for c in payload.get("components") or [])
        for name, attachment in files.items():
            if name not in used:
                src = self.file(attachment.url, attachment.data)
                parts.append(f"<img class='attachment' src='{src}'>")
        if message.ephemeral:
            parts.append("<div class='ephemeral'>👁 Only you can see this</div>")
        badge = "<span class='tag'>APP</span>" if is_bot else ""
        initial = esc(author[:1].upper())
        return (
            f"<div class='msg'><div class='avatar'>{initial}</div><div class='body'>"
            f"<div class='head'><span class='name'>{esc(author)}</span>{badge}"
            f"<span class='time'>Today at 21:04</span></div>{''.join(parts)}</div></div>"
        )

    def embed(self, raw: Payload, files: dict[str, Any], used: set[str]) -> str:
        colour = raw.get("color")
        style = f" style='border-left-color:#{int(colour):06x}'" if colour is not None else ""
        parts = []
        if raw.get("author"):
            parts.append(f"<div class='author'>{esc(raw['author'].get('name', ''))}</div>")
        if raw.get("title"):
            parts.append(f"<div class='etitle'>{self.markdown(raw['title'])}</div>")
        if raw.get("description"):
            parts.append(f"<div class='desc'>{self.markdown(raw['description'])}</div>")
        if raw.get("fields"):
            cells = "".join(
                f"<div class='field{' inline' if f.get('inline') else ''}'>"
                f"<div class='fname'>{self.markdown(f.get('name', ''))}</div>"
                f"<div>{self.markdown(f.get('value', ''))}</div></div>"
                for f in raw["fields"]
            )
            parts.append(f"<div class='fields'>{cells}</div>")
        image = (raw.get("image") or {}).get("url", "")
        if image:
            parts.append(f"<img class='image' src='{self.media(image, files, used)}'>")
        if raw.get("footer"):
            footer = self.markdown(raw["footer"].get("text", ""))
            parts.append(f"<div class='footer'>{footer}</div>")
        return f"<div class='embed'{style}>{''.join(parts)}</div>"

    def row(self, raw: Payload) -> str:
        if raw.get("type") != 1:
            return ""
        return "<div class='row'>" + "".join(self.control(c) for c in raw["components"]) + "</div>"

    def control(self, raw: Payload) -> str:
        if raw.get("type") == 2:
            colour = BUTTON_COLOURS.get(int(raw.get("style", 2)), "#4e5058")
            disabled = " disabled" if raw.get("disabled") else ""
            emoji = self.emoji(raw.get("emoji"))
            label = esc(raw.get("label") or "")
            return f"<div class='button{disabled}' style='background:{colour}'>{emoji}{label}</div>"
        if raw.get("type") in (3, 5, 6, 7, 8):
            chosen = [o for o in raw.get("options") or [] if o.get("default")]
            if chosen:
                text = ", ".join(esc(o.get("label", "")) for o in chosen)
                shown = f"<span class='chosen'>{self.emoji(chosen[0].get('emoji'))}{text}</span>"
            else:
                shown = esc(raw.get("placeholder") or "Make a selection")
            return f"<div class='select'>{shown}<span>⌄</span></div>"
        return ""

    def v2(self, raw: Payload, files: dict[str, Any], used: set[str]) -> str:
        kind = raw.get("type")
        if kind == 1:
            return self.row(raw)
        if kind == 10:
            return f"<div class='content'>{self.markdown(raw.get('content', ''))}</div>"
        if kind == 14:
            return "<div class='separator'></div>"
        if kind == 12:
            images = "".join(
                f"<img src='{self.media(item['media']['url'], files, used)}'>"
                for item in raw.get("items") or []
            )
            return f"<div class='gallery'>{images}</div>"
        if kind == 9:
            inner = "".join(self.v2(c, files, used) for c in raw.get("components") or [])
            accessory = raw.get("accessory")
            side = self.control(accessory) if accessory else ""
            return (
                f"<div style='display:flex;gap:12px'><div style='flex:1'>{inner}</div>{side}</div>"
            )
        if kind == 17:
            colour = raw.get("accent_color")
            style = f" style='border-left-color:#{int(colour):06x}'" if colour is not None else ""
            inner = "".join(self.v2(c, files, used) for c in raw.get("components") or [])
            return f"<div class='container'{style}>{inner}</div>"
        return ""

    def media(self, url: str, files: dict[str, Any], used: set[str]) -> str:
        """An image's source: one of the message's files (named ``attachment://…`` as sent,
        or by its URL as Discord hands it back), else whatever the fake stored there."""
        name = url.removeprefix("attachment://") if url.startswith("attachment://") else None
        for filename, attachment in files.items():
            if (
                filename == name
                or attachment.url == url
                or url.split("?")[0].endswith("/" + filename)
            ):
                used.add(filename)
                return self.file(attachment.url, attachment.data)
        return self.file(url, self.screen.attachments.get(url, b""))

    def file(self, url: str, data: bytes) -> str:
        return data_uri(data) if data else esc(url)

    def emoji(self, raw: Payload | None) -> str:
        if not raw:
            return ""
        if raw.get("id"):
            data = self.screen.emojis.get(int(raw["id"]))
            if data:
                return f"<img class='emoji' src='{data_uri(data)}'>"
            return f":{esc(raw.get('name', ''))}:"
        return f"<span class='uemoji'>{esc(raw.get('name', ''))}</span>"

    def markdown(self, text: str) -> str:
        """The Discord markdown the bot writes: emphasis, code, headings, subtext, quotes,
        lists, custom emojis, mentions and timestamps."""
        lines = []
        in_list = False
        for line in text.split("\n"):
            item = line.startswith("- ") or line.startswith("• ")
            if item and not in_list:
                lines.append("<ul>")
            if not item and in_list:
                lines.append("</ul>")
            in_list = item
            lines.append(self._line(line, item))
        if in_list:
            lines.append("</ul>")
        out = []
        for i, chunk in enumerate(lines):
            out.append(chunk)
            block = chunk.startswith(("<ul", "</ul", "<li", "<h", "<blockquote", "<div"))
            following = lines[i + 1] if i + 1 < len(lines) else ""
            if not block and following and not following.startswith(("<li", "</ul", "<ul")):
                out.append("<br>")
        return "".join(out)

    def _line(self, line: str, item: bool) -> str:
        for prefix, tag in (("### ", "h3"), ("## ", "h2"), ("# ", "h1")):
            if line.startswith(prefix):
                return f"<{tag}>{self.inline(line[len(prefix) :])}</{tag}>"
        if line.startswith("-# "):
            return f"<div class='subtext'>{self.inline(line[3:])}</div>"
        if line.startswith("> "):
            return f"<blockquote>{self.inline(line[2:])}</blockquote>"
        if item:
            return f"<li>{self.inline(line[2:])}</li>"
        return self.inline(line)

    def inline(self, text: str) -> str:
        text = esc(text)
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"__(.+?)__", r"<u>\1</u>", text)
        text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", text)
        text = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<i>\1</i>", text)
        text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
        text = re.sub(r"&lt;a?:(\w+):(\d+)&gt;", self._emoji_tag, text)
        text = re.sub(r"&lt;@!?(\d+)&gt;", self._mention, text)
        text = re.sub(r"&lt;#(\d+)&gt;", self._channel, text)
        text = re.sub(r"&lt;t:(\d+)(?::(\w))?&gt;", self._timestamp, text)
        text = PICTOGRAPHS.sub(r"<span class='uemoji'>\g<0></span>", text)
        return text.replace("\\", "")

    def _emoji_tag(self, match: re.Match[str]) -> str:
        return self.emoji({"name": match.group(1), "id": match.group(2)})

    def _mention(self, match: re.Match[str]) -> str:
        name = self.screen.names.get(int(match.group(1)), "unknown-user")
        return f"<span class='mention'>@{esc(name)}</span>"

    def _channel(self, match: re.Match[str]) -> str:
        name = self.screen.channels.get(int(match.group(1)), "unknown")
        return f"<span class='mention'># {esc(name)}</span>"

    def _timestamp(self, match: re.Match[str]) -> str:
        """A timestamp as the reader's client shows it (in UTC here)."""
        moment = datetime.fromtimestamp(int(match.group(1)), UTC)
        style = match.group(2) or "f"
        shown = {
            "t": f"{moment:%H:%M}",
            "T": f"{moment:%H:%M:%S}",
            "d": f"{moment:%d/%m/%Y}",
            "D": f"{moment.day} {moment:%B %Y}",
            "f": f"{moment.day} {moment:%B %Y %H:%M}",
            "F": f"{moment:%A}, {moment.day} {moment:%B %Y %H:%M}",
        }.get(style)
        if shown is not None:
            return f"<code>{esc(shown)}</code>"
        seconds = int(match.group(1)) - time.time()
        minutes = round(abs(seconds) / 60)
        span = f"{minutes} minutes" if minutes != 1 else "a minute"
        if minutes == 0:
            span = f"{round(abs(seconds))} seconds"
        return f"<code>{'in ' + span if seconds >= 0 else span + ' ago'}</code>"


def esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def data_uri(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"
