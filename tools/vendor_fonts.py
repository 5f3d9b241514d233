"""Bring the web client's fonts in from the Fontsource packages of the npm registry.

Run once by a developer (the result is committed; nothing is fetched at run time):

    python tools/vendor_fonts.py

It runs ``npm pack`` for @fontsource/noto-sans, @fontsource/vazirmatn and
@fontsource/noto-sans-kr (pinned below) in a temporary folder and copies into
``src/citadels/web/fonts/``: Noto Sans (Latin, Latin Extended, Cyrillic, Vietnamese; 400 and
700), Vazirmatn (Arabic script, for Persian; 400 and 700) and the slices of Noto Sans KR that
hold Hangul (400 only, to keep the client small), with ``fonts.css`` declaring them as two
families, each file with its ``unicode-range`` so a browser fetches only the files the page's
text needs: "Citadels Text" (everything but Hangul) and "Citadels Hangul", whose one weight is
declared for every weight (100 to 900). A browser matches a weight within one family first: were
Hangul a 400-only part of "Citadels Text", bold Korean would skip it for the system's fonts.
All three are under the SIL Open Font License 1.1 (copied beside them).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "citadels" / "web" / "fonts"
FAMILY = "Citadels Text"
HANGUL = "Citadels Hangul"
PACKAGES = {
    "noto-sans": ("@fontsource/noto-sans@5.3.0", ["400", "700"]),
    "vazirmatn": ("@fontsource/vazirmatn@5.3.0", ["400", "700"]),
    "noto-sans-kr": ("@fontsource/noto-sans-kr@5.3.0", ["400"]),
}
# Which of a package's subsets to keep (the Korean slices are numbered; kept if they hold Hangul).
SUBSETS = {
    "noto-sans": {"latin", "latin-ext", "cyrillic", "cyrillic-ext", "vietnamese"},
    "vazirmatn": {"arabic"},
}


def _faces(short: str) -> re.Pattern[str]:
    """The @font-face rules of a Fontsource stylesheet of package ``short``."""
    return re.compile(
        r"/\* " + re.escape(short) + r"-(?:\[(?P<slice>\d+)\]|(?P<subset>[a-z-]+?))-(?P<weight>\d+)"
        r"-normal \*/.*?url\(\./files/(?P<file>[^)]+\.woff2)\).*?unicode-range: (?P<range>[^;]+);",
        re.S,
    )


def _codepoints(ranges: str) -> set[int]:
    out: set[int] = set()
    for part in ranges.split(","):
        lo, _, hi = part.strip()[2:].partition("-")
        out.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return out


def _hangul(ranges: str) -> bool:
    return any(0xAC00 <= c <= 0xD7A3 or 0x1100 <= c <= 0x11FF or 0x3130 <= c <= 0x318F
               for c in _codepoints(ranges))  # fmt: skip


def main() -> None:
    if OUT.exists():
        for old in OUT.glob("*.woff2"):
            old.unlink()
    OUT.mkdir(parents=True, exist_ok=True)
    css = [
        f'/* The web client\'s fonts: "{FAMILY}" covers Latin, Cyrillic, Vietnamese (Noto Sans)',
        f'   and Persian (Vazirmatn); "{HANGUL}" covers Hangul (Noto Sans KR). Made by',
        "   tools/vendor_fonts.py from the Fontsource packages; SIL Open Font License 1.1. */",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for short, (spec, weights) in PACKAGES.items():
            subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True,
                           capture_output=True)  # fmt: skip
            tgz = next(Path(tmp).glob(f"fontsource-{short}-*.tgz"))
            root = Path(tmp) / short
            with tarfile.open(tgz) as tar:
                tar.extractall(root, filter="data")
            pkg = root / "package"
            shutil.copy(pkg / "LICENSE", OUT / f"LICENSE-{short}.txt")
            for weight in weights:
                text = (pkg / f"{weight}.css").read_text(encoding="utf-8")
                for m in _faces(short).finditer(text):
                    keep = SUBSETS.get(short)
                    if keep is not None and m["subset"] not in keep:
                        continue
                    if keep is None and not _hangul(m["range"]):
                        continue
                    shutil.copy(pkg / "files" / m["file"], OUT / m["file"])
                    family, weights = (HANGUL, "100 900") if keep is None else (FAMILY, weight)
                    css.append(
                        f'@font-face {{ font-family: "{family}"; font-style: normal; '
                        f"font-weight: {weights}; font-display: swap; "
                        f'src: url(./{m["file"]}) format("woff2"); unicode-range: {m["range"]}; }}'
                    )
    (OUT / "fonts.css").write_text("\n".join(css) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
