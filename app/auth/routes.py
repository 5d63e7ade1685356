from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from ..extensions import db
from ..models import User
from ..services import ServiceError
from ..services.accounts import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_DAYS,
    DEVICE_COOKIE_PATH,
    authenticate,
    change_password,
    device_cookie_for,
    register,
)
from ..services.sessions import end_all_sessions, end_session, open_session
from ..web import client_ip, safe_next_url, show_service_error
from . import bp
from .forms import ChangePasswordForm, LoginForm, LogoutForm, RegisterForm


def start_session(user: User) -> None:
    """A fresh session on login: drop everything but the language, then log in. The login's
    server-side record (``open_session``) is already committed."""
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    session.permanent = True
    login_user(user)


def _logged_in(user: User, response: Response) -> Response:
    """Open the login's server-side session, commit, log this browser in, and give it a device
    cookie for ``user`` (its own allowance of failed logins from now on)."""
    open_session(user)
    db.session.commit()
    start_session(user)
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie_for(user, request.cookies.get(DEVICE_COOKIE)),
        max_age=DEVICE_COOKIE_DAYS * 86400,
        path=DEVICE_COOKIE_PATH,
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        httponly=True,
        samesite="Lax",
    )
    return response


def _end_browser_session() -> None:
    """Log this browser out, keeping only its language."""
    lang = session.get("lang")
    logout_user()
    session.clear()
    if lang:
        session["lang"] = lang


def _next_target() -> str:
    target = request.form.get("next") or request.args.get("next")
    return safe_next_url(target) or url_for("main.home")


def _me() -> User:
    return current_user._get_current_object()  # type: ignore[attr-defined,no-any-return]


@bp.route("/register", methods=["GET", "POST"])
def register_view() -> ResponseReturnValue:
    form = RegisterForm()
    if request.method == "GET":
        form.next.data = safe_next_url(request.args.get("next")) or ""
    if form.validate_on_submit():
        try:
            user = register(
                form.username.data or "", form.display_name.data or "", form.password.data or ""
            )
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            response = _logged_in(user, redirect(_next_target()))
            flash(_("Welcome, %(name)s! Your account is ready.", name=user.display_name), "success")
            return response
    status = 200 if request.method == "GET" else 422
    return render_template("auth/register.html", form=form), status


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    if current_user.is_authenticated and request.method == "GET":
        return redirect(_next_target())
    form = LoginForm()
    if request.method == "GET":
        form.next.data = safe_next_url(request.args.get("next")) or ""
    error: str | None = None
    if form.validate_on_submit():
        try:
            user = authenticate(
                form.username.data or "",
                form.password.data or "",
                client_ip(),
                request.cookies.get(DEVICE_COOKIE),
            )
        except ServiceError as refused:
            db.session.commit()  # keep the record of the failed attempt
            error = refused.message
        else:
            return _logged_in(user, redirect(_next_target()))
    status = 200 if request.method == "GET" else 422
    return render_template("auth/login.html", form=form, error=error), status


@bp.post("/logout")
def logout() -> Response:
    form = LogoutForm()
    if form.validate_on_submit():
        if current_user.is_authenticated:
            end_session(_me())  # every copy of this browser's cookie stops working
            db.session.commit()
        _end_browser_session()
        flash(_("You are logged out."), "info")
    return redirect(url_for("main.home"))


@bp.post("/logout-everywhere")
@login_required
def logout_everywhere() -> Response:
    form = LogoutForm()
    if form.validate_on_submit():
        end_all_sessions(_me())
        db.session.commit()
        _end_browser_session()
        flash(_("You are logged out everywhere: on every device and browser."), "info")
    return redirect(url_for("main.home"))


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password() -> ResponseReturnValue:
    form = ChangePasswordForm()
    if form.validate_on_submit():
        user = _me()
        try:
            change_password(user, form.current_password.data or "", form.new_password.data or "")
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            # every login ended; this browser gets a new one
            response = _logged_in(user, redirect(url_for("main.home")))
            flash(_("Your password is changed. Other devices are logged out."), "success")
            return response
    status = 200 if request.method == "GET" else 422
    return render_template("auth/password.html", form=form), status
