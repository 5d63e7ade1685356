from __future__ import annotations

from flask import redirect, render_template, request, session, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from ..config import SUPPORTED_LOCALES
from ..services.clubs import clubs_of
from ..services.online.seats import ready_for
from ..web import safe_next_url
from . import bp


@bp.get("/")
def home() -> str:
    if not current_user.is_authenticated:
        return render_template("main/home.html", clubs=[], ready=[])
    return render_template(
        "main/home.html", clubs=clubs_of(current_user), ready=ready_for(current_user)
    )


@bp.post("/lang")
def set_language() -> Response:
    """Remember the chosen language in the session (works without JavaScript)."""
    lang = request.form.get("lang", "")
    if lang in SUPPORTED_LOCALES:
        session["lang"] = lang
    return redirect(safe_next_url(request.form.get("next")) or url_for("main.home"))
