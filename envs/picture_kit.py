"""Drawing helpers shared by the table pictures (``render_mode="rgb_array"``).

The pictures of :mod:`parlour.envs.audition.picture` and :mod:`parlour.envs.awkward_guests.picture`
are drawn on a :class:`Canvas`: Pillow's ``ImageDraw`` on an image :data:`SUPERSAMPLE` times the
final size, shrunk at the end, so that lines, rounded boxes and text are all antialiased. Every
coordinate given to a canvas is in final (logical) pixels. Text uses Pillow's bundled scalable
font (``ImageFont.load_default(size=...)``, FreeType), so a picture is the same on every machine
with the same Pillow.

| name | what it is |
|---|---|
| :data:`TABLE` | the palette shared by both games (felt, panels, cards, text, highlights) |
| :class:`Canvas` | rounded boxes, lines, arrows, circles and text (fitted, wrapped) |
| :func:`header`, :func:`panel`, :func:`card_back` | the top band; a titled table panel; a card back |
| :func:`save_picture` | render an env's table picture and write it as a PNG |
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]
Box = tuple[float, float, float, float]

#: Drawing scale: the picture is drawn this many times larger, then shrunk (antialiasing).
SUPERSAMPLE = 2
#: Half the width of an arrow head, relative to its length.
ARROW_HALF_WIDTH = 0.55
#: The character put at the end of text cut to fit.
ELLIPSIS = "…"

#: The shared palette: a green card table, darker panels, ivory cards, navy card backs.
TABLE: dict[str, Color] = {
    "felt": (28, 86, 58),
    "felt_dark": (20, 66, 44),
    "panel": (35, 100, 68),
    "panel_edge": (70, 138, 100),
    "text": (246, 241, 226),
    "text_dim": (184, 208, 190),
    "ink": (38, 36, 33),
    "ink_dim": (110, 104, 96),
    "card": (251, 247, 236),
    "card_edge": (120, 110, 92),
    "back": (44, 58, 110),
    "back_inner": (84, 102, 168),
    "back_edge": (22, 30, 62),
    "gold": (242, 193, 78),
    "red": (214, 84, 72),
    "slot_empty": (52, 118, 84),
}


@dataclass(frozen=True)
class PanelStyle:
    """Sizes shared by the panels and card backs of both pictures, in pixels."""

    radius: int = 10
    title_at: tuple[int, int] = (12, 8)
    title_size: int = 13
    card_radius: int = 5
    back_inset_min: int = 3
    back_inset_div: int = 9  # the inner frame of a back is inset by width / this
    back_diamond_div: int = 5  # the diamond's half-size is the shorter side / this


PANEL = PanelStyle()


@dataclass(frozen=True)
class HeaderStyle:
    """The header band of both pictures (see :func:`header`), in pixels."""

    margin: int = 20
    line_y: int = 38  # the subtitle, below the top
    detail_y: int = 34  # the detail line on the right, below the top
    title_size: int = 28
    headline_size: int = 20
    detail_size: int = 17
    small_size: int = 13


HEADER = HeaderStyle()


@functools.lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels (cached)."""
    return ImageFont.load_default(size=size)


