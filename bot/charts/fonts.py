"""A CJK font for matplotlib, so Chinese labels render as characters and not as empty boxes.

The font file comes from the `mplfonts` wheel (Noto Sans CJK SC), a normal dependency, so it is
there after `pip install` on any machine, with no system fonts. It is registered with matplotlib's
font manager in memory only: matplotlib's own configuration and cache files are left alone.
"""

from __future__ import annotations

import importlib.util
import logging
from functools import lru_cache
from pathlib import Path

from matplotlib import font_manager

log = logging.getLogger(__name__)

LATIN_FAMILY = "DejaVu Sans"  # ships with matplotlib
CJK_FAMILY = "Noto Sans CJK SC"
CJK_FILE = "NotoSansCJKsc-Regular.otf"


def bundled_cjk_font() -> Path | None:
    """The Noto Sans CJK SC file inside the installed `mplfonts` package (found without importing it)."""
    spec = importlib.util.find_spec("mplfonts")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "fonts" / CJK_FILE
    return path if path.is_file() else None


@lru_cache(maxsize=1)
def register_cjk_font() -> str | None:
    """Add the CJK font to matplotlib once; its family name, or None when no CJK font is available."""
    if any(f.name == CJK_FAMILY for f in font_manager.fontManager.ttflist):
        return CJK_FAMILY
    path = bundled_cjk_font()
    if path is None:
        log.warning("no CJK font found (is the mplfonts package installed?): Chinese chart labels will not render")
        return None
    font_manager.fontManager.addfont(str(path))
    return str(font_manager.FontProperties(fname=str(path)).get_name())


def font_families() -> list[str]:
    """Font families in fallback order: Latin text in DejaVu Sans, every other glyph from the CJK font."""
    cjk = register_cjk_font()
    return [LATIN_FAMILY, cjk] if cjk else [LATIN_FAMILY]


register_cjk_font()
