"""Make docs/screenshot.png, the README's picture of a tournament night: a director's score sheet
(记分表) on a phone beside the live standings on a projector, in Chinese.

Run it against the demo club of a running app (`make run` in another terminal), with Debian's
chromium (`make test` installs it):

    .venv/bin/python docs/screenshot.py [--base http://127.0.0.1:5000]
"""

from __future__ import annotations

import argparse
import io
import shutil
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

OUT = Path(__file__).resolve().parent / "screenshot.png"
CLUB = "/clubs/demo-shengji-club"
SHEET = f"{CLUB}/tournaments/1/rounds/1/tables/2"  # Demo 升级 Swiss, a table with one deal
PROJECTOR = "/standings/2?projector=1"  # Demo 红五 Re-seat
FRAME = (28, 34, 42)
BACKGROUND = (226, 230, 235)


def sign_in_in_chinese(page: Page, base: str) -> None:
    page.goto(f"{base}/account/login")
    page.fill("input[name=username]", "lihua")
    page.fill("input[name=password]", "shengji-demo")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    zh = page.locator("header button[value=zh]")
    if zh.count():
        zh.click()
        page.wait_for_load_state()


def shot(page: Page, url: str, *, full: bool) -> Image.Image:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return Image.open(io.BytesIO(page.screenshot(full_page=full))).convert("RGB")


def framed(img: Image.Image, border: int) -> Image.Image:
    out = Image.new("RGB", (img.width + 2 * border, img.height + 2 * border), FRAME)
    out.paste(img, (border, border))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:5000")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is missing (make test installs it)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        context = browser.new_context(locale="zh-CN")  # one session for both screens
        phone = context.new_page()
        phone.set_viewport_size({"width": 390, "height": 820})
        sign_in_in_chinese(phone, args.base)
        sheet = shot(phone, args.base + SHEET, full=False)
        wall = context.new_page()
        wall.set_viewport_size({"width": 1280, "height": 720})
        projector = shot(wall, args.base + PROJECTOR, full=False)
        browser.close()
    phone_img = framed(sheet, 12)
    projector_img = framed(projector.resize((896, 504)), 10)
    margin = 28
    width = margin + phone_img.width + 4 + projector_img.width + margin
    height = margin + phone_img.height + margin
    canvas = Image.new("RGB", (width, height), BACKGROUND)
    canvas.paste(phone_img, (margin, margin))
    top = margin + (phone_img.height - projector_img.height) // 2
    canvas.paste(projector_img, (margin + phone_img.width + 4, top))
    canvas.save(OUT, optimize=True)
    print(f"Wrote {OUT} ({width}×{height})")


if __name__ == "__main__":
    main()