class Canvas:
    """An RGB picture of ``width × height`` logical pixels, drawn :data:`SUPERSAMPLE`× larger."""

    def __init__(self, width: int, height: int, background: Color) -> None:
        self.width = width
        self.height = height
        self.s = SUPERSAMPLE
        self.image = Image.new("RGB", (width * self.s, height * self.s), background)
        self.draw = ImageDraw.Draw(self.image)

    # -- geometry ------------------------------------------------------------------------

    def _box(self, box: Box) -> list[float]:
        return [v * self.s for v in box]

    def rect(
        self,
        box: Box,
        fill: Color | None = None,
        outline: Color | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        """A (rounded) rectangle ``(x0, y0, x1, y1)``."""
        self.draw.rounded_rectangle(
            self._box(box),
            radius=radius * self.s,
            fill=fill,
            outline=outline,
            width=max(1, round(width * self.s)) if outline else 0,
        )

    def line(self, points: list[tuple[float, float]], fill: Color, width: float = 1) -> None:
        """A polyline through ``points`` (rounded joints)."""
        pts = [(x * self.s, y * self.s) for x, y in points]
        self.draw.line(pts, fill=fill, width=max(1, round(width * self.s)), joint="curve")

    def polygon(self, points: list[tuple[float, float]], fill: Color) -> None:
        self.draw.polygon([(x * self.s, y * self.s) for x, y in points], fill=fill)

    def circle(
        self, center: tuple[float, float], r: float, fill: Color, outline: Color | None = None
    ) -> None:
        x, y = center
        self.draw.ellipse(
            self._box((x - r, y - r, x + r, y + r)),
            fill=fill,
            outline=outline,
            width=self.s if outline else 0,
        )

    def arrow_head(
        self, tip: tuple[float, float], frm: tuple[float, float], size: float, fill: Color
    ) -> None:
        """A filled triangle at ``tip``, pointing away from ``frm``."""
        dx, dy = tip[0] - frm[0], tip[1] - frm[1]
        norm = float(np.hypot(dx, dy)) or 1.0
        ux, uy = dx / norm, dy / norm
        base = (tip[0] - ux * size, tip[1] - uy * size)
        half = size * ARROW_HALF_WIDTH
        self.polygon(
            [
                tip,
                (base[0] - uy * half, base[1] + ux * half),
                (base[0] + uy * half, base[1] - ux * half),
            ],
            fill,
        )

    # -- text ----------------------------------------------------------------------------

    def text_width(self, text: str, size: int) -> float:
        return font(size * self.s).getlength(text) / self.s

    def text(
        self, xy: tuple[float, float], text: str, size: int, fill: Color, anchor: str = "la"
    ) -> None:
        """``text`` at ``xy`` (Pillow anchors: ``la`` left-top, ``mm`` centre, ``rs`` …)."""
        x, y = xy
        self.draw.text(
            (x * self.s, y * self.s), text, font=font(size * self.s), fill=fill, anchor=anchor
        )

    def fit(self, text: str, size: int, max_width: float) -> str:
        """``text``, cut and ended with an ellipsis if it is wider than ``max_width``."""
        if self.text_width(text, size) <= max_width:
            return text
        while text and self.text_width(text + ELLIPSIS, size) > max_width:
            text = text[:-1]
        return text.rstrip() + ELLIPSIS

    def wrap(self, text: str, size: int, max_width: float, max_lines: int) -> list[str]:
        """``text`` broken into at most ``max_lines`` lines of at most ``max_width`` (the last
        line ends with an ellipsis when text is left over)."""
        lines: list[str] = []
        words = text.split()
        line = ""
        for i, word in enumerate(words):
            trial = f"{line} {word}".strip()
            if self.text_width(trial, size) <= max_width or not line:
                line = trial
                continue
            lines.append(line)
            line = word
            if len(lines) == max_lines:
                rest = " ".join(words[i:])
                lines[-1] = self.fit(lines[-1] + " " + rest, size, max_width)
                return lines
        if line:
            lines.append(self.fit(line, size, max_width))
        return lines

    def text_lines(
        self, xy: tuple[float, float], lines: list[str], size: int, fill: Color, leading: float
    ) -> None:
        x, y = xy
        for k, line in enumerate(lines):
            self.text((x, y + k * leading), line, size, fill)

    # -- result --------------------------------------------------------------------------

    def to_array(self) -> np.ndarray:
        """The finished picture: an ``(height, width, 3)`` ``uint8`` array."""
        small = self.image.reduce(self.s) if self.s > 1 else self.image
        return np.asarray(small, dtype=np.uint8).copy()


def card_back(c: Canvas, x: float, y: float, size: tuple[int, int]) -> None:
    """A card back (navy, a framed diamond), top-left at ``(x, y)``."""
    w, h = size
    c.rect(
        (x, y, x + w, y + h),
        fill=TABLE["back"],
        outline=TABLE["back_edge"],
        radius=PANEL.card_radius,
    )
    inset = max(PANEL.back_inset_min, w // PANEL.back_inset_div)
    inner = (x + inset, y + inset, x + w - inset, y + h - inset)
    c.rect(inner, outline=TABLE["back_inner"], width=1.5, radius=PANEL.card_radius / 2)
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) / PANEL.back_diamond_div
    c.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], TABLE["back_inner"])


def panel(
    c: Canvas,
    box: Box,
    title: str,
    edge: Color | None = None,
    width: float = 1,
    fill: Color | None = None,
) -> None:
    """A rounded table panel with a small title in its top-left corner."""
    c.rect(
        box,
        fill=fill or TABLE["panel"],
        outline=edge or TABLE["panel_edge"],
        width=width,
        radius=PANEL.radius,
    )
    tx, ty = PANEL.title_at
    c.text((box[0] + tx, box[1] + ty), title, PANEL.title_size, TABLE["text_dim"])


def header(c: Canvas, title: str, subtitle: str, headline: str, detail: str) -> None:
    """The band at the top of a picture: the game's ``title`` and a ``subtitle`` on the left,
    the ``headline`` (gold: whose decision, or the result) and a ``detail`` line on the right."""
    x, y = HEADER.margin, HEADER.margin
    right = c.width - HEADER.margin
    c.text((x, y), title, HEADER.title_size, TABLE["text"])
    c.text((x, y + HEADER.line_y), subtitle, HEADER.small_size, TABLE["text_dim"])
    c.text((right, y), headline, HEADER.headline_size, TABLE["gold"], anchor="ra")
    c.text((right, y + HEADER.detail_y), detail, HEADER.detail_size, TABLE["text"], anchor="ra")


def save_picture(env: Any, path: str | Path) -> Path:
    """Write the table picture of ``env`` (any parlour env, wrapped or not, after ``reset``)
    as a PNG file at ``path``; the env's ``render_mode`` does not matter. Returns the path."""
    picture = env.unwrapped._table_picture()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(picture).save(out, optimize=True)
    return out
